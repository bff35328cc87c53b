"""ROUGE baselines in the same report as TESLA-S.

ROUGE-1/2/L come from Google's rouge-score package (one call per pair computes all three,
cached, so asking for several of them costs one computation). ROUGE-SU4 is not in rouge-score:
it is computed here from the suite's own skip-bigram bags, on rouge-score's tokens, exactly as
ROUGE-1.5.5 defines it (see :class:`RougeSU`). Recall is the headline value, as in TAC; ``-f``
variants report F1. Several references: the best reference (max), as rouge-score's score_multi.
"""

from __future__ import annotations

import functools
from abc import abstractmethod
from collections.abc import Sequence

from evalcore.matching import bag_overlap
from evalcore.ngrams import merge, ngram_bag, skip_bigram_bag, total
from evalcore.text import Doc
from summeval.metrics.base import Metric, Score

ROUGE_TYPES = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeL"}


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


class _MaxOverReferences(Metric):
    """Shared multi-reference rule for the ROUGE family: keep the reference with the best value."""

    def __init__(self, measure: str = "recall", stem: bool = True):
        if measure not in ("recall", "f"):
            raise ValueError(f"measure must be 'recall' or 'f', got {measure!r}")
        self.measure = measure
        self.stem = stem

    def signature_fields(self) -> str:
        return f"measure:{self.measure}|refs:max|tok:rouge-score|stem:{'porter' if self.stem else 'no'}"

    def score_batch(self, items: Sequence[tuple[Sequence[str], str]]) -> list[Score]:
        out = []
        for refs, cand in items:
            scores = [self._score_one(ref, cand) for ref in refs]
            out.append(max(scores, key=lambda s: s.value))
        return out

    @abstractmethod
    def _score_one(self, reference: str, candidate: str) -> Score:
        """Score against a single reference."""


class RougeN(_MaxOverReferences):
    """ROUGE-1, ROUGE-2 or ROUGE-L by rouge-score."""

    def __init__(self, kind: str = "rouge-2", measure: str = "recall", stem: bool = True):
        if kind not in ROUGE_TYPES:
            raise ValueError(f"unknown ROUGE type {kind!r}; choose from {sorted(ROUGE_TYPES)}")
        super().__init__(measure, stem)
        self.kind = kind
        self.name = kind if measure == "recall" else f"{kind}-f"

    def _score_one(self, reference: str, candidate: str) -> Score:
        s = _rouge_pair(reference, candidate, self.stem)[ROUGE_TYPES[self.kind]]
        return Score(s.precision, s.recall, s.fmeasure, s.recall if self.measure == "recall" else s.fmeasure)


class RougeSU(_MaxOverReferences):
    """ROUGE-SU4 as ROUGE-1.5.5 ``-2 4 -u`` computes it.

    Skip-bigrams with at most ``max_gap`` words between the two (j - i <= max_gap + 1) plus
    unigrams. ROUGE-1.5.5 adds the unigram of every token *except the last* (its loop stops one
    short); this is reproduced so that numbers match the Perl script's.
    """

    def __init__(self, max_gap: int = 4, measure: str = "recall", stem: bool = True):
        super().__init__(measure, stem)
        self.max_gap = max_gap
        self.name = f"rouge-su{max_gap}" + ("" if measure == "recall" else "-f")

    def signature_fields(self) -> str:
        return f"skip:{self.max_gap}|unigrams:1.5.5|" + super().signature_fields()

    def _score_one(self, reference: str, candidate: str) -> Score:
        ref, cand = su_bag(reference, self.max_gap, self.stem), su_bag(candidate, self.max_gap, self.stem)
        hit, r_total, c_total = bag_overlap(ref, cand), total(ref), total(cand)
        p = hit / c_total if c_total else 0.0
        r = hit / r_total if r_total else 0.0
        f = 2 * p * r / (p + r) if hit else 0.0
        return Score(p, r, f, r if self.measure == "recall" else f)


@functools.lru_cache(maxsize=100_000)
def su_bag(text: str, max_gap: int, stem: bool):
    """ROUGE-SU bag of a text on rouge-score's tokens (cached: each text is tokenised once)."""
    tokens = tuple(_tokenizer(stem).tokenize(text))
    doc = Doc(tokens, (False,) * len(tokens))
    unigrams = ngram_bag(Doc(tokens[:-1], (False,) * max(len(tokens) - 1, 0)), 1)
    return merge([skip_bigram_bag(doc, max_gap), unigrams])
