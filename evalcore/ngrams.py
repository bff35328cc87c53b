"""Weighted bags of n-grams (BNG): contiguous n-grams and skip-bigrams, with the TESLA
function-word discount (weight multiplied by ``discount`` for every function word inside).

A bag is a plain ``dict`` from n-gram (a tuple of tokens) to a positive weight, so it is cheap
to build, to inspect and to pickle; :mod:`evalcore.matching` matches two bags.
"""

from __future__ import annotations

from collections.abc import Sequence

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
