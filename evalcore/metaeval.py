"""Meta-evaluation: how well a metric agrees with human judgments.

Scores are arranged as (documents x systems) matrices, NaN where a system has no summary.
- summary level: per document, correlate across systems; average over documents (documents
  where either side is constant are skipped);
- system level: average per system over documents, then correlate across systems.
Bootstrap resamples documents (seeded); correlations are vectorised over resamples, Kendall
included (tau-b from pairwise sign products), so 1,000 resamples cost milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import rankdata

CORRELATIONS = ("pearson", "spearman", "kendall")
LEVELS = ("summary", "system")


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each row pair, ignoring NaN positions; NaN where a row is constant."""
    mask = ~(np.isnan(x) | np.isnan(y))
    n = mask.sum(axis=-1)
    x = np.where(mask, x, 0.0)
    y = np.where(mask, y, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = x.sum(axis=-1, keepdims=True) / n[..., None]
        my = y.sum(axis=-1, keepdims=True) / n[..., None]
        dx = np.where(mask, x - mx, 0.0)
        dy = np.where(mask, y - my, 0.0)
        sxx, syy = (dx * dx).sum(-1), (dy * dy).sum(-1)
        r = (dx * dy).sum(-1) / np.sqrt(sxx * syy)
    tiny = 1e-12 * np.maximum(1.0, np.abs(mx[..., 0]) + np.abs(my[..., 0]))
    return np.where((n < 2) | (sxx <= tiny) | (syy <= tiny), np.nan, r)


def _rank_rows(x: np.ndarray) -> np.ndarray:
    """Average ranks per row; NaN stays NaN."""
    return rankdata(x, axis=-1, nan_policy="omit") if np.isnan(x).any() else rankdata(x, axis=-1)


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b per row: sum(sx*sy) / sqrt(sum(sx^2) sum(sy^2)) over item pairs."""
    n = x.shape[-1]
    i, j = np.triu_indices(n, k=1)
    sx = np.sign(x[..., i] - x[..., j])
    sy = np.sign(y[..., i] - y[..., j])
    valid = ~(np.isnan(sx) | np.isnan(sy))
    sx, sy = np.where(valid, sx, 0.0), np.where(valid, sy, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (sx * sy).sum(-1) / np.sqrt((sx * sx).sum(-1) * (sy * sy).sum(-1))
    return tau


def correlation_rows(x: np.ndarray, y: np.ndarray, kind: str) -> np.ndarray:
    """Correlation of type ``kind`` for every row pair of two equally shaped arrays."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if kind == "pearson":
        return _pearson_rows(x, y)
    if kind == "spearman":
        both = ~(np.isnan(x) | np.isnan(y))
        return _pearson_rows(_rank_rows(np.where(both, x, np.nan)), _rank_rows(np.where(both, y, np.nan)))
    if kind == "kendall":
        return _kendall_rows(x, y)
    raise ValueError(f"unknown correlation {kind!r}; choose from {CORRELATIONS}")


def correlations(x, y) -> dict[str, float]:
    """Pearson, Spearman and Kendall tau-b between two flat score vectors."""
    x, y = np.asarray(x, dtype=float)[None, :], np.asarray(y, dtype=float)[None, :]
    return {k: float(correlation_rows(x, y, k)[0]) for k in CORRELATIONS}


def _level_values(metric: np.ndarray, human: np.ndarray, level: str, kind: str,
                  resamples: np.ndarray | None) -> np.ndarray:
    """Correlation at ``level`` on the original documents (resamples None) or per resample."""
    if level == "summary":
        per_doc = correlation_rows(metric, human, kind)
        if resamples is None:
            return np.array(np.nanmean(per_doc))
        picked = per_doc[resamples]
        with np.errstate(invalid="ignore"):
            return np.nanmean(picked, axis=-1)
    if level == "system":
        idx = np.arange(metric.shape[0])[None, :] if resamples is None else resamples
        with np.errstate(invalid="ignore"), _quiet_nanmean():
            m = np.nanmean(metric[idx], axis=1)
            h = np.nanmean(human[idx], axis=1)
        values = correlation_rows(m, h, kind)
        return values[0] if resamples is None else values
    raise ValueError(f"unknown level {level!r}; choose from {LEVELS}")


class _quiet_nanmean:
    """Silence numpy's 'mean of empty slice' warning for systems absent from a resample."""

    def __enter__(self):
        import warnings

        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("ignore", category=RuntimeWarning)

    def __exit__(self, *exc):
        return self._ctx.__exit__(*exc)


@dataclass(frozen=True)
class Correlation:
    """One correlation with its bootstrap 95% confidence interval."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        return {"value": self.value, "ci_low": self.low, "ci_high": self.high}


def resample_documents(n_docs: int, n_boot: int = 1000, seed: int = 0) -> np.ndarray:
    """(n_boot x n_docs) document indices drawn with replacement, reproducible by ``seed``."""
    return np.random.default_rng(seed).integers(0, n_docs, size=(n_boot, n_docs))


def correlate_with_ci(metric, human, level: str, kind: str, resamples: np.ndarray) -> Correlation:
    """Correlation at ``level`` plus its percentile bootstrap CI over the given resamples."""
    metric, human = _as_matrix(metric), _as_matrix(human)
    value = float(_level_values(metric, human, level, kind, None))
    boot = _level_values(metric, human, level, kind, resamples)
    boot = boot[~np.isnan(boot)]
    low, high = (np.percentile(boot, [2.5, 97.5]) if boot.size else (np.nan, np.nan))
    return Correlation(value, float(low), float(high))


def paired_significance(metric_a, metric_b, human, level: str, kind: str,
                        resamples: np.ndarray) -> float:
    """Koehn-style test: share of document resamples where metric a correlates better than b."""
    human = _as_matrix(human)
    a = _level_values(_as_matrix(metric_a), human, level, kind, resamples)
    b = _level_values(_as_matrix(metric_b), human, level, kind, resamples)
    ok = ~(np.isnan(a) | np.isnan(b))
    return float((a[ok] > b[ok]).mean()) if ok.any() else float("nan")


def _as_matrix(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"scores must be a (documents x systems) matrix, got shape {x.shape}")
    return x
