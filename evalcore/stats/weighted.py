"""Item-level statistics of many resamples at once, with a resample given as draw counts instead
of a stacked sub-matrix: ``c`` (resamples x N) counts how often each system was drawn, ``r``
(resamples x M) how often each input. An input's statistic depends only on the system counts, so
each is computed once per resample for every original input and averaged with weights ``r``;
Pearson from weighted sums, Spearman from weighted average ranks, Kendall tau-b from pair-sign
sums weighted by c_i c_k, acc-eq from the pairs of distinct systems weighted by c_i c_k (two
copies of one system are no pair, as in :mod:`evalcore.stats.pairwise`), with tie calibration by
cumulative sums over the pairs sorted once by their metric difference. The values equal those of the
stacked sub-matrices (:func:`evalcore.stats.levels.values`) up to float summation order; the
tests compare both ways to 1e-12.
"""

from __future__ import annotations

import numpy as np

from evalcore.stats.coefficients import MIN_POINTS, constant, deviations

#: item-level statistics computed here
WEIGHTED = ("pearson", "spearman", "kendall-b", "acc-eq")
_EQUAL = 1e-12


def draw_counts(index: np.ndarray | None, n: int, n_resamples: int) -> np.ndarray:
    """(resamples x n) draw counts of index draws; all ones when nothing was drawn."""
    if index is None:
        return np.ones((n_resamples, n))
    out = np.zeros((index.shape[0], n))
    np.add.at(out, (np.repeat(np.arange(index.shape[0]), index.shape[1]), index.ravel()), 1.0)
    return out


