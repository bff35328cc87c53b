"""Does metric A agree with the humans better than metric B? One-sided tests of the difference
of a statistic (A minus B) at a level (Deutsch, Dror and Roth 2021; Graham and Baldwin 2014).

- ``perm-both``, ``perm-systems``, ``perm-inputs``: both metrics are standardised (z-scored over
  all their cells) and, in each permutation, A's and B's scores trade places cell by cell
  (``perm-both``: every cell independently), system by system (whole rows) or input by input
  (whole columns), each with probability 1/2; p = share of permutations whose difference is at
  least the observed one.
- ``bootstrap``: the paired bootstrap of a resampling design; p = share of resamples where A's
  statistic does not exceed B's.
- ``williams``: Williams' t-test of two dependent correlations that share the human side, given
  the correlation between the two metrics; only for one correlation (``system`` or ``global``
  level), not for averages.
Permutations and resamples are seeded, vectorised and chunked as in :mod:`evalcore.stats.resampling`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import t as student_t

from evalcore.stats import levels
from evalcore.stats.names import TESTS
from evalcore.stats.resampling import CHUNK, check_resamples, draw, resampled

# Slack for ">=" against the observed difference: a permutation that reproduces it must count
# even when summation order changes its last bits.
_SLACK = 1e-12


@dataclass(frozen=True)
class Comparison:
    """The one-sided test of A > B: ``delta`` = statistic(A) - statistic(B); ``p_value`` None
    with ``undefined`` saying why when the test has no answer."""

    test: str
    delta: float | None
    p_value: float | None
    n_samples: int = 0
    seed: int | None = None
    undefined: str | None = None

    def as_dict(self) -> dict:
        return {"test": self.test, "delta": self.delta, "p_value": self.p_value, "n_samples": self.n_samples,
                "seed": self.seed, "undefined": self.undefined}


def standardise(x: np.ndarray) -> np.ndarray:
    """z-scores over all scored cells (population standard deviation); NaN stays NaN."""
    return (x - np.nanmean(x)) / np.nanstd(x)


def permutation_masks(test: str, n_systems: int, n_inputs: int, n_samples: int, seed: int) -> np.ndarray:
    """Boolean swap masks (samples x N x M, or broadcastable rows/columns) of a permutation test;
    a count whose masks would pass :data:`~evalcore.stats.resampling.DRAW_BYTES` is a ValueError."""
    check_resamples(n_samples, n_systems, n_inputs, test)
    rng = np.random.default_rng(seed)
    shape = {"perm-both": (n_samples, n_systems, n_inputs), "perm-systems": (n_samples, n_systems, 1),
             "perm-inputs": (n_samples, 1, n_inputs)}[test]
    return rng.integers(0, 2, size=shape).astype(bool)


def permutation_deltas(xa: np.ndarray, xb: np.ndarray, z: np.ndarray, level: str, statistic: str,
                       masks: np.ndarray, epsilon: float | None = 0.0) -> np.ndarray:
    """statistic(A') - statistic(B') for every swap mask (True: the cell's scores trade places)."""
    n, m = xa.shape
    step = max(1, CHUNK // max(1, levels.pairs_per_resample(n, m, level, statistic)))
    out = []
    for start in range(0, len(masks), step):
        swap = masks[start:start + step]
        a, b = np.where(swap, xb, xa), np.where(swap, xa, xb)
        zz = np.broadcast_to(z, a.shape)
        out.append(levels.values(a, zz, level, statistic, epsilon)[0]
                   - levels.values(b, zz, level, statistic, epsilon)[0])
    return np.concatenate(out) if out else np.zeros(0)


def share_at_least(samples: np.ndarray, observed: float) -> float:
    """Share of defined samples at least ``observed`` (with float slack)."""
    samples = samples[~np.isnan(samples)]
    return float((samples >= observed - _SLACK * max(1.0, abs(observed))).mean()) if samples.size else math.nan


def williams(r12: float, r13: float, r23: float, n: int) -> float:
    """One-sided p-value that the correlation r12 (metric A with humans) exceeds r13 (metric B
    with humans) given r23 (A with B) over n points (Williams 1959, as Graham and Baldwin 2014)."""
    k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    denominator = 2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23) / denominator)
    return float(student_t.sf(t, n - 3))


