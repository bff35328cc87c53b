"""Is system A really better than system B on this test set? Paired significance tests on the
same segments scored for both systems, as sacrebleu offers them (learned from, not copied):

- :func:`paired_bootstrap`: paired bootstrap resampling (Koehn 2004) with sacrebleu's resamples
  and p-value: segments drawn with replacement (``Generator.choice`` from the seed), both systems
  rescored on each resample; the absolute resampled differences, shifted to mean zero, are the
  null distribution, and p = (resamples whose shifted value reaches the observed absolute
  difference + 1) / (resamples + 1), as sacrebleu's ``--paired-bs`` computes it;
- :func:`approximate_randomization`: approximate randomization (Riezler & Maxwell 2005): swap
  the two systems' outputs segment by segment with probability 1/2; the p-value is the share of
  shuffles whose difference is at least as large as the observed one, with the +1 correction.

Both work on a metric's per-segment values (the corpus score is their mean) or, given an
``aggregate`` function, on per-segment sufficient statistics (BLEU-like metrics: the corpus score
is computed from summed statistics, not averaged). Both tests use ``>=`` where sacrebleu uses
``>``, so that a system compared with itself gets p = 1 (sacrebleu gives it 1 / (resamples + 1),
"significant"); otherwise the p-values equal sacrebleu's for the same seed and resamples (they
differ only if a resampled value ties the observed one exactly). Everything is vectorised over
resamples and seeded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from evalcore.stats.correlation import draw_counts, percentile_bounds

TESTS = ("bootstrap", "randomization")
# sacrebleu's defaults: 1,000 bootstrap resamples, 10,000 randomization trials, seed 12345.
DEFAULT_SAMPLES = {"bootstrap": 1000, "randomization": 10000}
DEFAULT_SEED = 12345
# Resamples are processed in chunks of about this many (resample x segment) cells.
_CHUNK_CELLS = 1 << 22

Aggregate = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class PairedTest:
    """Result of one paired test of system ``a`` against system ``b`` on the same segments.

    ``difference`` is score(a) - score(b) on the full set; ``mean_difference`` and the CI
    (``ci_low``, ``ci_high``, percentile, level 1 - alpha) describe that difference over paired
    bootstrap resamples; ``p_value`` is the test's two-sided p-value."""

    test: str
    score_a: float
    score_b: float
    difference: float
    p_value: float
    mean_difference: float
    ci_low: float
    ci_high: float
    n_samples: int
    seed: int

    def as_dict(self) -> dict:
        return {"test": self.test, "score_a": self.score_a, "score_b": self.score_b,
                "difference": self.difference, "p_value": self.p_value,
                "mean_difference": self.mean_difference, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "n_samples": self.n_samples, "seed": self.seed}


class _Scorer:
    """Corpus scores of weighted segment sets: ``weights`` (trials x segments) times the
    per-segment statistics, summed, then aggregated (mean of values when no ``aggregate``)."""

    def __init__(self, values, aggregate: Aggregate | None, name: str):
        stats = np.asarray(values, dtype=float)
        if aggregate is None:
            if stats.ndim != 1:
                raise ValueError(f"system {name}: per-segment values must be one-dimensional, got shape "
                                 f"{stats.shape} (pass aggregate= for per-segment statistics)")
            stats = stats[:, None]
        elif stats.ndim == 1:
            stats = stats[:, None]
        elif stats.ndim != 2:
            raise ValueError(f"system {name}: statistics must be (segments x statistics), got shape {stats.shape}")
        bad = np.flatnonzero(~np.isfinite(stats).all(axis=1))
        if bad.size:
            listed = ", ".join(str(i + 1) for i in bad[:5]) + (" ..." if bad.size > 5 else "")
            raise ValueError(f"system {name}: {bad.size} segment(s) without a finite value (segment {listed}); "
                             "a paired test needs every segment scored for both systems")
        self.stats, self.aggregate = stats, aggregate

    def __len__(self) -> int:
        return self.stats.shape[0]

    def corpus(self, summed: np.ndarray, n_segments) -> np.ndarray:
        """Corpus scores from rows of summed statistics, each over ``n_segments`` segments."""
        if self.aggregate is None:
            return summed[:, 0] / n_segments
        out = np.asarray(self.aggregate(summed), dtype=float).reshape(-1)
        if out.shape != (summed.shape[0],):
            raise ValueError(f"aggregate must map (n x statistics) summed statistics to n scores; "
                             f"got shape {out.shape} for {summed.shape[0]} rows")
        return out

    def scores(self, weights: np.ndarray) -> np.ndarray:
        """Corpus scores of segment multisets given as (trials x segments) weights."""
        return self.corpus(weights @ self.stats, weights.sum(axis=1))

    def full(self) -> float:
        return float(self.scores(np.ones((1, len(self)))).item())