def _weighted_pearson(x: np.ndarray, y: np.ndarray, ok: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Per resample and input (B x M): Pearson r of the systems' (x, y) (x, y: N x M, or
    B x N x M) weighted by the system counts c (B x N); NaN where a side's drawn values are all
    equal (:func:`evalcore.stats.coefficients.constant`)."""
    w = c[:, :, None] * ok                                   # (B, N, M)
    n = w.sum(1)

    def systems_last(a: np.ndarray) -> np.ndarray:           # (B, M, N)
        return np.moveaxis(np.broadcast_to(a, w.shape), 1, -1)

    drawn = systems_last(w > 0)
    weight = systems_last(w)
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = deviations(systems_last(x), ((w * x).sum(1) / n)[..., None], drawn)
        dy = deviations(systems_last(y), ((w * y).sum(1) / n)[..., None], drawn)
        r = (weight * dx * dy).sum(-1) / np.sqrt((weight * dx * dx).sum(-1) * (weight * dy * dy).sum(-1))
    flat = constant(systems_last(x), drawn) | constant(systems_last(y), drawn)
    return np.where((n < MIN_POINTS) | flat, np.nan, np.clip(r, -1.0, 1.0))


def _weighted_ranks(v: np.ndarray, ok: np.ndarray, c: np.ndarray) -> np.ndarray:
    """(B x N x M) average rank of each system within each input among the drawn copies."""
    less = (v[None, :, :] < v[:, None, :]) & ok[None, :, :]   # [i, k, j]: system k below system i
    equal = (v[None, :, :] == v[:, None, :]) & ok[None, :, :]
    below = np.einsum("bk,ikj->bij", c, less.astype(float))
    tied = np.einsum("bk,ikj->bij", c, equal.astype(float))
    return below + (tied + 1.0) / 2.0


def _kendall_b(x: np.ndarray, z: np.ndarray, ok: np.ndarray, c: np.ndarray) -> np.ndarray:
    n_sys = x.shape[0]
    i, k = np.triu_indices(n_sys, k=1)
    both = ok[i] & ok[k]                                      # (P, M)
    sx = np.where(both, np.sign(x[i] - x[k]), 0.0)
    sy = np.where(both, np.sign(z[i] - z[k]), 0.0)
    w = c[:, i] * c[:, k]                                     # (B, P)
    s, vx, vy = w @ (sx * sy), w @ (sx * sx), w @ (sy * sy)
    n = c @ ok.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = s / np.sqrt(vx * vy)
    return np.where((n < MIN_POINTS) | (vx == 0) | (vy == 0), np.nan, np.clip(tau, -1.0, 1.0))


def _acc_eq(x: np.ndarray, z: np.ndarray, ok: np.ndarray, c: np.ndarray, r: np.ndarray,
            epsilon: float | None) -> tuple[np.ndarray, np.ndarray]:
    n_sys, n_in = x.shape
    i, k = np.triu_indices(n_sys, k=1)
    valid = ok[i] & ok[k]                                     # (P, M)
    m, h = np.where(valid, x[i] - x[k], 0.0), np.where(valid, z[i] - z[k], 0.0)
    tie = valid & (h == 0)
    agree = valid & (h != 0) & (np.sign(m) == np.sign(h))
    w = c[:, i] * c[:, k]                                     # (B, P)
    n_pairs = w @ valid.astype(float)                         # (B, M)
    has = n_pairs > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where(has, r / np.where(has, n_pairs, 1.0), 0.0)  # weight of one pair of an input
    n_groups = (r * has).sum(1)
    m_abs = np.abs(m)
    if epsilon is not None:
        correct = (tie & (m_abs <= epsilon)) | (agree & (m_abs > epsilon))
        with np.errstate(invalid="ignore", divide="ignore"):
            acc = ((w @ correct.astype(float)) * g).sum(1) / n_groups
        return np.where(n_groups > 0, acc, np.nan), np.full(len(c), float(epsilon))
    flat = np.flatnonzero(valid.T.ravel())                   # (input, pair) entries, input-major
    d = m_abs.T.ravel()[flat]
    order = np.argsort(d, kind="stable")
    flat, d = flat[order], d[order]
    col, pair = np.divmod(flat, len(i))
    t, a = tie.T.ravel()[flat], agree.T.ravel()[flat]
    last = np.r_[d[1:] != d[:-1], True]
    e = g[:, col] * w[:, pair]                                # (B, entries): each pair's weight
    cum_t, cum_a = np.cumsum(e * t, axis=1), np.cumsum(e * a, axis=1)
    total_a = cum_a[:, -1:] if cum_a.shape[1] else np.zeros((len(c), 1))
    zero = (e * (t & (d == 0))).sum(1, keepdims=True) + total_a
    acc = np.concatenate([zero, np.where(last, cum_t + total_a - cum_a, -np.inf)], axis=1)
    eps = np.r_[0.0, d]
    pick = np.argmax(acc >= acc.max(1, keepdims=True) - _EQUAL, axis=1)  # first = smallest epsilon
    with np.errstate(invalid="ignore", divide="ignore"):
        values = acc[np.arange(len(c)), pick] / n_groups
    chosen = eps[pick]
    undefined = n_groups == 0
    return np.where(undefined, np.nan, values), np.where(undefined, np.nan, chosen)


def item_values(x: np.ndarray, z: np.ndarray, statistic: str, c: np.ndarray, r: np.ndarray,
                epsilon: float | None = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(statistic, epsilon) at item level for resamples given as system counts ``c`` and input
    counts ``r``; NaN where a resample has no defined input."""
    ok = ~(np.isnan(x) | np.isnan(z))
    x0, z0 = np.where(ok, x, 0.0), np.where(ok, z, 0.0)
    if statistic == "acc-eq":
        return _acc_eq(x0, z0, ok, c, r, epsilon)
    if statistic == "pearson":
        per_input = _weighted_pearson(x0, z0, ok, c)
    elif statistic == "spearman":
        per_input = _weighted_pearson(_weighted_ranks(x0, ok, c), _weighted_ranks(z0, ok, c), ok, c)
    elif statistic == "kendall-b":
        per_input = _kendall_b(x0, z0, ok, c)
    else:
        raise ValueError(f"no weighted item-level {statistic!r}; use evalcore.stats.levels.values")
    defined = ~np.isnan(per_input)
    weight = np.where(defined, r, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (weight * np.where(defined, per_input, 0.0)).sum(1) / weight.sum(1)
    return np.where(weight.sum(1) > 0, mean, np.nan), np.full(len(c), np.nan)
