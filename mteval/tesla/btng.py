"""Bags of target-language n-grams (BTNG, n = 1..3) of two prepared segments, matched under s_ms
and s_pos: TESLA-M's six F-measures (2010 §3; WMT 2011 §2).

An n-gram's weight is its count times ``discount`` (0.1) per function word in it. Under s_pos
(binary and transitive: equal tag sequences) the matching LP has the closed form of 2010 §3.4,
the summed per-class minimum (:func:`evalcore.matching.bag_overlap` on bags of tag n-grams);
s_ms is fractional, so its LP goes to the shared matcher (:func:`evalcore.matching.match`, whose
dispatcher still takes a closed form where the problem's shape allows one). Equal n-grams of one
side are one bag entry (their weights summed): the LP's optimum is the same, the problem smaller.

Decision where the paper is silent: an order that neither side has (both shorter than n words)
is undefined, NaN here, and left out of the sentence mean; one side without n-grams of an order
scores F = 0 on it.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from evalcore.matching import bag_overlap, f_measure, match
from evalcore.text.ngrams import Bag, ngram_bag, token_weights, weighted_ngrams
from evalcore.text.preprocess import Doc
from mteval.lexical.preprocess import Segment
from mteval.lexical.similarity import encode, ngram_similarity, unigram_ms

ORDERS = (1, 2, 3)
#: the six F-measures, in the order :func:`btng_fmeasures` returns them
FEATURES = tuple(f"{sim}{n}" for sim in ("ms", "pos") for n in ORDERS)


class Bags(NamedTuple):
    """One segment's BTNGs, per order n = 1..3: under s_ms, each distinct (lemma, tag) n-gram's
    first start position and summed weight; under s_pos, the bag of tag n-grams; the total weight."""

    starts: tuple[np.ndarray, ...]
    ms_weights: tuple[np.ndarray, ...]
    pos: tuple[Bag, ...]
    totals: tuple[float, ...]


@functools.lru_cache(maxsize=65536)
def bags(segment: Segment, discount: float) -> Bags:
    """The BTNGs of ``segment`` (cached: a reference's bags are built once for all candidates)."""
    types = tuple(zip(segment.lemmas, segment.tags))  # (lemma, tag) pairs as tokens
    tags = Doc(segment.tags, segment.function)
    weights = token_weights(tags, discount)
    starts, ms_weights, pos, totals = [], [], [], []
    for n in ORDERS:
        ms = weighted_ngrams(types, weights, n)
        first: dict[tuple, int] = {}
        for i in range(len(segment) - n + 1):
            first.setdefault(types[i:i + n], i)
        starts.append(np.fromiter((first[g] for g in ms), dtype=np.int64, count=len(ms)))
        ms_weights.append(np.fromiter(ms.values(), dtype=float, count=len(ms)))
        pos.append(ngram_bag(tags, n, discount))
        totals.append(float(ms_weights[-1].sum()))
    return Bags(tuple(starts), tuple(ms_weights), tuple(pos), tuple(totals))


def ms_problem(reference: Segment, hypothesis: Segment, n: int, discount: float = 0.1, synonyms: bool = True,
               pos: bool = True, unigram: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The s_ms matching LP of order ``n``: the weights of each side's distinct n-grams and
    their similarities. ``unigram``: s_ms between the tokens, when already computed."""
    if unigram is None:
        unigram = unigram_ms(encode(reference, discount, synonyms), encode(hypothesis, discount, synonyms), pos)
    x, y = bags(reference, discount), bags(hypothesis, discount)
    sim = ngram_similarity(unigram, n, x.starts[n - 1], y.starts[n - 1])
    return x.ms_weights[n - 1], y.ms_weights[n - 1], sim


def btng_fmeasures(reference: Segment, hypothesis: Segment, alpha: float = 0.8, discount: float = 0.1,
                   synonyms: bool = True, pos: bool = True) -> np.ndarray:
    """TESLA-M's six F-measures of ``hypothesis`` against ``reference``, in :data:`FEATURES`
    order (s_ms n = 1, 2, 3, then s_pos n = 1, 2, 3); NaN for an order neither side has.
    For languages without a synonym dictionary (``synonyms=False``: a = 0 in s_ms) or without
    POS tags (``pos=False``: b = 0 in s_ms, and the s_pos F-measures are NaN)."""
    x, y = bags(reference, discount), bags(hypothesis, discount)
    out = np.full(2 * len(ORDERS), np.nan)
    unigram = None
    for k, n in enumerate(ORDERS):
        x_total, y_total = x.totals[k], y.totals[k]
        if len(reference) < n and len(hypothesis) < n:
            continue
        if x_total > 0 and y_total > 0:
            if unigram is None:
                unigram = unigram_ms(encode(reference, discount, synonyms), encode(hypothesis, discount, synonyms), pos)
            xw, yw, sim = ms_problem(reference, hypothesis, n, discount, synonyms, pos, unigram)
            out[k] = f_measure(match(xw, yw, sim), x_total, y_total, alpha)[2]
            if pos:
                out[len(ORDERS) + k] = f_measure(bag_overlap(x.pos[k], y.pos[k]), x_total, y_total, alpha)[2]
        else:  # one side has no n-gram of this order: nothing can match
            out[k] = 0.0
            if pos:
                out[len(ORDERS) + k] = 0.0
    return out
