"""Meta-evaluation conventions of MT (WMT12 relative rankings, MQM), on :mod:`evalcore.stats.correlation`.

- WMT12 segment level: Kendall's tau over human pairwise preferences (human ties excluded),
  tau = (concordant - discordant) / (concordant + discordant); variant ``wmt12`` counts a metric
  tie as discordant (the WMT12 metrics task), ``no-ties`` leaves metric ties out.
- WMT12 system level: a system's human score is the share of its pairwise comparisons it won
  (ties excluded); correlated across systems with the metric's corpus scores.
- MQM segment level: Kendall tau-b and Pearson over (segment x system) cells, no grouping or
  averaged per segment (evalcore's ``none`` / ``item``); system level: correlations of system
  scores over the rated segments.

Every correlation has a seeded bootstrap CI from resampling segments. System-level metric
scores are corpus scores as the metric defines them (summed statistics for sacrebleu's metrics,
means otherwise), recomputed on every resample.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from evalcore.metric import Metric, Score
from evalcore.metric.statistics import SufficientStatistics
from evalcore.stats.correlation import Correlation, correlation_rows, percentile_interval, resample_counts, share_better
from mteval.data.wmt12 import Comparison

KENDALL_VARIANTS = ("wmt12", "no-ties")
SYSTEM_KINDS = ("pearson", "spearman", "kendall")


def orientation(metric: Metric) -> float:
    """+1 where higher metric values are better, -1 where lower are (TER)."""
    return -1.0 if metric.lower_is_better else 1.0


# --- WMT12 ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class KendallCounts:
    """Per segment: concordant, discordant and metric-tied human preferences, and the pairs
    left out because a side had no metric score."""

    segments: tuple[int, ...]
    concordant: np.ndarray
    discordant: np.ndarray
    ties: np.ndarray
    unscored: int

    def tau(self, variant: str, weights: np.ndarray | None = None) -> np.ndarray:
        """tau per row of segment ``weights`` (None: the segments once each)."""
        if variant not in KENDALL_VARIANTS:
            raise ValueError(f"unknown Kendall variant {variant!r}; choose from {KENDALL_VARIANTS}")
        w = np.ones((1, len(self.segments))) if weights is None else weights
        c, d = w @ self.concordant, w @ self.discordant
        if variant == "wmt12":
            d = d + w @ self.ties
        with np.errstate(invalid="ignore", divide="ignore"):
            return (c - d) / (c + d)


def kendall_counts(comparisons: Sequence[Comparison], scores: Mapping[tuple[int, str], float],
                   sign: float = 1.0) -> KendallCounts:
    """Count agreement of metric ``scores`` ((segment, system) -> value; ``sign`` -1 where lower
    is better) with the human preferences that are not ties."""
    segments = sorted({c.segment for c in comparisons if c.human})
    index = {s: k for k, s in enumerate(segments)}
    conc, disc, ties = (np.zeros(len(segments)) for _ in range(3))
    unscored = 0
    for c in comparisons:
        if not c.human:
            continue
        a, b = scores.get((c.segment, c.a)), scores.get((c.segment, c.b))
        if a is None or b is None:
            unscored += 1
            continue
        diff = sign * (a - b)
        k = index[c.segment]
        if diff == 0:
            ties[k] += 1
        elif (diff > 0) == (c.human > 0):
            conc[k] += 1
        else:
            disc[k] += 1
    return KendallCounts(tuple(segments), conc, disc, ties, unscored)


def wmt12_kendall(counts: KendallCounts, variant: str, n_boot: int = 1000, seed: int = 0) -> Correlation:
    """WMT12 segment-level tau (``variant`` wmt12 or no-ties) with a bootstrap CI over segments."""
    value = float(counts.tau(variant)[0])
    if not n_boot:
        return Correlation(value, math.nan, math.nan)
    return percentile_interval(value, counts.tau(variant, resample_counts(len(counts.segments), n_boot, seed)))


def win_counts(comparisons: Sequence[Comparison], segments: Sequence[int],
               systems: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(segments x systems) wins and decided comparisons (ties excluded) from the human side."""
    s_index = {s: k for k, s in enumerate(segments)}
    j_index = {s: k for k, s in enumerate(systems)}
    wins, decided = np.zeros((len(segments), len(systems))), np.zeros((len(segments), len(systems)))
    for c in comparisons:
        if not c.human or c.segment not in s_index or c.a not in j_index or c.b not in j_index:
            continue
        k = s_index[c.segment]
        winner = c.a if c.human > 0 else c.b
        wins[k, j_index[winner]] += 1
        decided[k, j_index[c.a]] += 1
        decided[k, j_index[c.b]] += 1
    return wins, decided


