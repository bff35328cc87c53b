"""Weighted bags of n-grams (BNG): contiguous n-grams and skip-bigrams, with the TESLA
function-word discount (weight multiplied by ``discount`` for every function word inside).

Two forms. A ``dict`` bag maps an n-gram (a tuple of tokens) to its weight: easy to inspect, what
:mod:`evalcore.matching` matches. An :class:`IdBag` holds the same weights as numpy arrays over
integer token ids, built for many texts in one vectorised pass; :class:`BagRows` computes the
exact-match overlaps of many (candidate, reference) pairs from them (TESLA-S, ROUGE-SU).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from importlib import import_module
from typing import NamedTuple, TypeVar

import numpy as np

from evalcore.extras import numba_installed
from evalcore.text.arrays import ranges, run_starts
from evalcore.text.preprocess import Doc

Bag = dict[tuple[str, ...], float]
#: a token of :func:`weighted_ngrams`: a word, or any hashable unit (a (lemma, tag) pair)
T = TypeVar("T", bound=Hashable)


def token_weights(doc: Doc, discount: float | None) -> list[float]:
    """Per-token weight: ``discount`` for function words, 1 otherwise (all 1 without discount)."""
    if discount is None:
        return [1.0] * len(doc.tokens)
    return [discount if f else 1.0 for f in doc.function]


def ngram_bag(doc: Doc, n: int, discount: float | None = None) -> Bag:
    """Contiguous n-grams of ``doc``; weight = product of the token weights (count if no discount)."""
    return weighted_ngrams(doc.tokens, token_weights(doc, discount), n)


def weighted_ngrams(tokens: tuple[T, ...], weights: Sequence[float], n: int) -> dict[tuple[T, ...], float]:
    """Contiguous n-grams of any hashable tokens; weight = product of the tokens' ``weights``."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    bag: dict[tuple[T, ...], float] = {}
    for i in range(len(tokens) - n + 1):
        weight = 1.0
        for k in range(i, i + n):
            weight *= weights[k]
        gram = tokens[i:i + n]
        bag[gram] = bag.get(gram, 0.0) + weight
    return bag


def skip_bigram_bag(doc: Doc, max_gap: int = 4, discount: float | None = None) -> Bag:
    """Skip-bigrams (w_i, w_j) with 0 < j - i <= max_gap + 1, i.e. at most ``max_gap`` words
    in between: ROUGE-1.5.5's "skip distance" (``-2 4`` allows four words between)."""
    if max_gap < 0:
        raise ValueError(f"max_gap must be >= 0, got {max_gap}")
    toks, w = doc.tokens, token_weights(doc, discount)
    bag: Bag = {}
    n = len(toks)
    for i in range(n - 1):
        ti, wi = toks[i], w[i]
        for j in range(i + 1, min(n, i + max_gap + 2)):
            gram = (ti, toks[j])
            bag[gram] = bag.get(gram, 0.0) + wi * w[j]
    return bag


def merge(bags: Sequence[Bag]) -> Bag:
    """Sum of several bags (e.g. skip-bigrams plus unigrams for ROUGE-SU)."""
    out: Bag = {}
    for bag in bags:
        for gram, weight in bag.items():
            out[gram] = out.get(gram, 0.0) + weight
    return out


def total(bag: Mapping[tuple, float]) -> float:
    """Total weight of a bag."""
    return float(sum(bag.values()))


# ---- integer-id bags: the vectorised form the batch scorers use ------------------------------------
# A text's tokens become int ids (one process-wide vocabulary); an n-gram becomes one int64 key
# (a skip-bigram (a, b) is ``a << 32 | b``), so a bag is two numpy arrays built without a Python
# loop per n-gram. Keys keep the order of first occurrence and weights are summed in text order,
# exactly as the dict bags above add them, so both forms hold the same floats.

class IdBag(NamedTuple):
    """A bag of n-grams as arrays: ``keys`` (int64, in order of first occurrence) and ``weights``."""

    keys: np.ndarray
    weights: np.ndarray


_vocabulary: dict[str, int] = {}


def token_id(token: str) -> int:
    """The process-wide integer id of one token."""
    return _vocabulary.setdefault(token, len(_vocabulary))