def _pair(a, b, aggregate: Aggregate | None) -> tuple[_Scorer, _Scorer]:
    sa, sb = _Scorer(a, aggregate, "a"), _Scorer(b, aggregate, "b")
    if len(sa) != len(sb):
        raise ValueError(f"the systems were scored on different numbers of segments ({len(sa)} and {len(sb)})")
    if sa.stats.shape[1] != sb.stats.shape[1]:
        raise ValueError(f"the systems have different numbers of statistics per segment "
                         f"({sa.stats.shape[1]} and {sb.stats.shape[1]})")
    if not len(sa):
        raise ValueError("no segments to compare")
    return sa, sb


def _chunks(n_trials: int, n_segments: int):
    step = max(1, _CHUNK_CELLS // max(1, n_segments))
    for start in range(0, n_trials, step):
        yield min(step, n_trials - start)


def _bootstrap_differences(sa: _Scorer, sb: _Scorer, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """score(a) - score(b) on ``n_samples`` paired resamples of the segments."""
    n = len(sa)
    out = []
    for size in _chunks(n_samples, n):
        counts = draw_counts(rng.choice(n, size=(size, n), replace=True), n)  # sacrebleu's draws
        out.append(sa.scores(counts) - sb.scores(counts))
    return np.concatenate(out) if out else np.zeros(0)


def _interval(diffs: np.ndarray, alpha: float) -> tuple[float, float, float]:
    return (float(diffs.mean()), *percentile_bounds(diffs, alpha))


def _check(n_samples: int, alpha: float) -> None:
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")


def paired_bootstrap(a, b, aggregate: Aggregate | None = None, n_samples: int = DEFAULT_SAMPLES["bootstrap"],
                     seed: int = DEFAULT_SEED, alpha: float = 0.05) -> PairedTest:
    """Paired bootstrap test of system ``a`` against ``b``: per-segment values (two equally long
    vectors), or per-segment statistics (segments x statistics) with ``aggregate`` mapping rows of
    summed statistics to corpus scores (vectorised: (n x statistics) -> n scores)."""
    _check(n_samples, alpha)
    sa, sb = _pair(a, b, aggregate)
    score_a, score_b = sa.full(), sb.full()
    observed = score_a - score_b
    diffs = _bootstrap_differences(sa, sb, n_samples, np.random.default_rng(seed))
    null = np.abs(diffs) - np.abs(diffs).mean()  # sacrebleu's null: absolute differences centred
    p = (np.sum(null >= abs(observed) - _tolerance(observed)) + 1) / (n_samples + 1)
    mean, low, high = _interval(diffs, alpha)
    return PairedTest("bootstrap", score_a, score_b, observed, float(p), mean, low, high, n_samples, seed)


@dataclass(frozen=True)
class Interval:
    """A system's corpus value on every segment, and the mean and percentile bounds (level
    1 - alpha) of its value over bootstrap resamples of the segments."""

    value: float
    mean: float
    ci_low: float
    ci_high: float
    n_samples: int
    seed: int

    def as_dict(self) -> dict:
        return {"value": self.value, "mean": self.mean, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "n_samples": self.n_samples, "seed": self.seed}


def bootstrap_interval(values, aggregate: Aggregate | None = None, n_samples: int = DEFAULT_SAMPLES["bootstrap"],
                       seed: int = DEFAULT_SEED, alpha: float = 0.05) -> Interval:
    """One system's corpus value and its bootstrap interval over segments, on sacrebleu's draws
    (its ``--confidence``: the same resamples as :func:`paired_bootstrap` with the same seed);
    inputs as :func:`paired_bootstrap` takes one system's."""
    _check(n_samples, alpha)
    scorer = _Scorer(values, aggregate, "a")
    if not len(scorer):
        raise ValueError("no segments to resample")
    rng = np.random.default_rng(seed)
    n = len(scorer)
    scores = np.concatenate([scorer.scores(draw_counts(rng.choice(n, size=(size, n), replace=True), n))
                             for size in _chunks(n_samples, n)])
    mean, low, high = _interval(scores, alpha)
    return Interval(scorer.full(), mean, low, high, n_samples, seed)


def approximate_randomization(a, b, aggregate: Aggregate | None = None,
                              n_samples: int = DEFAULT_SAMPLES["randomization"], seed: int = DEFAULT_SEED,
                              n_ci: int = DEFAULT_SAMPLES["bootstrap"], alpha: float = 0.05) -> PairedTest:
    """Approximate randomization test of system ``a`` against ``b`` (inputs as in
    :func:`paired_bootstrap`); the mean and CI of the difference come from ``n_ci`` paired
    bootstrap resamples drawn after the shuffles from the same seeded generator."""
    _check(n_samples, alpha)
    _check(n_ci, alpha)
    sa, sb = _pair(a, b, aggregate)
    score_a, score_b = sa.full(), sb.full()
    observed = score_a - score_b
    rng = np.random.default_rng(seed)
    n = len(sa)
    hits = 0
    for size in _chunks(n_samples, n):
        swap = rng.integers(0, 2, size=(size, n)).astype(float)  # 1: the segment's outputs trade places
        keep = 1.0 - swap
        x = keep @ sa.stats + swap @ sb.stats
        y = swap @ sa.stats + keep @ sb.stats
        diff = sa.corpus(x, n) - sa.corpus(y, n)
        hits += int(np.sum(np.abs(diff) >= abs(observed) - _tolerance(observed)))
    p = (hits + 1) / (n_samples + 1)
    diffs = _bootstrap_differences(sa, sb, n_ci, rng)
    mean, low, high = _interval(diffs, alpha)
    return PairedTest("randomization", score_a, score_b, observed, float(p), mean, low, high,
                      n_samples, seed)


def _tolerance(observed: float) -> float:
    """Float slack for ``>=``: a shuffle that reproduces the observed difference must count even
    when summation order changes its last bits."""
    return 1e-12 * max(1.0, abs(observed))


def compare_to_baseline(systems: Mapping[str, object], baseline: str, test: str = "bootstrap",
                        aggregate: Aggregate | None = None, n_samples: int | None = None,
                        seed: int = DEFAULT_SEED, alpha: float = 0.05) -> dict[str, PairedTest]:
    """Every system against ``baseline`` with the same test and seed (so the same resamples),
    as sacrebleu's ``--paired-bs`` / ``--paired-ar``: {system: result}, baseline excluded."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose from {TESTS}")
    if baseline not in systems:
        raise ValueError(f"baseline {baseline!r} is not among the systems: {', '.join(systems)}")
    n = n_samples or DEFAULT_SAMPLES[test]
    run = paired_bootstrap if test == "bootstrap" else approximate_randomization
    return {name: run(values, systems[baseline], aggregate, n, seed, alpha=alpha)
            for name, values in systems.items() if name != baseline}
