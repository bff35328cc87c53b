"""self-BLEU and iBLEU (Sun and Zhou 2012), the n-gram scores paraphrase-generation papers report.

- ``self-bleu``: BLEU of the paraphrase against its original as the one reference (lower = more
  rewriting; a copy of the input gets 100).
- ``ibleu``: ``alpha * BLEU(paraphrase, references) - (1 - alpha) * BLEU(paraphrase, original)``
  (Sun and Zhou 2012, ACL short paper "Joint learning of a dual SMT system for paraphrase
  generation", section 3). The paper states alpha as the weight that balances adequacy against
  dissimilarity and tunes its system with alpha = 0.8; later generators report 0.8 (Hosking and
  Lapata 2021) or 0.9 (Li et al. 2019, Liu et al. 2020). The default here is 0.8, the paper's;
  alpha is a parameter and is named in the signature, so a table made with 0.9 never passes for
  one made with 0.8.

Both are BLEU as sacrebleu computes it, reached through the registry (``get_metric("bleu")``,
mteval's registered BLEU with its tokenizer and smoothing): a segment's value is sentence BLEU
(exponential smoothing, effective order), the corpus value is corpus BLEU computed from summed
n-gram statistics, as the field reports system scores. The statistics travel as the score's
components, so paired tests and bootstrap intervals rescore corpus BLEU on every resample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from evalcore.metric import Item, Score, SourceMetric, SourceReferenceMetric
from evalcore.metric.lazy import lazy_resource
from evalcore.metric.statistics import SufficientStatistics

#: Sun and Zhou (2012)'s weight of BLEU against the references
PAPER_ALPHA = 0.8


class _BleuAgainstOriginal(SufficientStatistics):
    """Shared parts: the registered BLEU configured from this metric's tokenizer and case."""

    english: ClassVar[bool] = False  # BLEU reads any language: no English-text notes
    languages: ClassVar[tuple[str, ...]] = ("*",)
    signature_keys = {"tokenize": "tok", "lowercase": "lc"}
    tokenize: str
    lowercase: bool

    @lazy_resource("tokenize", "lowercase")
    def bleu(self):
        """mteval's registered BLEU (sacrebleu) with this tokenizer and case."""
        from evalcore.metric.registry import get_metric

        return get_metric("bleu", tokenize=self.tokenize, lowercase=self.lowercase)

    def validate(self) -> None:
        self.bleu.validate()

    def signature_extras(self) -> dict[str, object]:
        return {"eff": "sent-yes+corpus-no", **self.bleu.signature_extras()}

    def _bleu_scores(self, pairs: list[tuple[str, tuple[str, ...]]]) -> list[Score]:
        """Sentence BLEU with statistics of each (candidate, references), inputs already checked."""
        results = self.bleu.score_batch([Item(cand, refs, id=f"item {k + 1}") for k, (cand, refs) in enumerate(pairs)])
        bad = next((r for r in results if not r.ok), None)
        if bad is not None:
            raise ValueError(f"BLEU could not score a checked item: {bad.message}")
        return [r for r in results if isinstance(r, Score)]


class SelfBleu(_BleuAgainstOriginal, SourceMetric):
    """BLEU of a paraphrase against its original (self-BLEU): lower means more rewriting."""

    lower_is_better: ClassVar[bool] = True

    def __init__(self, tokenize: str = "13a", lowercase: bool = False):
        self.tokenize = tokenize
        self.lowercase = lowercase

    def statistic_names(self) -> tuple[str, ...]:
        return self.bleu.statistic_names()

    def corpus_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        return self.bleu.corpus_from_statistics(summed)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        return self._bleu_scores([(item.candidate, (self.source_text(item),)) for item in items])


class IBleu(_BleuAgainstOriginal, SourceReferenceMetric):
    """iBLEU (Sun and Zhou 2012): alpha * BLEU(paraphrase, references) - (1 - alpha) * BLEU(paraphrase,
    original); rewards meaning kept (references) and penalises copying the input."""

    def __init__(self, alpha: float = PAPER_ALPHA, tokenize: str = "13a", lowercase: bool = False):
        self.alpha = alpha
        self.tokenize = tokenize
        self.lowercase = lowercase

    def validate(self) -> None:
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, (int, float)) or not 0 <= self.alpha <= 1:
            raise ValueError(f"ibleu: alpha must be a number between 0 and 1, got {self.alpha!r}")
        super().validate()

    def statistic_names(self) -> tuple[str, ...]:
        names = self.bleu.statistic_names()
        return (*(f"ref_{n}" for n in names), *(f"src_{n}" for n in names))

    def corpus_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        rows = np.atleast_2d(np.asarray(summed, dtype=float))
        half = rows.shape[1] // 2
        return (self.alpha * self.bleu.corpus_from_statistics(rows[:, :half])
                - (1 - self.alpha) * self.bleu.corpus_from_statistics(rows[:, half:]))

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        to_refs = self._bleu_scores([(item.candidate, item.references) for item in items])
        to_src = self._bleu_scores([(item.candidate, (self.source_text(item),)) for item in items])
        names = self.bleu.statistic_names()
        out = []
        for ref, src in zip(to_refs, to_src):
            components = {**{f"ref_{n}": ref.components[n] for n in names},
                          **{f"src_{n}": src.components[n] for n in names}}
            out.append(Score(self.alpha * ref.value - (1 - self.alpha) * src.value, components))
        return out
