"""Metrics with sufficient statistics (sacrebleu's corpus rule): each segment's score carries
fixed statistics as components, and the corpus score is computed from their sums, not the mean
of segment values. Paired significance tests and bootstrap resamples read the statistics through
this contract, whatever the metric."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence

import numpy as np

from evalcore.metric.base import Metric
from evalcore.metric.records import Score


class SufficientStatistics(Metric):
    """A metric whose corpus score is a function of summed segment statistics; combine it with a
    typed base: ``class Bleu(SufficientStatistics, ReferenceMetric)``."""

    @abstractmethod
    def statistic_names(self) -> tuple[str, ...]:
        """Names of the per-segment statistics (the components every score carries), in order."""

    @abstractmethod
    def corpus_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus scores from rows of summed statistics ((n x statistics) -> n scores)."""

    def statistics(self, scores: Sequence[Score]) -> np.ndarray:
        """(segments x statistics) matrix of scored segments, for paired tests and bootstrap."""
        names = self.statistic_names()
        return np.array([[s.components[n] for n in names] for s in scores], dtype=float).reshape(-1, len(names))

    def score_of_statistics(self, statistics: np.ndarray) -> Score:
        """The corpus score of a (segments x statistics) matrix, computed from its column sums."""
        if not len(statistics):
            return super()._aggregate([])
        summed = statistics.sum(axis=0)
        return Score(float(self.corpus_from_statistics(summed)[0]), dict(zip(self.statistic_names(), summed)))

    def _aggregate(self, scores: Sequence[Score]) -> Score:
        """The corpus score computed from the summed statistics of the scored segments."""
        return self.score_of_statistics(self.statistics(scores))
