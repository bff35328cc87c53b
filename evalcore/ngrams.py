"""Weighted bags of n-grams (BNG): contiguous n-grams and skip-bigrams, with the TESLA
function-word discount (weight multiplied by ``discount`` for every function word inside).

A bag is a plain ``dict`` from n-gram (a tuple of tokens) to a positive weight, so it is cheap
to build, to inspect and to pickle; :mod:`evalcore.matching` matches two bags.
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


def token_ids(tokens: Sequence[str]) -> np.ndarray:
    """Process-wide integer ids of ``tokens`` (equal tokens, equal ids; new tokens get new ids)."""
    setdefault, vocab = _vocabulary.setdefault, _vocabulary
    return np.fromiter((setdefault(t, len(vocab)) for t in tokens), dtype=np.int64, count=len(tokens))


def _accumulate(keys: np.ndarray, weights: np.ndarray) -> IdBag:
    """Sum the weights of equal keys in text order (bincount adds sequentially, as the dict bags
    do) and keep the keys in order of first occurrence."""
    if not len(keys):
        return IdBag(np.empty(0, np.int64), np.empty(0, np.float64))
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=weights, minlength=len(uniq))
    order = np.argsort(first, kind="stable")
    return IdBag(uniq[order], sums[order])


def unigram_id_bag(ids: np.ndarray, weights: np.ndarray) -> IdBag:
    """Unigram bag of an id sequence with per-token weights (:func:`ngram_bag` with ``n=1``)."""
    return _accumulate(ids, np.asarray(weights, dtype=np.float64))


def skip_bigram_id_bag(ids: np.ndarray, weights: np.ndarray, max_gap: int = 4) -> IdBag:
    """Skip-bigram bag of an id sequence (:func:`skip_bigram_bag`): pairs (i, j) with
    0 < j - i <= max_gap + 1, enumerated in the same (i, then j) order, weight w_i * w_j."""
    if max_gap < 0:
        raise ValueError(f"max_gap must be >= 0, got {max_gap}")
    n = len(ids)
    if n < 2:
        return IdBag(np.empty(0, np.int64), np.empty(0, np.float64))
    weights = np.asarray(weights, dtype=np.float64)
    first = np.arange(n - 1)[:, None]
    second = first + np.arange(1, max_gap + 2)[None, :]
    keep = second < n
    first, second = np.broadcast_to(first, second.shape)[keep], second[keep]  # row-major: i, then j
    return _accumulate((ids[first] << 32) | ids[second], weights[first] * weights[second])
