"""TESLA-B's pivot side (WMT 2011 §3): per pivot language, the BPNG of the reference and of the
hypothesis, built by the BPNG builder PEM uses (:class:`evalcore.bpng.BPNGBuilder`, with TESLA's
0.1 function-word discount and n <= 3), matched per n-gram order under s_lem in closed form.

s_lem on pivot n-grams: identity of the pivot lemmas, from simplemma (offline, PyPI) where it
covers the pivot language, else of the surface tokens (Chinese characters). s_pos is left out:
no tagger for the pivot languages installs offline in a form that tags the table's isolated
pivot phrases (the signature says ``psim:lem``); so a pivot gives 3 F-measures, not the paper's 6.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from evalcore.bpng import BPNGBuilder, PhraseTableStore
from evalcore.bpng.table import PhraseTable
from evalcore.matching import bag_overlap, f_measure
from evalcore.resources.defaults import DEFAULT_PIVOTS, phrase_table_path
from evalcore.resources.phrase_table.build import english_preprocessor
from evalcore.resources.registry import ResourceError
from evalcore.text.ngrams import Bag
from evalcore.text.preprocess import Preprocessor

ORDERS = (1, 2, 3)
#: TESLA's function-word discount, applied by the builder to pivot tokens of function-word segments
DISCOUNT = 0.1


def pivot_lemmatizer(pivot: str) -> tuple[Callable[[str], str], str]:
    """(lemma of a lowercased pivot token, its name for the signature): simplemma where it covers
    the language, the surface token otherwise."""
    import simplemma

    try:
        simplemma.lemmatize("a", lang=pivot)
    except ValueError:  # simplemma's answer for a language it does not cover
        return (lambda token: token), "surface"

    @functools.lru_cache(maxsize=200_000)
    def lemma(token: str) -> str:
        return simplemma.lemmatize(token, lang=pivot).lower()

    return lemma, "simplemma"


def lemma_bags(bag: Bag, lemma: Callable[[str], str], orders: Sequence[int] = ORDERS) -> list[Bag]:
    """One bag per n-gram order, keyed by the n-gram's lemmas: s_lem's equivalence classes, so
    the LP optimum is the closed form sum over classes of min(weights) (TESLA 2010 §3.4)."""
    out: list[Bag] = [{} for _ in orders]
    slot = {n: k for k, n in enumerate(orders)}
    for gram, weight in bag.items():
        k = slot.get(len(gram))
        if k is not None:
            key = tuple(lemma(t) for t in gram)
            target = out[k]
            target[key] = target.get(key, 0.0) + weight
    return out


def lemma_fmeasures(reference: Sequence[Bag], hypothesis: Sequence[Bag], alpha: float = 0.8) -> list[float]:
    """F-measure per order of two lemma-keyed bag lists (reference = X, hypothesis = Y); NaN for
    an order neither bag has (pruning can empty an order of a short sentence), as in BTNG."""
    return [f_measure(bag_overlap(r, h), sum(r.values()), sum(h.values()), alpha)[2] if r or h else float("nan")
            for r, h in zip(reference, hypothesis)]


def _stemmed(table: PhraseTable) -> bool:
    """Whether the table's English side is Porter-stemmed (its build settings say)."""
    return str(getattr(table, "meta", {}).get("stem", "False")) == "True"


def table_hash(table: PhraseTable) -> str:
    """Short hash of a phrase table's signature (bitext hash, aligner, settings, content hash)."""
    return hashlib.sha1(table.signature().encode("utf-8")).hexdigest()[:8]


class PivotFeatures:
    """The pivot F-measures of TESLA-B: ``len(pivots) x 3`` values per (reference, hypothesis)."""

    def __init__(self, tables: Mapping[str, PhraseTable], alpha: float = 0.8):
        if not tables:
            raise ValueError("TESLA-B needs at least one pivot phrase table")
        self.tables = dict(tables)
        self.alpha = alpha
        self._init_caches()

    def _init_caches(self) -> None:
        self.builders = {p: BPNGBuilder(t, max_n=max(ORDERS), discount=DISCOUNT) for p, t in self.tables.items()}
        self.lemmatizers = {p: pivot_lemmatizer(p) for p in self.tables}
        shared: dict[bool, Preprocessor] = {}
        self.preprocessors = {p: shared.setdefault(_stemmed(t), english_preprocessor(_stemmed(t)))
                              for p, t in self.tables.items()}
        self._bags = functools.lru_cache(maxsize=4096)(self._lemma_bags)

    def __getstate__(self):
        return {"tables": self.tables, "alpha": self.alpha}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._init_caches()

    @classmethod
    def from_paths(cls, tables: Mapping[str, str | Path], alpha: float = 0.8) -> PivotFeatures:
        return cls({p: PhraseTableStore(path) for p, path in tables.items()}, alpha)

    @property
    def pivots(self) -> tuple[str, ...]:
        return tuple(self.tables)

    def names(self) -> list[str]:
        """Feature names, pivot-major: ``bpng_fr_lem_1`` .. ``bpng_zh_lem_3``."""
        return [f"bpng_{p}_lem_{n}" for p in self.tables for n in ORDERS]

    def signature_fields(self) -> dict[str, str | tuple[str, ...]]:
        """Pivots with their tables' hashes and lemmatisers, e.g. ``fr=1a2b3c4d/simplemma``."""
        return {"pivots": tuple(f"{p}={table_hash(t)}/{self.lemmatizers[p][1]}" for p, t in self.tables.items()),
                "psim": "lem"}

    def prefetch(self, texts: Sequence[str]) -> None:
        """Look up the phrases of many texts per table at once (batched store queries)."""
        unique = list(dict.fromkeys(texts))
        for pivot, builder in self.builders.items():
            builder.prefetch(self.preprocessors[pivot](t) for t in unique)

    def _lemma_bags(self, text: str) -> tuple[list[Bag], ...]:
        """Per pivot, the lemma-keyed bags of each order of one text (cached by text)."""
        out = []
        for pivot, builder in self.builders.items():
            bag = builder.bag(self.preprocessors[pivot](text))
            out.append(lemma_bags(bag, self.lemmatizers[pivot][0]))
        return tuple(out)

    def compute(self, reference: str, hypothesis: str) -> np.ndarray:
        """The pivot F-measures in :meth:`names` order."""
        ref, hyp = self._bags(reference), self._bags(hypothesis)
        return np.array([f for r, h in zip(ref, hyp) for f in lemma_fmeasures(r, h, self.alpha)])


def default_tables(pivots: Sequence[str] = DEFAULT_PIVOTS) -> dict[str, Path]:
    """The default phrase table of each pivot, built on first use
    (:func:`evalcore.resources.system.ensure`); a clear error when a pivot has no table."""
    from evalcore.resources.system import ensure

    out = {pivot: phrase_table_path(pivot) for pivot in pivots}
    if not all(path.is_file() for path in out.values()):
        ensure("mt", steps=("eflomal", "phrase-tables"))
    for pivot, path in out.items():
        if not path.is_file():
            raise ResourceError(f"phrase table for pivot {pivot!r} not found at {path}: its bitext is not on "
                                "this machine (see `aesop-eval setup --status`)")
    return out