# --- system level (both conventions) -------------------------------------------------------------

@dataclass(frozen=True)
class CorpusStatistics:
    """A metric's per-segment statistics for every system, (systems x segments x statistics),
    zero where a segment was not scored, and the function turning summed statistics into corpus
    scores ((n x statistics) -> n), oriented so that higher is better."""

    stats: np.ndarray
    aggregate: Callable[[np.ndarray], np.ndarray]

    def corpus(self, weights: np.ndarray) -> np.ndarray:
        """(resamples x systems) corpus scores for rows of segment ``weights``."""
        summed = np.einsum("rs,jsk->rjk", weights, self.stats)
        r, j, k = summed.shape
        return self.aggregate(summed.reshape(r * j, k)).reshape(r, j)


def corpus_statistics(metric: Metric, scores: Sequence[Sequence[Score | None]]) -> CorpusStatistics:
    """The :class:`CorpusStatistics` of ``scores[system][segment]`` (None = not scored)."""
    sign = orientation(metric)
    if isinstance(metric, SufficientStatistics):
        width = len(metric.statistic_names())
        stats = np.zeros((len(scores), len(scores[0]) if scores else 0, width))
        for j, row in enumerate(scores):
            for k, s in enumerate(row):
                if s is not None:
                    stats[j, k] = metric.statistics([s])[0]
        return CorpusStatistics(stats, lambda x: sign * metric.corpus_from_statistics(x))
    stats = np.array([[[s.value, 1.0] if s is not None else [0.0, 0.0] for s in row] for row in scores],
                     dtype=float).reshape(len(scores), -1, 2)

    def mean(x: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return sign * x[:, 0] / x[:, 1]
    return CorpusStatistics(stats, mean)


def system_correlations(metric: CorpusStatistics, human_sum: np.ndarray, human_count: np.ndarray,
                        n_boot: int = 1000, seed: int = 0,
                        kinds: Sequence[str] = SYSTEM_KINDS) -> tuple[dict[str, Correlation], np.ndarray, np.ndarray]:
    """Correlations across systems of corpus scores with human system scores (sum / count over
    segments, both (segments x systems)); CIs resample segments for both sides at once. Also
    returns the metric and human system scores."""
    n_segments = human_sum.shape[0]
    ones = np.ones((1, n_segments))
    with np.errstate(invalid="ignore", divide="ignore"):
        human = (ones @ human_sum) / (ones @ human_count)
    system = metric.corpus(ones)
    boot_m = boot_h = None
    if n_boot:
        counts = resample_counts(n_segments, n_boot, seed)
        boot_m = metric.corpus(counts)
        with np.errstate(invalid="ignore", divide="ignore"):
            boot_h = (counts @ human_sum) / (counts @ human_count)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for kind in kinds:
            value = float(correlation_rows(system, human, kind)[0])
            out[kind] = (Correlation(value, math.nan, math.nan) if boot_m is None or boot_h is None
                         else percentile_interval(value, correlation_rows(boot_m, boot_h, kind)))
    return out, system[0], human[0]


def sample_segments(segments: Iterable[int], limit: int, seed: int) -> list[int]:
    """A seeded sample of ``limit`` segments (all when ``limit`` is 0 or larger), sorted."""
    segments = sorted(segments)
    if not limit or limit >= len(segments):
        return segments
    picked = np.random.default_rng(seed).choice(len(segments), size=limit, replace=False)
    return sorted(segments[k] for k in picked)


def kendall_beats(a: KendallCounts, b: KendallCounts, variant: str, n_boot: int, seed: int) -> float:
    """Share of segment resamples (the same for both) where metric a's tau exceeds b's."""
    counts = resample_counts(len(a.segments), n_boot, seed)
    return share_better(a.tau(variant, counts), b.tau(variant, counts))


def average_kendall(per_pair: dict[str, KendallCounts], variant: str, n_boot: int, seed: int):
    """Mean tau over pairs with a CI from the mean of the pairs' (independent) resamples."""
    values = [float(c.tau(variant)[0]) for c in per_pair.values()]
    boots = [c.tau(variant, resample_counts(len(c.segments), n_boot, seed + k))
             for k, c in enumerate(per_pair.values())]
    return percentile_interval(float(np.mean(values)), np.mean(boots, axis=0))
