"""Metrics with sufficient statistics (sacrebleu's corpus rule): each segment's score carries
fixed statistics as components, and the corpus score is computed from their sums, not the mean
of segment values. Paired significance tests and bootstrap resamples read the statistics through
this contract, whatever the metric."""

from __future__ import annotations

from abc import abstractmethod
from array import array
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
        return self.score_of_sums(summed_rows(statistics) if len(statistics) else None)

    def score_of_sums(self, summed: np.ndarray | None) -> Score:
        """The corpus score of summed statistics (:func:`summed_rows`; None: no segment scored)."""
        if summed is None:
            return super()._aggregate([])
        return Score(float(self.corpus_from_statistics(summed)[0]), dict(zip(self.statistic_names(), summed)))

    def _aggregate(self, scores: Sequence[Score]) -> Score:
        """The corpus score computed from the summed statistics of the scored segments."""
        return self.score_of_statistics(self.statistics(scores))


def summed_rows(rows: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """Column sums of ``rows`` added one row after another onto ``start`` (if given): the same
    floats whether a matrix is summed whole or a block of rows at a time, which a pairwise sum
    (``ndarray.sum`` of one column) does not promise."""
    if start is not None:
        rows = np.vstack([start, rows])
    return np.add.accumulate(rows, axis=0)[-1]


class StatisticSums:
    """A metric's corpus score kept as the running sums of its segments' statistics, so a long run
    holds no row per segment; rows wait in a block and are added a block at a time
    (:func:`summed_rows`: the sums of the whole matrix, to the last bit)."""

    BLOCK = 4096

    def __init__(self, metric: SufficientStatistics):
        self.metric = metric
        self._names = metric.statistic_names()
        self._block = array("d")
        self._sums: np.ndarray | None = None

    def append(self, score: Score) -> None:
        """Add a scored segment (its components hold the statistics)."""
        self._block.extend(score.components[n] for n in self._names)
        if len(self._block) >= self.BLOCK * len(self._names):
            self._add_block()

    def _add_block(self) -> None:
        if self._block:
            rows = np.array(self._block, dtype=float).reshape(-1, len(self._names))
            self._sums = summed_rows(rows, self._sums)
            self._block = array("d")

    def score(self) -> Score:
        """The corpus score of the segments added so far."""
        self._add_block()
        return self.metric.score_of_sums(self._sums)
