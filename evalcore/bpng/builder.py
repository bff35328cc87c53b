"""BPNG of one sentence: preprocessed tokens -> segmentation -> confusion network -> bag, and the
pivot-language F1 between two bags (exact-match closed form of the TESLA LP, alpha = 0.5)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

import numpy as np

from evalcore.bpng.compiled import CompiledTable, compile_table, compiled_pays
from evalcore.bpng.network import confusion_network, pivot_ngram_bag
from evalcore.bpng.segment import candidate_phrases, segment
from evalcore.bpng.table import Phrase, PhraseEntry, PhraseTable
from evalcore.matching import bag_overlap, f_measure
from evalcore.text.ngrams import Bag, total
from evalcore.text.preprocess import Doc

#: bags a builder keeps (least recently used go first): enough for the originals of a batch
#: grouped by original; a bag of a tweet holds hundreds of weighted n-grams, so the bound matters
BAG_CACHE_SIZE = 512
#: (phrase, weight factor) -> pruned arcs kept per builder; cleared when it grows past this
ARC_CACHE_SIZE = 100_000
_UNCOMPILED = object()  # the table's compiled form not asked for yet


class BPNGBuilder:
    """Builds bags of pivot-language n-grams from one phrase table; the last ``cache_size``
    bags are cached per sentence (an original shared by many paraphrases is built once).

    ``discount`` (None = off, TESLA uses 0.1) down-weights pivot tokens of function-word
    segments. The tokens given must be preprocessed like the table's English side.
    """

    def __init__(self, table: PhraseTable, max_phrase_len: int = 4, max_n: int = 4,
                 min_arc: float = 0.1, min_weight: float = 0.01, discount: float | None = None,
                 cache_size: int = BAG_CACHE_SIZE):
        self.table = table
        self.max_phrase_len = max_phrase_len
        self.max_n = max_n
        self.min_arc = min_arc
        self.min_weight = min_weight
        self.discount = discount
        self._cached = functools.lru_cache(maxsize=cache_size)(self._bag)
        self._arcs: dict = {}
        self._compiled: CompiledTable | None | object = _UNCOMPILED
        # (sentences, entries of all their phrases) of the last prefetch
        self._prefetched: tuple[set, dict[Phrase, PhraseEntry]] = (set(), {})

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_cached")
        state.pop("_arcs")
        state.pop("_prefetched")
        state.pop("_compiled")
        state["cache_size"] = self._cached.cache_parameters()["maxsize"]
        return state

    def __setstate__(self, state):
        cache_size = state.pop("cache_size")
        self.__dict__.update(state)
        self._cached = functools.lru_cache(maxsize=cache_size)(self._bag)
        self._arcs = {}
        self._prefetched = (set(), {})
        self._compiled = _UNCOMPILED

    def signature(self) -> str:
        """Reproducibility fields of the BPNG settings and the table."""
        fw = "none" if self.discount is None else f"{self.discount:g}"
        return (f"{self.table.signature()}|seg:{self.max_phrase_len}|n:{self.max_n}"
                f"|arc:{self.min_arc:g}|w:{self.min_weight:g}|fw:{fw}")

    def bag(self, doc: Doc) -> Bag:
        """BPNG of a preprocessed sentence."""
        return self._cached(doc.tokens, doc.function)

    def prefetch(self, docs: Iterable[Doc]) -> dict[Phrase, PhraseEntry]:
        """Look up the phrases of many sentences at once (a store answers with a few large ``IN``
        queries) and return the entries found; bags of these sentences built before the next
        prefetch use them without another look-up."""
        sentences = {doc.tokens for doc in docs}
        entries = self.table.lookup([p for tokens in sentences for p in candidate_phrases(tokens, self.max_phrase_len)])
        self._prefetched = (sentences, entries)
        return entries

    def lookup(self, tokens: tuple[str, ...]) -> dict[Phrase, PhraseEntry]:
        """The table's entries of every phrase a segmentation of ``tokens`` may use."""
        return self.table.lookup(candidate_phrases(tokens, self.max_phrase_len))

    def build(self, tokens: tuple[str, ...], function: tuple[bool, ...], entries: dict[Phrase, PhraseEntry]) -> Bag:
        """BPNG of a sentence from its looked-up ``entries``: segmentation, network, bag."""
        spans = segment(tokens, self.table, self.max_phrase_len, entries)
        if len(self._arcs) > ARC_CACHE_SIZE:
            self._arcs.clear()
        network = confusion_network(tokens, spans, entries, self.min_arc, function, self.discount, self._arcs)
        return pivot_ngram_bag(network, self.max_n, self.min_weight)

    def f1_batch(self, pairs: Sequence[tuple[Doc, Doc]], compiled: bool | None = None) -> np.ndarray:
        """Pivot F1 of each (reference, candidate) pair of preprocessed sentences: equal, bit for
        bit, to ``pivot_f1(self.bag(ref), self.bag(cand))[2]``. With ``compiled`` (default: when
        :func:`~evalcore.bpng.compiled.compiled_pays` for this many pairs) and a table that can be
        compiled, by the compiled kernels (:mod:`.kernels`), each distinct sentence's bag built
        once; else by the Python path, phrases looked up in one batch."""
        if compiled is None:
            compiled = compiled_pays(len(pairs))
        table = self.compiled() if compiled else None
        if table is None:
            self.prefetch(doc for pair in pairs for doc in pair)
            return np.array([pivot_f1(self.bag(ref), self.bag(cand))[2] for ref, cand in pairs], dtype=float)
        from evalcore.bpng.kernels import bpng_f1

        docs: dict[tuple, int] = {}
        ref = np.array([docs.setdefault((r.tokens, r.function), len(docs)) for r, _ in pairs], np.int64)
        cand = np.array([docs.setdefault((c.tokens, c.function), len(docs)) for _, c in pairs], np.int64)
        toks, ptr = table.token_ids([tokens for tokens, _ in docs])
        func = np.fromiter((f for _, function in docs for f in function), np.bool_, len(toks))
        a = table.arrays
        return bpng_f1(toks, func, ptr, ref, cand, self.max_phrase_len, self.max_n, self.min_weight,
                       -1.0 if self.discount is None else float(self.discount), table.log_total,
                       a["phrase_ids"], a["phrase_len"], a["phrase_count"], a["slots"], a["arc_ptr"],
                       a["arc_prob"], a["arc_tok_ptr"], a["arc_toks"])

    def compiled(self) -> CompiledTable | None:
        """The table compiled for the batch kernels (loaded or built on first use; None when the
        table cannot list its entries)."""
        if self._compiled is _UNCOMPILED:
            self._compiled = compile_table(self.table, self.min_arc)
        return self._compiled if isinstance(self._compiled, CompiledTable) else None

    def _bag(self, tokens: tuple[str, ...], function: tuple[bool, ...]) -> Bag:
        if not tokens:
            return {}
        sentences, entries = self._prefetched
        return self.build(tokens, function, entries if tokens in sentences else self.lookup(tokens))


def pivot_f1(bag_reference: Bag, bag_candidate: Bag) -> tuple[float, float, float]:
    """(precision, recall, F1) of two pivot n-gram bags: sum of minimum weights over totals."""
    return f_measure(bag_overlap(bag_reference, bag_candidate), total(bag_reference), total(bag_candidate), alpha=0.5)
