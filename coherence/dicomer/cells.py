"""The non-nil cells of many role matrices as flat integer arrays, and the counts DICOMER's
features read off them: length-n role transitions and intra-cell role bigrams.

One numpy pass counts a whole batch of texts (or one matrix), instead of enumerating each
window's Cartesian product in Python: on SummEval's summaries that loop cost as much as the
discourse parser. The counts are the integers :func:`coherence.dicomer.matrix.transitions` defines
(spec 3.3): a window yields the product of its cells (an empty cell is one nil symbol) and windows
of empty cells only are counted arithmetically.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def expand_ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])`` without the loop."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(counts) - counts
    return np.repeat(np.asarray(starts, dtype=np.int64) - offsets, counts) + np.arange(total, dtype=np.int64)


@dataclass(frozen=True)
class Cells:
    """Non-nil cells of the role matrices of a batch of texts.

    Column ``c`` belongs to text ``col_text[c]`` and salience block ``col_block[c]``; entry ``i``
    gives column ``col[i]`` the role ``role[i]`` in sentence ``sent[i]``. Entries are unique and
    sorted by (column, sentence, role); role ids index ``roles``, which is sorted, so the entries
    of a cell are in the roles' string order (the intra-cell bigrams' order)."""

    n_sentences: np.ndarray
    col_text: np.ndarray
    col_block: np.ndarray
    col: np.ndarray
    sent: np.ndarray
    role: np.ndarray
    roles: tuple[str, ...]

    @classmethod
    def build(cls, n_sentences, col_text, col_block, col, sent, role, roles: tuple[str, ...]) -> Cells:
        """Cells from entries in any order, duplicates allowed (a term twice in one argument)."""
        n_sentences = np.asarray(n_sentences, dtype=np.int64)
        col, sent, role = (np.asarray(a, dtype=np.int64) for a in (col, sent, role))
        span, n_roles = int(n_sentences.max(initial=0)) + 1, max(len(roles), 1)
        key = np.unique((col * span + sent) * n_roles + role)
        return cls(n_sentences, np.asarray(col_text, dtype=np.int64), np.asarray(col_block, dtype=np.int64),
                   key // (span * n_roles), key // n_roles % span, key % n_roles, roles)

    @property
    def n_texts(self) -> int:
        return len(self.n_sentences)

    def _span(self, n: int = 1) -> int:
        """A sentence bound for packing (column, sentence) into one integer, windows included."""
        return int(self.n_sentences.max(initial=0)) + n + 1

    def _cells(self, span: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Packed (column, sentence) key, first entry and size of each non-nil cell, by key."""
        return np.unique(self.col * span + self.sent, return_index=True, return_counts=True)


@dataclass(frozen=True)
class Counts:
    """Counted role sequences: row ``i`` says sequence ``code[i]`` (role ids in base
    ``len(roles) + 1``, nil = ``len(roles)``, first role most significant) occurs ``count[i]``
    times in block ``block[i]`` of text ``text[i]``; ``totals[t * n_blocks + b]`` is the number of
    sequences of block ``b`` of text ``t``."""

    text: np.ndarray
    block: np.ndarray
    code: np.ndarray
    count: np.ndarray
    totals: np.ndarray
    n_blocks: int

    @property
    def total(self) -> np.ndarray:
        """The block total of each row."""
        return self.totals[self.text * self.n_blocks + self.block]


