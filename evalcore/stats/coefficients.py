"""Correlation coefficients along the last axis of stacked score arrays, NaN where a cell is
missing: Pearson, Spearman, Kendall tau-b and tau-c. A coefficient over fewer than
:data:`MIN_POINTS` scored pairs or with a constant side (all its values exactly equal) is NaN,
which the callers report as undefined. Every function takes arrays of any leading shape
(resamples, inputs) so that one call computes a whole bootstrap; Kendall over many points per
row falls back to scipy row by row (its O(n log n) algorithm beats the O(n^2) pair signs there)."""

from __future__ import annotations

import numpy as np
from scipy.stats import kendalltau, rankdata

from evalcore.stats.names import COEFFICIENTS

#: fewest scored pairs a correlation is defined on (two points always correlate perfectly)
MIN_POINTS = 3
# Kendall by pair signs up to this many points per row; scipy's sort-based kendalltau above it.
_PAIR_SIGN_POINTS = 64


def paired(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both arrays with NaN wherever either side is missing, and the mask of scored pairs."""
    ok = ~(np.isnan(x) | np.isnan(y))
    return np.where(ok, x, np.nan), np.where(ok, y, np.nan), ok


def constant(v: np.ndarray, used: np.ndarray) -> np.ndarray:
    """Whether the values ``used`` along the last axis are all equal (exactly: a spread of one
    unit in the last place is a spread), True where none is used."""
    low = np.where(used, v, np.inf).min(axis=-1)
    high = np.where(used, v, -np.inf).max(axis=-1)
    return ~(high > low)


def deviations(v: np.ndarray, mean: np.ndarray, used: np.ndarray) -> np.ndarray:
    """Deviations of ``v`` from ``mean`` where ``used``, 0 elsewhere."""
    return np.where(used, v - mean, 0.0)


def pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r along the last axis over the pairs both sides scored; NaN where a side is
    constant (all its values equal)."""
    x, y, ok = paired(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    n = ok.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.nansum(x, axis=-1, keepdims=True) / n[..., None]
        my = np.nansum(y, axis=-1, keepdims=True) / n[..., None]
        dx, dy = deviations(x, mx, ok), deviations(y, my, ok)
        r = (dx * dy).sum(-1) / np.sqrt((dx * dx).sum(-1) * (dy * dy).sum(-1))
    flat = constant(x, ok) | constant(y, ok)
    return np.where((n < MIN_POINTS) | flat, np.nan, np.clip(r, -1.0, 1.0))


def ranks(x: np.ndarray) -> np.ndarray:
    """Average ranks along the last axis; NaN stays NaN."""
    return rankdata(x, axis=-1, nan_policy="omit") if np.isnan(x).any() else rankdata(x, axis=-1)


def spearman(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman rho: Pearson r of the average ranks of the scored pairs."""
    x, y, _ = paired(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    return pearson(ranks(x), ranks(y))


def _distinct(v: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Number of distinct scored values along the last axis."""
    s = np.sort(np.where(ok, v, np.inf), axis=-1)
    new = np.diff(s, axis=-1) != 0
    valid = np.isfinite(s[..., 1:])
    return (ok.any(axis=-1)).astype(int) + (new & valid).sum(-1)


def kendall(x: np.ndarray, y: np.ndarray, variant: str = "b") -> np.ndarray:
    """Kendall tau (``variant`` "b" or "c", as scipy's ``kendalltau``) along the last axis."""
    if variant not in ("b", "c"):
        raise ValueError(f"unknown Kendall variant {variant!r}; choose b or c")
    x, y, ok = paired(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    k = x.shape[-1]
    if k > _PAIR_SIGN_POINTS:
        return _kendall_by_row(x, y, ok, variant)
    i, j = np.triu_indices(k, k=1)
    sx = np.nan_to_num(np.sign(x[..., i] - x[..., j]))
    sy = np.nan_to_num(np.sign(y[..., i] - y[..., j]))
    n = ok.sum(-1)
    s = (sx * sy).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "b":
            tau = s / np.sqrt((sx * sx).sum(-1) * (sy * sy).sum(-1))
        else:
            m = np.minimum(_distinct(x, ok), _distinct(y, ok))
            tau = 2.0 * s / (n.astype(float) ** 2 * (m - 1) / m)
    constant = (np.abs(sx).sum(-1) == 0) | (np.abs(sy).sum(-1) == 0)
    return np.where((n < MIN_POINTS) | constant, np.nan, np.clip(tau, -1.0, 1.0))


def _kendall_by_row(x: np.ndarray, y: np.ndarray, ok: np.ndarray, variant: str) -> np.ndarray:
    flat_x, flat_y = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1])
    flat_ok = ok.reshape(-1, ok.shape[-1])
    out = np.full(flat_x.shape[0], np.nan)
    for r in range(flat_x.shape[0]):
        a, b = flat_x[r, flat_ok[r]], flat_y[r, flat_ok[r]]
        if a.size >= MIN_POINTS and np.ptp(a) > 0 and np.ptp(b) > 0:
            out[r] = kendalltau(a, b, variant="b" if variant == "b" else "c").statistic
    return out.reshape(x.shape[:-1])


def coefficient(x: np.ndarray, y: np.ndarray, name: str) -> np.ndarray:
    """The coefficient ``name`` (one of :data:`COEFFICIENTS`; ``kendall`` is tau-b)."""
    if name == "pearson":
        return pearson(x, y)
    if name == "spearman":
        return spearman(x, y)
    if name in ("kendall", "kendall-b"):
        return kendall(x, y, "b")
    if name == "kendall-c":
        return kendall(x, y, "c")
    raise ValueError(f"unknown correlation {name!r}; choose from {', '.join(COEFFICIENTS)}")
