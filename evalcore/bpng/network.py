"""Confusion network of pivot-language translations and its bag of weighted pivot n-grams.

Each segment of the sentence becomes a slot of parallel arcs (pivot phrase, t(f | e)); slots are
chained in sentence order. A pivot n-gram may run across arcs of consecutive slots; its weight is
the product of the probabilities of the arcs it uses (each arc counted once), times an optional
per-token function-word discount. The bag sums the weights of equal n-grams (PEM section 4.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.bpng.table import Phrase, PhraseEntry
from evalcore.ngrams import Bag

# Inclusive thresholds with a float tolerance: the paper prunes "arcs with probability higher
# than 0.1" yet its worked example keeps "Salut , / 0.1"; we follow the example.
_EPS = 1e-9


@dataclass(frozen=True)
class Arc:
    """One alternative of a slot: pivot tokens, their probability, a per-token weight factor."""

    tokens: Phrase
    prob: float
    token_factor: float = 1.0


def confusion_network(tokens: Sequence[str], spans: Sequence[tuple[int, int]],
                      entries: dict[Phrase, PhraseEntry], min_arc: float = 0.1,
                      function: Sequence[bool] | None = None,
                      discount: float | None = None) -> list[list[Arc]]:
    """Slots of arcs for a segmented sentence.

    Arcs with t(f | e) below ``min_arc`` are pruned; a phrase whose translations are all pruned
    keeps its most probable one, and a phrase with no translation (an unseen word) passes
    through unchanged with probability 1, like "Querrien" in the paper. With ``discount``, pivot
    tokens of a segment made only of function words (flags in ``function``) weigh ``discount``.
    """
    toks = tuple(tokens)
    network: list[list[Arc]] = []
    for start, end in spans:
        phrase = toks[start:end]
        factor = 1.0
        if discount is not None and function is not None and all(function[start:end]):
            factor = discount
        entry = entries.get(phrase)
        dist = entry.distribution() if entry is not None and entry.translations else []
        arcs = [Arc(f, p, factor) for f, p in dist if p >= min_arc - _EPS]
        if not arcs and dist:
            f, p = dist[0]
            arcs = [Arc(f, p, factor)]
        if not arcs:
            arcs = [Arc(phrase, 1.0, factor)]
        network.append(arcs)
    return network


def pivot_ngram_bag(network: Sequence[Sequence[Arc]], max_n: int = 4, min_weight: float = 0.01) -> Bag:
    """All pivot n-grams (n <= ``max_n``) of the network with weight >= ``min_weight``, summed."""
    bag: Bag = {}
    floor = min_weight - _EPS
    n_slots = len(network)

    def walk(gram: Phrase, weight: float, arc: Arc, offset: int, slot: int) -> None:
        # Extend ``gram`` with the tokens of ``arc`` from ``offset``; then continue in slot + 1.
        for tok in arc.tokens[offset:]:
            weight *= arc.token_factor
            if weight < floor:
                return
            gram = gram + (tok,)
            bag[gram] = bag.get(gram, 0.0) + weight
            if len(gram) == max_n:
                return
        if slot + 1 < n_slots:
            for nxt in network[slot + 1]:
                w = weight * nxt.prob
                if w >= floor:
                    walk(gram, w, nxt, 0, slot + 1)

    for s, arcs in enumerate(network):
        for arc in arcs:
            if arc.prob < floor:
                continue
            for offset in range(len(arc.tokens)):
                walk((), arc.prob, arc, offset, s)
    return bag