def token_ids(tokens: Sequence[str]) -> np.ndarray:
    """Process-wide integer ids of ``tokens`` (equal tokens, equal ids; new tokens get new ids)."""
    vocab = _vocabulary
    known = vocab.get
    out = [known(t) for t in tokens]
    if None in out:
        out = [vocab.setdefault(t, len(vocab)) for t in tokens]
    return np.array(out, dtype=np.int64)


def id_bags(all_ids: np.ndarray, all_w: np.ndarray, lengths: np.ndarray, max_gap: int,
            last_unigram: bool = True) -> tuple[list[IdBag], list[IdBag]]:
    """Unigram and skip-bigram bags of many texts at once, given the token ids and weights of all
    texts end to end and each text's length; the n-grams of :func:`ngram_bag` (``n=1``) and
    :func:`skip_bigram_bag`: pairs (i, j) with 0 < j - i <= max_gap + 1, weight w_i * w_j.
    ``last_unigram=False`` leaves out each text's last token from the unigrams (ROUGE-1.5.5's SU
    rule). One vectorised pass over all texts: per-text numpy calls would cost more than the work
    on texts of a few dozen words."""
    if max_gap < 0:
        raise ValueError(f"max_gap must be >= 0, got {max_gap}")
    lengths = np.asarray(lengths, dtype=np.int64)
    n_texts = len(lengths)
    all_ids, all_w = np.asarray(all_ids, dtype=np.int64), np.asarray(all_w, dtype=np.float64)
    text = np.repeat(np.arange(n_texts, dtype=np.int64), lengths)
    end = np.repeat(np.cumsum(lengths), lengths)  # one past the last token of each token's text
    first = np.arange(len(all_ids), dtype=np.int64)[:, None]
    second = first + np.arange(1, max_gap + 2, dtype=np.int64)[None, :]
    keep = second < end[:, None]
    first = np.broadcast_to(first, second.shape)[keep]  # row-major: i, then j, text by text
    second = second[keep]
    # one int64 per (text, n-gram) cell to sort on, when it fits: ids below n_ids make a skip-bigram
    # (a, b) the number a * n_ids + b < n_ids**2
    n_ids = int(all_ids.max()) + 1 if len(all_ids) else 1
    compact = n_texts * n_ids * n_ids < COMPACT_LIMIT
    if last_unigram:
        unigrams = _accumulate(all_ids, all_w, text, n_texts, text * n_ids + all_ids if compact else None)
    else:
        nl = np.arange(len(all_ids)) + 1 < end
        unigrams = _accumulate(all_ids[nl], all_w[nl], text[nl], n_texts,
                               text[nl] * n_ids + all_ids[nl] if compact else None)
    a, b, t = all_ids[first], all_ids[second], text[first]
    skips = _accumulate((a << 32) | b, all_w[first] * all_w[second], t, n_texts,
                        (t * n_ids + a) * n_ids + b if compact else None)
    return unigrams, skips


#: cells are sorted as one int64 (text, n-gram) number below this bound, else by a stable sort
#: of the keys (slower: numpy's stable sort of int64 is a merge sort)
COMPACT_LIMIT = 2**62


