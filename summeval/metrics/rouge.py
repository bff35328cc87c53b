"""ROUGE baselines in the same report as TESLA-S.

ROUGE-1/2/L come from Google's rouge-score package (one call per pair computes all three,
cached, so asking for several of them costs one computation). ROUGE-SU4 is not in rouge-score:
it is computed here from the suite's own skip-bigram bags, on rouge-score's tokens, exactly as
ROUGE-1.5.5 defines it (see :class:`RougeSU`). Recall is the headline value, as in TAC; ``-f``
variants report F1. Several references: the best reference (max), as rouge-score's score_multi.
"""

from __future__ import annotations

import functools
import numbers
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from evalcore import __version__
from evalcore.matching import bag_overlap
from evalcore.metric import Item, ReferenceMetric, Score, Signature
from evalcore.ngrams import merge, ngram_bag, skip_bigram_bag, total
from evalcore.text import Doc

ROUGE_TYPES = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeL"}
MEASURES = ("recall", "f")


@functools.lru_cache(maxsize=8)
def _scorer(stem: bool):
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(list(ROUGE_TYPES.values()), use_stemmer=stem)


@functools.lru_cache(maxsize=2)
def _tokenizer(stem: bool):
    from rouge_score import tokenizers

    return tokenizers.DefaultTokenizer(use_stemmer=stem)


@functools.lru_cache(maxsize=200_000)
def _rouge_pair(reference: str, candidate: str, stem: bool):
    return _scorer(stem).score(reference, candidate)


def _prf(precision: float, recall: float, f: float) -> dict[str, float]:
    return {"precision": precision, "recall": recall, "f": f}


class _MaxOverReferences(ReferenceMetric):
    """Shared multi-reference rule for the ROUGE family: keep the reference with the best value.
    Components: ``precision``, ``recall`` and ``f`` against that reference."""

    measure: str
    stem: bool

    def validate(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"measure must be 'recall' or 'f', got {self.measure!r}")
        if not isinstance(self.stem, bool):
            raise ValueError(f"stem must be True or False, got {self.stem!r}")

    def _signature_fields(self) -> dict[str, object]:
        return {"measure": self.measure, "refs": "max", "tok": "rouge-score", "stem": "porter" if self.stem else "no"}

    def signature(self) -> Signature:
        """The short form of 0.1.0, e.g. ``rouge-2|measure:recall|refs:max|tok:rouge-score|stem:porter``
        (the ROUGE type is in the name)."""
        return Signature(self.name, self._signature_fields(), {}, __version__)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        out = []
        for item in items:
            scores = [self._score_one(ref, item.candidate) for ref in item.references]
            out.append(max(scores, key=lambda s: s.value))
        return out

    def _headline(self, components: dict[str, float]) -> Score:
        return Score(components[self.measure], components)

    @abstractmethod
    def _score_one(self, reference: str, candidate: str) -> Score:
        """Score against a single reference."""


class Rouge(_MaxOverReferences):
    """ROUGE-1, ROUGE-2 (n-gram overlap) or ROUGE-L (longest common subsequence) by rouge-score;
    ``kind`` picks which."""

    signature_via = {"kind": "name"}

    def __init__(self, kind: str = "rouge-2", measure: str = "recall", stem: bool = True):
        self.kind = kind
        self.measure = measure
        self.stem = stem

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.kind if self.measure == "recall" else f"{self.kind}-f"

    def validate(self) -> None:
        if self.kind not in ROUGE_TYPES:
            raise ValueError(f"unknown ROUGE type {self.kind!r}; choose from {sorted(ROUGE_TYPES)}")
        super().validate()

    def _score_one(self, reference: str, candidate: str) -> Score:
        s = _rouge_pair(reference, candidate, self.stem)[ROUGE_TYPES[self.kind]]
        return self._headline(_prf(s.precision, s.recall, s.fmeasure))


class RougeSU(_MaxOverReferences):
    """ROUGE-SU4 as ROUGE-1.5.5 ``-2 4 -u`` computes it.

    Skip-bigrams with at most ``max_gap`` words between the two (j - i <= max_gap + 1) plus
    unigrams. ROUGE-1.5.5 adds the unigram of every token *except the last* (its loop stops one
    short); this is reproduced so that numbers match the Perl script's.
    """

    signature_keys: ClassVar[dict[str, str]] = {"max_gap": "skip"}

    def __init__(self, max_gap: int = 4, measure: str = "recall", stem: bool = True):
        self.max_gap = max_gap
        self.measure = measure
        self.stem = stem

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"rouge-su{self.max_gap}" + ("" if self.measure == "recall" else "-f")

    def validate(self) -> None:
        if isinstance(self.max_gap, bool) or not isinstance(self.max_gap, numbers.Integral) or self.max_gap < 0:
            raise ValueError(f"max_gap must be a whole number >= 0, got {self.max_gap!r}")
        super().validate()

    def _signature_fields(self) -> dict[str, object]:
        return {"skip": self.max_gap, "unigrams": "1.5.5", **super()._signature_fields()}

    def _score_one(self, reference: str, candidate: str) -> Score:
        ref, cand = su_bag(reference, self.max_gap, self.stem), su_bag(candidate, self.max_gap, self.stem)
        hit, r_total, c_total = bag_overlap(ref, cand), total(ref), total(cand)
        p = hit / c_total if c_total else 0.0
        r = hit / r_total if r_total else 0.0
        f = 2 * p * r / (p + r) if hit else 0.0
        return self._headline(_prf(p, r, f))


@functools.lru_cache(maxsize=100_000)
def su_bag(text: str, max_gap: int, stem: bool):
    """ROUGE-SU bag of a text on rouge-score's tokens (cached: each text is tokenised once)."""
    tokens = tuple(_tokenizer(stem).tokenize(text))
    doc = Doc(tokens, (False,) * len(tokens))
    unigrams = ngram_bag(Doc(tokens[:-1], (False,) * max(len(tokens) - 1, 0)), 1)
    return merge([skip_bigram_bag(doc, max_gap), unigrams])
