"""Confusion network of pivot-language translations and its bag of weighted pivot n-grams.

Each segment of the sentence becomes a slot of parallel arcs (pivot phrase, t(f | e)); slots are
chained in sentence order. A pivot n-gram may run across arcs of consecutive slots; its weight is
the product of the probabilities of the arcs it uses (each arc counted once), times an optional
per-token function-word discount. The bag sums the weights of equal n-grams (PEM section 4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from evalcore.bpng.table import Phrase, PhraseEntry
from evalcore.text.ngrams import Bag

# Inclusive thresholds with a float tolerance: the paper prunes "arcs with probability higher
# than 0.1" yet its worked example keeps "Salut , / 0.1"; we follow the example.
_EPS = 1e-9


class Arc(NamedTuple):
    """One alternative of a slot: pivot tokens, their probability, a per-token weight factor (a
    named tuple, so the n-gram walk unpacks arcs directly)."""

    tokens: Phrase
    prob: float
    token_factor: float = 1.0


def confusion_network(tokens: Sequence[str], spans: Sequence[tuple[int, int]],
                      entries: dict[Phrase, PhraseEntry], min_arc: float = 0.1,
                      function: Sequence[bool] | None = None,
                      discount: float | None = None,
                      arc_cache: dict[tuple[Phrase, float], tuple[Arc, ...]] | None = None) -> list[tuple[Arc, ...]]:
    """Slots of arcs for a segmented sentence.

    Arcs with t(f | e) below ``min_arc`` are pruned; a phrase whose translations are all pruned
    keeps its most probable one, and a phrase with no translation (an unseen word) passes
    through unchanged with probability 1, like "Querrien" in the paper. With ``discount``, pivot
    tokens of a segment made only of function words (flags in ``function``) weigh ``discount``.
    ``arc_cache`` (phrase, factor) -> arcs reuses the arcs of phrases seen before; one cache
    serves one table and one ``min_arc`` (what :class:`~evalcore.bpng.BPNGBuilder` keeps).
    """
    toks = tuple(tokens)
    network: list[tuple[Arc, ...]] = []
    for start, end in spans:
        phrase = toks[start:end]
        factor = 1.0
        if discount is not None and function is not None and all(function[start:end]):
            factor = discount
        if arc_cache is not None:
            arcs = arc_cache.get((phrase, factor))
            if arcs is None:
                arcs = arc_cache[(phrase, factor)] = _arcs(phrase, entries.get(phrase), min_arc, factor)
        else:
            arcs = _arcs(phrase, entries.get(phrase), min_arc, factor)
        network.append(arcs)
    return network


def _arcs(phrase: Phrase, entry: PhraseEntry | None, min_arc: float, factor: float) -> tuple[Arc, ...]:
    """The arcs of one segment: its translations above ``min_arc``, else the best one, else itself."""
    dist = entry.distribution() if entry is not None and entry.translations else []
    arcs = tuple(Arc(f, p, factor) for f, p in dist if p >= min_arc - _EPS)
    if not arcs and dist:
        f, p = dist[0]
        arcs = (Arc(f, p, factor),)
    if not arcs:
        arcs = (Arc(phrase, 1.0, factor),)
    return arcs


def pivot_ngram_bag(network: Sequence[Sequence[Arc]], max_n: int = 4, min_weight: float = 0.01) -> Bag:
    """All pivot n-grams (n <= ``max_n``) of the network with weight >= ``min_weight``, summed.

    From every arc and token offset, a depth-first walk extends the n-gram through the arcs of
    the following slots, multiplying weights left to right. An explicit stack (children pushed
    in reverse) keeps the order of a recursive walk, so weights are summed in the same order,
    without a Python call per step (this loop is the largest part of PEM's time).
    """
    bag: Bag = {}
    get = bag.get
    floor = min_weight - _EPS
    reversed_slots = [arcs[::-1] for arcs in network]
    n_slots = len(network)
    for start_slot, arcs in enumerate(network):  # an Arc unpacks as (tokens, prob, token_factor)
        for start_tokens, start_prob, start_factor in arcs:
            if start_prob < floor:
                continue
            for start_offset in range(len(start_tokens)):
                # (n-gram so far, its weight, the arc's tokens, their factor, next token, slot)
                stack: list[tuple[Phrase, float, Phrase, float, int, int]] = [
                    ((), start_prob, start_tokens, start_factor, start_offset, start_slot)]
                pop, push = stack.pop, stack.append
                while stack:
                    gram, weight, tokens, factor, offset, slot = pop()
                    for tok in (tokens[offset:] if offset else tokens):
                        if factor != 1.0:  # x * 1.0 == x exactly: skipping it changes no weight
                            weight *= factor
                        if weight < floor:
                            break
                        gram = gram + (tok,)
                        bag[gram] = get(gram, 0.0) + weight
                        if len(gram) == max_n:
                            break
                    else:
                        slot += 1
                        if slot < n_slots:
                            for nxt_tokens, nxt_prob, nxt_factor in reversed_slots[slot]:
                                w = weight * nxt_prob
                                if w >= floor:
                                    push((gram, w, nxt_tokens, nxt_factor, 0, slot))
    return bag
