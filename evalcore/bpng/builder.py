"""BPNG of one sentence: preprocessed tokens -> segmentation -> confusion network -> bag, and the
pivot-language F1 between two bags (exact-match closed form of the TESLA LP, alpha = 0.5)."""

from __future__ import annotations

import functools

from evalcore.bpng.network import confusion_network, pivot_ngram_bag
from evalcore.bpng.segment import candidate_phrases, segment
from evalcore.bpng.table import PhraseTable
from evalcore.matching import bag_overlap, f_measure
from evalcore.ngrams import Bag, total
from evalcore.text import Doc


class BPNGBuilder:
    """Builds bags of pivot-language n-grams from one phrase table; bags cached per sentence.

    ``discount`` (None = off, TESLA uses 0.1) down-weights pivot tokens of function-word
    segments. The tokens given must be preprocessed like the table's English side.
    """

    def __init__(self, table: PhraseTable, max_phrase_len: int = 4, max_n: int = 4,
                 min_arc: float = 0.1, min_weight: float = 0.01, discount: float | None = None,
                 cache_size: int = 65536):
        self.table = table
        self.max_phrase_len = max_phrase_len
        self.max_n = max_n
        self.min_arc = min_arc
        self.min_weight = min_weight
        self.discount = discount
        self._cached = functools.lru_cache(maxsize=cache_size)(self._bag)

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_cached")
        state["cache_size"] = self._cached.cache_parameters()["maxsize"]
        return state

    def __setstate__(self, state):
        cache_size = state.pop("cache_size")
        self.__dict__.update(state)
        self._cached = functools.lru_cache(maxsize=cache_size)(self._bag)

    def signature(self) -> str:
        """Reproducibility fields of the BPNG settings and the table."""
        fw = "none" if self.discount is None else f"{self.discount:g}"
        return (f"{self.table.signature()}|seg:{self.max_phrase_len}|n:{self.max_n}"
                f"|arc:{self.min_arc:g}|w:{self.min_weight:g}|fw:{fw}")

    def bag(self, doc: Doc) -> Bag:
        """BPNG of a preprocessed sentence."""
        return self._cached(doc.tokens, doc.function)

    def _bag(self, tokens: tuple[str, ...], function: tuple[bool, ...]) -> Bag:
        if not tokens:
            return {}
        entries = self.table.lookup(candidate_phrases(tokens, self.max_phrase_len))
        spans = segment(tokens, self.table, self.max_phrase_len, entries)
        network = confusion_network(tokens, spans, entries, self.min_arc, function, self.discount)
        return pivot_ngram_bag(network, self.max_n, self.min_weight)


def pivot_f1(bag_reference: Bag, bag_candidate: Bag) -> tuple[float, float, float]:
    """(precision, recall, F1) of two pivot n-gram bags: sum of minimum weights over totals."""
    return f_measure(bag_overlap(bag_reference, bag_candidate), total(bag_reference), total(bag_candidate), alpha=0.5)