def _counts(keys: np.ndarray, base: int, n_blocks: int, totals: np.ndarray) -> Counts:
    """Counts of packed ``(text * n_blocks + block) * base + code`` keys."""
    unique, count = np.unique(keys, return_counts=True)
    cell = unique // base
    return Counts(cell // n_blocks, cell % n_blocks, unique % base, count, totals, n_blocks)


def transition_counts(cells: Cells, n: int, n_blocks: int, nil_only: bool = False) -> Counts:
    """Length-``n`` role sequences of every block of every text and the block totals; sequences
    of nil alone are counted in the totals and listed only with ``nil_only`` (the entity grid)."""
    nil = len(cells.roles)
    base = (nil + 1) ** n
    span = cells._span(n)
    windows = cells.n_sentences[cells.col_text] - n + 1  # per column; <= 0: the text is too short
    key, start, size = cells._cells(span)
    cell_col, cell_sent = key // span, key % span
    first = np.maximum(cell_sent - n + 1, 0)
    last = np.minimum(cell_sent, windows[cell_col] - 1)
    touched = np.unique(expand_ranges(cell_col * span + first, np.maximum(last - first + 1, 0)))
    options = np.ones((n, len(touched)), dtype=np.int64)   # roles at each window position (nil = 1)
    starts = np.zeros((n, len(touched)), dtype=np.int64)
    present = np.zeros((n, len(touched)), dtype=bool)
    if len(key):
        for k in range(n):
            at = np.minimum(np.searchsorted(key, touched + k), len(key) - 1)
            present[k] = key[at] == touched + k
            options[k] = np.where(present[k], size[at], 1)
            starts[k] = start[at]
    products = options.prod(axis=0)
    window = np.repeat(np.arange(len(touched)), products)
    rest = expand_ranges(np.zeros(len(touched), dtype=np.int64), products)
    code = np.zeros(len(window), dtype=np.int64)
    for k in reversed(range(n)):  # the last position varies fastest, as in itertools.product
        m = options[k][window]
        pick = rest % m
        rest //= m
        here = present[k][window]
        role = np.where(here, cells.role[np.where(here, starts[k][window] + pick, 0)], nil)
        code += role * (nil + 1) ** (n - 1 - k)
    n_cols = len(cells.col_text)
    touched_col = touched // span
    per_col = np.bincount(touched_col, minlength=n_cols)
    empty = np.where(windows > 0, windows - per_col, 0)
    column_total = empty + np.bincount(touched_col, weights=products, minlength=n_cols).astype(np.int64)
    block_of_col = cells.col_text * n_blocks + cells.col_block
    size_tb = cells.n_texts * n_blocks
    totals = np.bincount(block_of_col, weights=column_total, minlength=size_tb).astype(np.int64)
    keys = block_of_col[touched_col][window] * base + code
    if nil_only:
        empty_tb = np.bincount(block_of_col, weights=empty, minlength=size_tb).astype(np.int64)
        nil_code = sum(nil * (nil + 1) ** k for k in range(n))
        blocks = np.flatnonzero(empty_tb)
        keys = np.concatenate([keys, np.repeat(blocks * base + nil_code, empty_tb[blocks])])
    return _counts(keys, base, n_blocks, totals)


def intra_cell_counts(cells: Cells, n_blocks: int) -> Counts:
    """Ordered role pairs (a before b in string order) within each cell, per block of each text,
    and the block totals; codes in base ``len(roles) + 1``, ``a`` most significant."""
    base = len(cells.roles) + 1
    _, start, size = cells._cells(cells._span())
    cell = np.repeat(np.arange(len(start)), size)
    after = size[cell] - 1 - (np.arange(len(cell)) - start[cell])  # later entries of the same cell
    first = np.repeat(np.arange(len(cell)), after)
    second = first + 1 + expand_ranges(np.zeros(len(cell), dtype=np.int64), after)
    block = (cells.col_text * n_blocks + cells.col_block)[cells.col[first]]
    totals = np.bincount(block, minlength=cells.n_texts * n_blocks)
    return _counts(block * base * base + cells.role[first] * base + cells.role[second], base * base, n_blocks, totals)


def decode(code: int, n: int, roles: tuple[str, ...], nil: str) -> tuple[str, ...]:
    """The role names of a sequence code of :class:`Counts` (nil id = ``len(roles)``)."""
    base = len(roles) + 1
    names = []
    for _ in range(n):
        code, r = divmod(code, base)
        names.append(nil if r == len(roles) else roles[r])
    return tuple(reversed(names))


@dataclass(frozen=True)
class FeatureTable:
    """Sparse named features of a batch: text ``text[i]`` has feature ``names[name[i]]`` with
    value ``value[i]`` (each name at most once per text)."""

    n_texts: int
    text: np.ndarray
    name: np.ndarray
    value: np.ndarray
    names: tuple[str, ...]

    def dicts(self) -> list[dict[str, float]]:
        """One feature dict per text, in text order."""
        order = np.argsort(self.text, kind="stable")
        ends = np.cumsum(np.bincount(self.text, minlength=self.n_texts)).tolist()
        names = [self.names[i] for i in self.name[order].tolist()]
        values = self.value[order].tolist()
        out, start = [], 0
        for end in ends:
            out.append(dict(zip(names[start:end], values[start:end])))
            start = end
        return out


#: feature names by family and (block, code), see :meth:`FeatureRows.add_counts`
_NAMES: dict[tuple, dict[tuple[int, int], str]] = {}
MAX_FAMILIES = 64


class FeatureRows:
    """Collects the features of a batch part by part, then :meth:`table`."""

    def __init__(self, n_texts: int):
        self.n_texts = n_texts
        self._parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._names: list[str] = []

    def add(self, text: np.ndarray, name: str, value: float) -> None:
        """The feature ``name`` = ``value`` for each text in ``text``."""
        text = np.asarray(text, dtype=np.int64)
        self._parts.append((text, np.full(len(text), len(self._names)), np.full(len(text), float(value))))
        self._names.append(name)

    def add_counts(self, counts: Counts, family: tuple, key: Callable[[int, int], str],
                   relative: bool = True) -> None:
        """One feature per row of ``counts``, named ``key(block, code)``, valued count / block
        total (``relative``) or the count. Names are kept per ``family`` (everything ``key``
        depends on besides block and code), so a process builds each name once."""
        names = _NAMES.setdefault(family, {})
        if len(_NAMES) > MAX_FAMILIES:
            _NAMES.clear()
            _NAMES[family] = names
        width = int(counts.code.max(initial=0)) + 1
        pairs, which = np.unique(counts.block * width + counts.code, return_inverse=True)
        for pair in pairs.tolist():
            if (pair // width, pair % width) not in names:
                names[pair // width, pair % width] = key(pair // width, pair % width)
        self._parts.append((counts.text, which.reshape(-1) + len(self._names),
                            counts.count / counts.total if relative else counts.count.astype(float)))
        self._names.extend(names[pair // width, pair % width] for pair in pairs.tolist())

    def table(self) -> FeatureTable:
        if not self._parts:
            empty = np.zeros(0, dtype=np.int64)
            return FeatureTable(self.n_texts, empty, empty, np.zeros(0), ())
        text, name, value = (np.concatenate(a) for a in zip(*self._parts))
        return FeatureTable(self.n_texts, text, name, value, tuple(self._names))