def compare(xa, xb, z, level: str, statistic: str, test: str, *, n_samples: int = 1000, seed: int = 0,
            design: str = "both", tie_calibration: bool = False, epsilon: float = 0.0) -> Comparison:
    """Test whether metric ``xa`` beats metric ``xb`` against human ``z`` (systems x inputs
    matrices) at ``level`` on ``statistic``; ``design`` is the bootstrap's resampling design."""
    statistic = levels.check(level, statistic)
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose from {', '.join(TESTS)}")
    xa, xb, z = (np.asarray(v, dtype=float) for v in (xa, xb, z))
    if not xa.shape == xb.shape == z.shape or xa.ndim != 2:
        raise ValueError(f"the matrices differ in shape: {xa.shape}, {xb.shape}, {z.shape}")
    eps = None if (tie_calibration and statistic == "acc-eq") else epsilon
    va = float(levels.values(xa, z, level, statistic, eps)[0])
    vb = float(levels.values(xb, z, level, statistic, eps)[0])
    if math.isnan(va) or math.isnan(vb):
        return Comparison(test, None, None, undefined="undefined: a metric's statistic is undefined")
    delta = va - vb
    if test == "williams":
        return _williams(xa, xb, z, level, statistic, delta)
    if test == "bootstrap":
        draws = draw(design, xa.shape[0], xa.shape[1], n_samples, seed)
        diff = resampled(xa, z, level, statistic, draws, eps)[0] - resampled(xb, z, level, statistic, draws, eps)[0]
        diff = diff[~np.isnan(diff)]
        if not diff.size:
            return Comparison(test, delta, None, n_samples, seed, "undefined: no resample has both values")
        return Comparison(test, delta, float((diff <= 0).mean()), n_samples, seed)
    sa, sb = standardise(xa), standardise(xb)
    if not (np.isfinite(np.nanstd(xa)) and np.nanstd(xa) > 0 and np.nanstd(xb) > 0):
        return Comparison(test, delta, None, undefined="undefined: a metric's scores are constant")
    masks = permutation_masks(test, xa.shape[0], xa.shape[1], n_samples, seed)
    observed = float(levels.values(sa, z, level, statistic, eps)[0] - levels.values(sb, z, level, statistic, eps)[0])
    p = share_at_least(permutation_deltas(sa, sb, z, level, statistic, masks, eps), observed)
    return Comparison(test, delta, None if math.isnan(p) else p, n_samples, seed,
                      "undefined: no permutation has both values" if math.isnan(p) else None)


def _williams(xa: np.ndarray, xb: np.ndarray, z: np.ndarray, level: str, statistic: str, delta: float) -> Comparison:
    if level == "item" or statistic not in ("pearson", "spearman", "kendall-b", "kendall-c"):
        return Comparison("williams", delta, None, undefined="undefined: Williams' test compares two single "
                          "correlations (system or global level), not averages or accuracies")
    r12 = float(levels.values(xa, z, level, statistic)[0])
    r13 = float(levels.values(xb, z, level, statistic)[0])
    r23 = float(levels.values(xa, xb, level, statistic)[0])
    if level == "system":
        ok = ~(np.isnan(np.nanmean(xa, 1)) | np.isnan(np.nanmean(xb, 1)) | np.isnan(np.nanmean(z, 1)))
    else:
        ok = ~(np.isnan(xa) | np.isnan(xb) | np.isnan(z))
    n = int(ok.sum())
    if n < 4 or math.isnan(r23):
        return Comparison("williams", delta, None, undefined=f"undefined: Williams' test needs 4 points and a "
                          f"defined correlation between the metrics ({n} points)")
    return Comparison("williams", delta, williams(r12, r13, r23, n), n)
