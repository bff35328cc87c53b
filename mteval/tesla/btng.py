"""Bags of target-language n-grams (BTNG, n = 1..3) of two prepared segments, matched under s_ms
and s_pos: TESLA-M's six F-measures (2010 §3; WMT 2011 §2).

An n-gram's weight is its count times ``discount`` (0.1) per function word in it. Under s_pos
(binary and transitive: equal tag sequences) the matching LP has the closed form of 2010 §3.4,
the summed per-class minimum (:func:`evalcore.matching.class_overlap`); s_ms is fractional, so
its LP goes to the shared matcher (:func:`evalcore.matching.match`, whose dispatcher still takes
a closed form where the problem's shape allows one). Equal n-grams of one side are one bag entry
(their weights summed): the LP's optimum is the same, the problem smaller.

Decision where the paper is silent: an order that neither side has (both shorter than n words)
is undefined, NaN here, and left out of the sentence mean; one side without n-grams of an order
scores F = 0 on it.
"""

from __future__ import annotations

import numpy as np

from evalcore.matching import class_overlap, f_measure, match
from mteval.tesla.preprocess import Segment
from mteval.tesla.similarity import Encoded, encode, ngram_similarity, unigram_ms, unigram_pos

ORDERS = (1, 2, 3)
#: the six F-measures, in the order :func:`btng_fmeasures` returns them
FEATURES = tuple(f"{sim}{n}" for sim in ("ms", "pos") for n in ORDERS)


def renumber(*sequences: np.ndarray) -> tuple[list[np.ndarray], int]:
    """The id sequences renumbered jointly from 0 (equal ids, equal numbers), and the count of
    distinct ids: small numbers make exact n-gram keys (:func:`window_keys`)."""
    joined = np.concatenate(sequences)
    _, local = np.unique(joined, return_inverse=True)
    bounds = np.cumsum([len(s) for s in sequences])[:-1]
    return np.split(local, bounds), int(local.max()) + 1 if len(local) else 1


def window_keys(ids: np.ndarray, n: int, base: int) -> np.ndarray:
    """One integer per n-gram of ``ids`` (all below ``base``): equal n-grams, equal keys (exact
    while base ** n fits in int64, i.e. below two million distinct ids for n = 3)."""
    length = len(ids) - n + 1
    keys = np.zeros(max(length, 0), dtype=np.int64)
    for d in range(n):
        keys = keys * base + ids[d:d + length]
    return keys


def ngram_weights(weights: np.ndarray, n: int) -> np.ndarray:
    """Weight of every n-gram: the product of its tokens' weights."""
    length = len(weights) - n + 1
    if length <= 0:
        return np.empty(0)
    out = weights[:length].copy()
    for d in range(1, n):
        out *= weights[d:d + length]
    return out


def merge_equal(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of each distinct n-gram's first occurrence and its summed weight."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first, np.bincount(inverse, weights=weights, minlength=len(first))


def ms_problem(x: Encoded, y: Encoded, n: int, unigram: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The s_ms matching LP of order ``n`` between reference ``x`` and hypothesis ``y``: bag
    weights of each side's distinct n-grams and their similarity matrix. ``unigram``: s_ms
    between the tokens, when already computed."""
    unigram = unigram_ms(x, y) if unigram is None else unigram
    (x_ids,), x_base = renumber(x.types)
    (y_ids,), y_base = renumber(y.types)
    rows, xw = merge_equal(window_keys(x_ids, n, x_base), ngram_weights(x.weights, n))
    cols, yw = merge_equal(window_keys(y_ids, n, y_base), ngram_weights(y.weights, n))
    return xw, yw, ngram_similarity(unigram, n)[np.ix_(rows, cols)]


def pos_overlap(x: Encoded, y: Encoded, n: int) -> float:
    """Optimum of the s_pos LP of order ``n`` by the closed form: n-grams are in one class when
    their tag sequences are equal."""
    (x_ids, y_ids), base = renumber(x.tags, y.tags)  # one numbering for both sides
    x_keys, y_keys = window_keys(x_ids, n, base), window_keys(y_ids, n, base)
    _, classes = np.unique(np.concatenate([x_keys, y_keys]), return_inverse=True)
    nx = len(x_keys)
    return class_overlap(classes[:nx], ngram_weights(x.weights, n), classes[nx:], ngram_weights(y.weights, n))


def btng_fmeasures(reference: Segment, hypothesis: Segment, alpha: float = 0.8, discount: float = 0.1,
                   synonyms: bool = True, pos: bool = True) -> np.ndarray:
    """TESLA-M's six F-measures of ``hypothesis`` against ``reference``, in :data:`FEATURES`
    order (s_ms n = 1, 2, 3, then s_pos n = 1, 2, 3); NaN for an order neither side has.
    For languages without a synonym dictionary (``synonyms=False``: a = 0 in s_ms) or without
    POS tags (``pos=False``: b = 0 in s_ms, and the s_pos F-measures are NaN)."""
    x, y = encode(reference, discount, synonyms), encode(hypothesis, discount, synonyms)
    unigram = unigram_ms(x, y, pos)
    out = np.full(2 * len(ORDERS), np.nan)
    for k, n in enumerate(ORDERS):
        if len(reference) < n and len(hypothesis) < n:
            continue
        x_total, y_total = ngram_weights(x.weights, n).sum(), ngram_weights(y.weights, n).sum()
        xw, yw, sim = ms_problem(x, y, n, unigram)
        out[k] = f_measure(match(xw, yw, sim) if len(xw) and len(yw) else 0.0, x_total, y_total, alpha)[2]
        if pos:
            out[len(ORDERS) + k] = f_measure(pos_overlap(x, y, n), x_total, y_total, alpha)[2]
    return out