def _accumulate(keys: np.ndarray, weights: np.ndarray, text: np.ndarray, n_texts: int,
                cells: np.ndarray | None) -> list[IdBag]:
    """Per text, sum the weights of equal keys in text order (bincount adds sequentially, as the
    dict bags do) and keep the keys in order of first occurrence. ``text`` is non-decreasing;
    ``cells``, when given, numbers each occurrence's (text, key) cell, equal exactly when both are."""
    if not len(keys):
        return [IdBag(np.empty(0, np.int64), np.empty(0, np.float64)) for _ in range(n_texts)]
    new = np.empty(len(keys), dtype=bool)
    new[0] = True
    if cells is not None:
        perm = np.argsort(cells)
        sorted_cells = cells[perm]
        np.not_equal(sorted_cells[1:], sorted_cells[:-1], out=new[1:])
        first_at = np.minimum.reduceat(perm, np.flatnonzero(new))  # a cell's earliest occurrence
    else:
        perm = np.argsort(keys, kind="stable")  # equal keys stay in text order
        sorted_keys, sorted_text = keys[perm], text[perm]
        np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new[1:])
        new[1:] |= sorted_text[1:] != sorted_text[:-1]
        first_at = perm[new]
    cell = np.empty(len(keys), dtype=np.int64)
    cell[perm] = np.cumsum(new) - 1  # (text, key) cell of every occurrence, in text order
    sums = np.bincount(cell, weights=weights)
    first = np.zeros(len(keys), dtype=bool)  # where each cell first occurs: text by text, in text order
    first[first_at] = True
    cell_keys, cell_sums, cell_text = keys[first], sums[cell[first]], text[first]
    bounds = np.searchsorted(cell_text, np.arange(n_texts + 1))
    return [IdBag(cell_keys[a:b], cell_sums[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


#: below this many candidate n-gram entries summed over pairs, overlaps are computed in numpy
#: (a one-candidate call); above it, with scipy's sparse minimum (a corpus batch), whose one
#: C loop beats numpy's look-ups once there are millions of entries.
SMALL_PATH_ENTRIES = 200_000
#: ... and when the dense (rows x columns) look-up table of that path stays this small
SMALL_PATH_TABLE = 2_000_000


class BagRows:
    """Bags as the rows of one sparse matrix, columns numbered by first occurrence across the bags
    in order (the matrix that dict bags give). Totals and pairwise overlaps add the
    same floats in the same order as scipy's CSR ``sum(axis=1)`` and ``minimum`` on that matrix
    (numpy's ``add.reduceat`` over each row's entries), so scores equal that matrix's floats exactly."""

    def __init__(self, bags: list[IdBag]):
        self.lengths = np.fromiter((len(b.keys) for b in bags), dtype=np.int64, count=len(bags))
        self.indptr = np.zeros(len(bags) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=self.indptr[1:])
        self.n_columns = 1
        self.columns, self.data = np.zeros(0, np.int64), np.zeros(0)
        if self.indptr[-1]:
            keys = np.concatenate([b.keys for b in bags])
            perm = np.argsort(keys)
            sorted_keys = keys[perm]
            new = np.empty(len(keys), dtype=bool)
            new[0] = True
            np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new[1:])
            first = np.minimum.reduceat(perm, np.flatnonzero(new))  # each key's first position
            inverse = np.empty(len(keys), dtype=np.int64)
            inverse[perm] = np.cumsum(new) - 1
            is_first = np.zeros(len(keys), dtype=bool)
            is_first[first] = True
            rank = np.cumsum(is_first) - 1  # at a key's first position: how many keys came before
            self.columns, self.data = rank[first][inverse], np.concatenate([b.weights for b in bags])
            self.n_columns = len(first)
        self.size = len(self.lengths) * self.n_columns

    def matrix(self):
        """The rows as a scipy CSR matrix (scipy is imported here: one-document runs never need it)."""
        from scipy.sparse import csr_matrix

        return csr_matrix((self.data, self.columns, self.indptr), shape=(len(self.lengths), self.n_columns))

    def totals(self) -> np.ndarray:
        """Row sums, as CSR ``sum(axis=1)`` computes them."""
        return _segment_sums(self.data, self.indptr)

    def overlaps(self, cand_idx: np.ndarray, ref_idx: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
        """Per pair, the summed element-wise minimum of row ``cand_idx[k]`` and row ``ref_idx[k]``
        (the matching weight of two bags under exact match). ``groups`` (one number per pair)
        splits the pairs into separate comparisons as if each group were its own sparse matrix
        operation (TESLA-S's unigram and skip-bigram pairs in one pass); default: one group."""
        groups = np.zeros(len(cand_idx), dtype=np.int64) if groups is None else groups
        if self.lengths[cand_idx].sum() <= SMALL_PATH_ENTRIES and self.size <= SMALL_PATH_TABLE:
            return self._overlaps_numpy(cand_idx, ref_idx, groups)
        matrix = self.matrix()
        out = np.zeros(len(cand_idx))
        for group in np.unique(groups):
            sel = groups == group
            out[sel] = np.asarray(matrix[cand_idx[sel]].minimum(matrix[ref_idx[sel]]).sum(axis=1)).ravel()
        return out

    def _overlaps_numpy(self, cand_idx: np.ndarray, ref_idx: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """Row sums of the element-wise minimum of rows ``cand_idx`` and rows ``ref_idx``, as
        ``matrix[cand_idx].minimum(matrix[ref_idx]).sum(axis=1)`` computes them per group: scipy
        visits the shared columns in ascending order when every row of the group's pairs has
        sorted columns, else in the reverse of the candidate row's order."""
        starts, counts = self.indptr[cand_idx], self.lengths[cand_idx]
        pair = np.repeat(np.arange(len(cand_idx)), counts)
        offset = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        row_sorted = _sorted_rows(self.columns, self.indptr)
        unsorted_pair = ~(row_sorted[cand_idx] & row_sorted[ref_idx])
        reverse = (np.bincount(groups, weights=unsorted_pair) > 0)[groups]
        offset = np.where(np.repeat(reverse, counts), np.repeat(counts, counts) - 1 - offset, offset)
        entry = np.repeat(starts, counts) + offset
        # look each candidate entry up in its reference's row (a dense table: the path is for few rows)
        table = np.zeros((len(self.lengths), self.n_columns))
        table[np.repeat(np.arange(len(self.lengths)), self.lengths), self.columns] = self.data
        values = np.minimum(self.data[entry], table[ref_idx[pair], self.columns[entry]])
        hit = values != 0  # scipy keeps non-zero results only (a weight may be 0: discount 0)
        values = values[hit]
        indptr = np.zeros(len(cand_idx) + 1, dtype=np.int64)
        np.cumsum(np.bincount(pair[hit], minlength=len(cand_idx)), out=indptr[1:])
        return _segment_sums(values, indptr)


def _segment_sums(data: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """Sum of each non-empty segment by ``np.add.reduceat`` (scipy's ``_minor_reduce``), 0 elsewhere."""
    out = np.zeros(len(indptr) - 1)
    nonempty = np.flatnonzero(np.diff(indptr))
    if len(nonempty):
        out[nonempty] = np.add.reduceat(data, indptr[nonempty])
    return out


def _sorted_rows(columns: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """Per row, whether its columns strictly increase (scipy's canonical format)."""
    steps = np.zeros(len(columns) + 1, dtype=np.int64)  # steps[k]: entries before k that do not rise
    np.cumsum(columns[1:] <= columns[:-1], out=steps[2:])
    lo, hi = indptr[:-1], indptr[1:]
    return steps[hi] == steps[np.minimum(lo + 1, hi)]  # no fall after a row's first entry


# ---- many bags in flat arrays: built with one sort, compared with one join -----------------------
# The corpus-batch form: the bags of all texts of a batch in a few flat arrays, so building them
# and computing every (candidate, reference) overlap costs a fixed number of numpy calls whatever
# the number of texts, with no per-n-gram Python and no scipy. Sorts are numpy's SIMD ``np.sort``
# of int64 numbers holding a sort key and the element's position (3x faster than ``argsort``).

class Occurrences(NamedTuple):
    """N-gram occurrences of many bags: n-gram (``first``, ``second``) of token ids (``second`` =
    -1 for a unigram), ``weights``, and the ``bag`` each belongs to; a bag's occurrences are
    contiguous, in text order. An :class:`IdBag`'s entries are occurrences too (one per n-gram)."""

    first: np.ndarray
    second: np.ndarray
    weights: np.ndarray
    bag: np.ndarray


def occurrences(all_ids: np.ndarray, all_w: np.ndarray, lengths: np.ndarray, max_gap: int,
                last_unigram: bool = True, merged: bool = False) -> Occurrences:
    """Unigram and skip-bigram occurrences of many texts (token ids and weights end to end, each
    text's length): text ``t``'s unigrams go to bag ``2t``, its skip-bigrams (pairs (i, j) with
    0 < j - i <= max_gap + 1, weight w_i * w_j, in the order of :func:`skip_bigram_bag`) to bag
    ``2t + 1``; ``merged``: both to bag ``t``, unigrams first (ROUGE-SU counts them together).
    ``last_unigram=False`` drops each text's last token from the unigrams (ROUGE-1.5.5's SU rule)."""
    if max_gap < 0:
        raise ValueError(f"max_gap must be >= 0, got {max_gap}")
    lengths = np.asarray(lengths, dtype=np.int64)
    all_ids, all_w = np.asarray(all_ids, dtype=np.int64), np.asarray(all_w, dtype=np.float64)
    n_texts, n_tokens, width = len(lengths), len(all_ids), max_gap + 1
    text = np.repeat(np.arange(n_texts, dtype=np.int64), lengths)
    left = np.repeat(np.cumsum(lengths), lengths) - np.arange(n_tokens)  # tokens from each token to its text's end
    # pairs (i, i + g), 0 < g <= max_gap + 1, inside one text: row-major, i.e. i, then j, text by text
    cell = np.flatnonzero(np.arange(1, width + 1)[None, :] < left[:, None])
    first = cell // width
    second = cell - first * width + first + 1
    uni = np.arange(n_tokens) if last_unigram else np.flatnonzero(left > 1)
    n_u, n = len(uni), len(uni) + len(cell)
    out = Occurrences(np.empty(n, np.int64), np.full(n, -1, np.int64), np.empty(n), np.empty(n, np.int64))
    np.take(all_ids, uni, out=out.first[:n_u])
    np.take(all_ids, first, out=out.first[n_u:])
    np.take(all_ids, second, out=out.second[n_u:])
    np.take(all_w, uni, out=out.weights[:n_u])
    np.multiply(all_w[first], all_w[second], out=out.weights[n_u:])
    np.take(text, uni, out=out.bag[:n_u])
    np.take(text, first, out=out.bag[n_u:])
    if not merged:
        out.bag[:n_u] *= 2
        out.bag[n_u:] *= 2
        out.bag[n_u:] += 1
    order = np.argsort(out.bag, kind="stable")  # bag by bag, each in text order
    return Occurrences(*(a[order] for a in out))


def _sort_positions(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(order, sorted values) of non-negative int64 ``values``, ties kept in position order: one
    ``np.sort`` of ``value << b | position`` when that fits in 63 bits, else a stable argsort."""
    n = len(values)
    bits = max(int(n - 1).bit_length(), 1)
    top = int(values.max()) if n else 0
    if top < 1 << (63 - bits):
        packed = np.sort((values << bits) | np.arange(n, dtype=np.int64))
        return packed & ((1 << bits) - 1), packed >> bits
    order = np.argsort(values, kind="stable")
    return order, values[order]


#: n-gram occurrences (this process's so far, this batch's included) from which
#: :meth:`BagSet.of_texts` bags and joins in compiled code (:mod:`evalcore.text.ngram_kernels`)
#: where numba is installed: numba's import (~0.4 s, once) pays from there on, for a corpus batch
#: or a long loop of one-candidate calls; a one-document run stays below and never imports numba
CORPUS_FROM = 100_000
#: n-gram occurrences of one batch from which it takes the dense local tables
#: (:mod:`evalcore.text.ngram_tables`) where the compiled code does not serve: their fixed cost (a
#: few dozen numpy calls, table allocations) is more than the sorts' on a document's batch
TABLES_FROM = 50_000
_bagged = 0  # n-gram occurrences bagged by this process


class BagSet:
    """The bags of many texts as flat arrays.

    Bag ``b`` holds cells ``indptr[b]:indptr[b + 1]``: its distinct n-grams in order of first
    occurrence, ``weights`` summed in text order (what :func:`ngram_bag` holds, float for float),
    ``keys`` numbering n-grams (equal n-grams, equal keys, across all bags). Totals and overlaps
    are the floats scipy's CSR ``sum(axis=1)`` and ``minimum(...).sum(axis=1)`` give on the matrix
    whose rows are the bags in order and whose columns are numbered by first occurrence
    (:class:`BagRows` is that matrix).

    Three engines compute the same floats: numpy with sorts (from :class:`Occurrences`; keys are
    dense ranks) for small batches, and for a corpus batch (:meth:`of_texts`), where numpy's
    passes over memory would dominate, compiled kernels where numba is installed, else numpy with
    dense local tables (keys are the n-grams' numbers in both)."""

    #: "sort" (from :class:`Occurrences`, keys are dense ranks), "tables" or "compiled" (keys are n-gram numbers)
    engine = "sort"

    def __init__(self, occ: Occurrences, n_bags: int):
        """Bags from occurrences given bag by bag, bags in increasing order (as :func:`occurrences`
        gives them), with one sort."""
        n = len(occ.first)
        if n and (np.any(occ.bag[1:] < occ.bag[:-1]) or occ.bag[0] < 0 or occ.bag[-1] >= n_bags):
            raise ValueError("occurrences must come bag by bag, bags in increasing order below n_bags")
        self.n_bags = n_bags
        self._width = int(max(occ.first.max(), occ.second.max())) + 2 if n else 1
        bag_bits = max(int(n_bags - 1).bit_length(), 1)
        # one number per (n-gram, bag); sorted with positions, a cell's occurrences are a run in text order
        pos, cell_key = _sort_positions(((occ.first * self._width + (occ.second + 1)) << bag_bits) | occ.bag)
        new_cell = run_starts(cell_key)
        sums = np.bincount(np.cumsum(new_cell) - 1, weights=occ.weights[pos])  # in text order, as dicts add
        starts = np.flatnonzero(new_cell)
        first_pos, cell_ngram = pos[starts], cell_key[starts] >> bag_bits
        new_ngram = run_starts(cell_ngram)
        # bag order: a bag's cells by first position (occurrences come bag by bag)
        is_first = np.zeros(n, dtype=bool)
        is_first[first_pos] = True
        dest = (np.cumsum(is_first) - 1)[first_pos]
        self.keys = np.empty(len(starts), dtype=np.int64)
        self.keys[dest] = np.cumsum(new_ngram) - 1
        self.weights = np.empty(len(starts))
        self.weights[dest] = sums
        self.indptr = np.zeros(n_bags + 1, dtype=np.int64)
        np.cumsum(np.bincount(occ.bag[is_first], minlength=n_bags), out=self.indptr[1:])
        self._ngrams = cell_ngram[new_ngram]  # rank -> n-gram number (first * width + second + 1)
        # scipy's canonical format: a bag's columns (first occurrences over the bags in order) rise
        first_seen = np.minimum.reduceat(dest, np.flatnonzero(new_ngram)) if n else dest
        self._canonical = _sorted_rows(first_seen[self.keys], self.indptr)

    @classmethod
    def of_texts(cls, ids: np.ndarray, weights: np.ndarray, lengths: np.ndarray, max_gap: int,
                 last_unigram: bool = True, merged: bool = False) -> BagSet:
        """The unigram and skip-bigram bags of texts, laid out as :func:`occurrences` lays them out
        (same arguments). From :data:`CORPUS_FROM` occurrences on, a corpus batch: in compiled
        code where numba is installed (the ``fast`` extra), else with dense local tables
        (:mod:`evalcore.text.ngram_tables`); the same floats either way."""
        global _bagged
        lengths = np.asarray(lengths, dtype=np.int64)
        n_bags = len(lengths) * (1 if merged else 2)
        n_occurrences = len(ids) * (max_gap + 2)
        _bagged += n_occurrences
        if max_gap < 0:
            raise ValueError(f"max_gap must be >= 0, got {max_gap}")
        compiled = _bagged >= CORPUS_FROM and numba_installed()
        if compiled or n_occurrences >= TABLES_FROM:
            ids, weights = np.asarray(ids, dtype=np.int64), np.asarray(weights, dtype=np.float64)
            if compiled:
                from evalcore.text.ngram_kernels import bag_texts, table_bits

                built = bag_texts(ids, weights, lengths, max_gap, last_unigram, merged,
                                  table_bits(int(lengths.max()) * (max_gap + 2)))
                engine = "compiled"
            else:
                from evalcore.text import ngram_tables

                built = ngram_tables.bag_texts(ids, weights, lengths, max_gap, last_unigram, merged)
                engine = "tables"
            if built is not None:
                self = cls.__new__(cls)
                self.engine, self.n_bags = engine, n_bags
                self.keys, self.weights, self.indptr = built
                self._width = int(ids.max(initial=0)) + 2
                self._ngrams = np.empty(0, dtype=np.int64)  # the sort engine's alone
                self._canonical = np.empty(0, dtype=bool)
                return self
        return cls(occurrences(ids, weights, lengths, max_gap, last_unigram, merged), n_bags)

    @property
    def compiled(self) -> bool:
        """Whether the bags were built, and are joined, by the compiled kernels."""
        return self.engine == "compiled"

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.indptr)

    def id_bags(self, bags: Sequence[int]) -> list[IdBag]:
        """Bags ``bags`` as :class:`IdBag` s, keys as :func:`id_bags` gives them (a unigram's key is
        its token id, a skip-bigram's ``first << 32 | second``)."""
        first, second = np.divmod(self._ngrams[self.keys] if self.engine == "sort" else self.keys, self._width)
        keys = np.where(second == 0, first, (first << 32) | (second - 1))
        bounds = self.indptr.tolist()
        return [IdBag(keys[bounds[b]:bounds[b + 1]], self.weights[bounds[b]:bounds[b + 1]]) for b in bags]

    def totals(self) -> np.ndarray:
        """Each bag's total weight, as CSR ``sum(axis=1)`` adds it."""
        return _segment_sums(self.weights, self.indptr)

    def _backwards(self, cand: np.ndarray, refs: np.ndarray, blocks: np.ndarray) -> np.ndarray:
        """Per query, whether its minima are added backwards: scipy adds a row's entries in
        ascending columns only when every row of the operation (the query's block) is canonical."""
        if self.engine != "sort":
            members = np.concatenate([cand[:, None], refs], axis=1)
            block_of = np.full(self.n_bags, -1, dtype=np.int64)
            block_of[members[members >= 0]] = np.broadcast_to(blocks[:, None], members.shape)[members >= 0]
            shared = np.zeros(self.n_bags, dtype=bool)  # bags in several blocks end the scan early for none
            shared[members[(members >= 0) & (block_of[np.maximum(members, 0)] != blocks[:, None])]] = True
            block_of[shared] = -2
            scan = import_module("evalcore.text.ngram_kernels" if self.compiled else "evalcore.text.ngram_tables")
            canonical = scan.canonical_prefix(self.keys, self.indptr, block_of, int(blocks.max(initial=0)) + 1)
        else:
            canonical = self._canonical
        ok = canonical[cand] & np.where(refs >= 0, canonical[refs], True).all(axis=1)
        return (np.bincount(blocks, weights=~ok) > 0)[blocks]

    def overlaps(self, cand: np.ndarray, refs: np.ndarray, blocks: np.ndarray | None = None) -> np.ndarray:
        """Matching weight under exact match (summed element-wise minimum) of bag ``cand[q]``
        against each bag ``refs[q, j]`` (-1 pads rows with fewer references): a (queries x slots)
        array, 0 at padding. ``blocks`` (one number per query) splits the queries into separate
        comparisons, as if each block were its own sparse-matrix operation (default: one block).

        The floats are scipy's: a pair's shared n-grams are added in the candidate's order
        (ascending columns) when every bag of the block is canonical, else backwards, with zero
        minima left out, as ``np.add.reduceat`` adds each row. Queries with equal reference rows
        (a document's candidates) share one look-up table, so each candidate n-gram is looked up
        once, not once per reference."""
        cand, refs = np.asarray(cand, dtype=np.int64), np.asarray(refs, dtype=np.int64).reshape(len(cand), -1)
        n_q, n_slots = refs.shape
        blocks = np.zeros(n_q, dtype=np.int64) if blocks is None else np.asarray(blocks, dtype=np.int64)
        if not n_q or not n_slots or not len(self.keys):
            return np.zeros((n_q, n_slots))
        backwards = self._backwards(cand, refs, blocks)
        set_of: dict[tuple[int, ...], int] = {}  # reference sets: equal rows of refs
        query_set = np.fromiter((set_of.setdefault(row, len(set_of)) for row in map(tuple, refs.tolist())),
                                dtype=np.int64, count=n_q)
        sets = np.array(list(set_of), dtype=np.int64).reshape(len(set_of), n_slots)
        if self.compiled:
            return self._overlaps_compiled(cand, backwards, query_set, sets)
        if self.engine == "tables":
            from evalcore.text.ngram_tables import join

            return join(self.keys, self.weights, self.indptr, self._width, cand, backwards, query_set, sets,
                        lambda q: self._overlaps_numpy(cand[q], backwards[q], query_set[q], sets))
        return self._overlaps_numpy(cand, backwards, query_set, sets)

    def _overlaps_compiled(self, cand, backwards, query_set, sets) -> np.ndarray:
        """The join in compiled code: a hash table of each reference set's n-grams."""
        from evalcore.text.ngram_kernels import pair_minima, table_bits

        order = np.argsort(query_set, kind="stable")
        bounds = np.searchsorted(query_set[order], np.arange(len(sets) + 1))
        largest = int(np.where(sets >= 0, self.lengths[sets], 0).sum(axis=1).max())
        values, run_pair, run_start = pair_minima(self.keys, self.weights, self.indptr, cand, backwards,
                                                  order, bounds, sets, table_bits(largest))
        out = np.zeros(len(cand) * sets.shape[1])
        if len(values):
            out[run_pair] = np.add.reduceat(values, run_start)
        return out.reshape(len(cand), sets.shape[1])

    def _overlaps_numpy(self, cand, backwards, query_set, sets) -> np.ndarray:
        """The join in numpy: one sort of the sets' entries and the candidates' cells together."""
        n_q, n_slots = len(cand), sets.shape[1]
        n_keys = int(self.keys.max()) + 1
        slot_set, slot_j = np.nonzero(sets >= 0)
        slot_bag = sets[slot_set, slot_j]
        lengths = self.lengths
        slot_len = lengths[slot_bag]
        ref_cell = ranges(self.indptr[slot_bag], slot_len)
        ref_key = np.repeat(slot_set, slot_len) * n_keys + self.keys[ref_cell]
        # the candidates' cells, in the order their minima are added
        q_len = lengths[cand]
        q_cell = ranges(self.indptr[cand], q_len, backwards)
        q_of = np.repeat(np.arange(n_q, dtype=np.int64), q_len)
        q_key = query_set[q_of] * n_keys + self.keys[q_cell]
        # join: sort table entries and look-ups together, table entries first within a key
        n_ref = len(ref_key)
        order, joined = _sort_positions(np.concatenate([ref_key << 1, (q_key << 1) | 1]))
        run = np.cumsum(run_starts(joined >> 1)) - 1
        is_lookup = (joined & 1).astype(bool)
        run_start = np.flatnonzero(run_starts(run))
        per_run = np.bincount(run[~is_lookup], minlength=len(run_start))
        at = np.flatnonzero(is_lookup)
        lookup = order[at] - n_ref
        hits = np.zeros(len(q_key), dtype=np.int64)
        hits[lookup] = per_run[run[at]]
        first_hit = np.zeros(len(q_key), dtype=np.int64)
        first_hit[lookup] = run_start[run[at]]
        # one entry per (candidate cell, reference holding its n-gram), then grouped by slot
        entry_q = np.repeat(np.arange(len(q_key), dtype=np.int64), hits)
        entry_ref = order[ranges(first_hit, hits)]
        entry_slot = np.repeat(slot_j, slot_len)[entry_ref]
        values = np.minimum(self.weights[q_cell[entry_q]], self.weights[ref_cell[entry_ref]])
        by_slot = np.argsort(entry_slot.astype(np.min_scalar_type(n_slots)), kind="stable")  # radix sort
        values, pair = values[by_slot], entry_slot[by_slot] * n_q + q_of[entry_q[by_slot]]
        nonzero = values != 0  # scipy keeps non-zero minima only
        values, pair = values[nonzero], pair[nonzero]
        out = np.zeros(n_q * n_slots)
        if len(pair):
            seg = np.flatnonzero(run_starts(pair))
            out[pair[seg]] = np.add.reduceat(values, seg)
        return np.ascontiguousarray(out.reshape(n_slots, n_q).T)
