"""Weighted bags of n-grams (BNG): contiguous n-grams and skip-bigrams, with the TESLA
function-word discount (weight multiplied by ``discount`` for every function word inside).

Two forms. A ``dict`` bag maps an n-gram (a tuple of tokens) to its weight: easy to inspect, what
:mod:`evalcore.matching` matches. An :class:`IdBag` holds the same weights as numpy arrays over
integer token ids, built for many texts in one vectorised pass; :class:`BagRows` computes the
exact-match overlaps of many (candidate, reference) pairs from them (TESLA-S, ROUGE-SU).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from evalcore.text import Doc

Bag = dict[tuple[str, ...], float]


def token_weights(doc: Doc, discount: float | None) -> list[float]:
    """Per-token weight: ``discount`` for function words, 1 otherwise (all 1 without discount)."""
    if discount is None:
        return [1.0] * len(doc.tokens)
    return [discount if f else 1.0 for f in doc.function]


def ngram_bag(doc: Doc, n: int, discount: float | None = None) -> Bag:
    """Contiguous n-grams of ``doc``; weight = product of the token weights (count if no discount)."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    toks, w = doc.tokens, token_weights(doc, discount)
    bag: Bag = {}
    for i in range(len(toks) - n + 1):
        weight = 1.0
        for k in range(i, i + n):
            weight *= w[k]
        gram = toks[i:i + n]
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


def total(bag: Bag) -> float:
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
    in order (the matrix TESLA-S 0.1.0 built from dict bags). Totals and pairwise overlaps add the
    same floats in the same order as scipy's CSR ``sum(axis=1)`` and ``minimum`` on that matrix
    (numpy's ``add.reduceat`` over each row's entries), so scores are the 0.1.0 floats exactly."""

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
    rising = np.ones(len(columns), dtype=bool)
    rising[1:] = columns[1:] > columns[:-1]
    rising[indptr[:-1][indptr[:-1] < len(columns)]] = True  # a row's first entry starts afresh
    ok = np.ones(len(indptr) - 1, dtype=bool)
    ok[np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))[~rising]] = False
    return ok
