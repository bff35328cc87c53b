"""A meta-evaluation statistic at a level, on stacked (systems x inputs) matrices.

Scores are N systems (rows) x M inputs (columns), NaN where a cell is missing (no output or no
judgment), with any leading axes (resamples) in front. Levels (Deutsch, Dror and Roth 2021):
``system`` correlates the row means (each over the inputs that system has); ``item`` correlates
each input's column across the systems scored on both sides and averages over the inputs where
it is defined; ``global`` correlates all scored cells at once. Statistics: the coefficients of
:mod:`evalcore.stats.coefficients`, ``acc-eq`` (pairs within each input at ``item``, of system
means at ``system``, of all cells at ``global``; see :mod:`evalcore.stats.pairwise`) and ``spa``
(soft pairwise accuracy, system level only). An undefined value is NaN here; :func:`undefined_reason`
says why in words.
"""

from __future__ import annotations

import warnings

import numpy as np

from evalcore.stats.coefficients import MIN_POINTS, coefficient
from evalcore.stats.names import LEVELS, STATISTICS
from evalcore.stats.pairwise import acc_eq, soft_pairwise_accuracy

#: soft pairwise accuracy's permutations of inputs per system pair (as in WMT24)
SPA_PERMUTATIONS = 1000


def check(level: str, statistic: str) -> str:
    """The statistic's canonical name (``kendall`` is ``kendall-b``); a ValueError for an unknown
    level or statistic, or soft pairwise accuracy away from the system level."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    statistic = "kendall-b" if statistic == "kendall" else statistic
    if statistic not in STATISTICS:
        raise ValueError(f"unknown statistic {statistic!r}; choose from {', '.join(STATISTICS)}")
    if statistic == "spa" and level != "system":
        raise ValueError("soft pairwise accuracy (spa) compares systems: use --level system")
    return statistic


def _row_means(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a system without a score has no mean
        return np.nanmean(x, axis=-1)


def values(x: np.ndarray, z: np.ndarray, level: str, statistic: str, epsilon: float | None = 0.0,
           origin: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(statistic, epsilon) for every leading index of ``x`` and ``z`` (shape (..., N, M));
    ``epsilon`` is acc-eq's tie threshold, None to calibrate it (NaN epsilon for other statistics).
    ``origin``: the original row and column of each row (..., N) and column (..., M) of a
    resample; acc-eq and spa leave out pairs of two copies of one system (one cell at ``global``)."""
    statistic = check(level, statistic)
    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    if x.shape != z.shape or x.ndim < 2:
        raise ValueError(f"metric scores {x.shape} and human scores {z.shape} must be equal (systems x inputs) "
                         "matrices")
    lead = x.shape[:-2]
    if statistic == "spa":
        flat_x, flat_z = x.reshape(-1, *x.shape[-2:]), z.reshape(-1, *z.shape[-2:])
        ids = (np.broadcast_to(origin[0], (*lead, x.shape[-2])).reshape(-1, x.shape[-2]) if origin is not None
               else [None] * len(flat_x))
        out = np.array([soft_pairwise_accuracy(a, b, SPA_PERMUTATIONS, ids=r).value
                        for a, b, r in zip(flat_x, flat_z, ids)])
        return out.reshape(lead), np.full(lead, np.nan)
    if level == "system":
        gx, gz = _row_means(x)[..., None, :], _row_means(z)[..., None, :]
    elif level == "item":
        gx, gz = np.swapaxes(x, -1, -2), np.swapaxes(z, -1, -2)
    else:
        gx, gz = x.reshape(*lead, 1, -1), z.reshape(*lead, 1, -1)
    if statistic == "acc-eq":
        return acc_eq(gx, gz, epsilon, _pair_ids(origin, level, lead))
    per_group = coefficient(gx, gz, statistic)                 # (..., groups)
    defined = ~np.isnan(per_group)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(defined, per_group, 0.0).sum(-1) / defined.sum(-1)
    return np.where(defined.any(-1), mean, np.nan), np.full(lead, np.nan)


def _pair_ids(origin: tuple[np.ndarray, np.ndarray] | None, level: str, lead: tuple) -> np.ndarray | None:
    """Where each compared item of a resample came from (None: no resample, no copies)."""
    if origin is None:
        return None
    rows, cols = origin
    if level != "global":
        return rows[..., None, :]
    return (rows[..., :, None] * (int(cols.max(initial=0)) + 1) + cols[..., None, :]).reshape(*lead, 1, -1)


def pairs_per_resample(n_systems: int, n_inputs: int, level: str, statistic: str) -> int:
    """A size of the work one value costs (cells plus compared pairs), to chunk resamples by."""
    cells = n_systems * n_inputs
    if statistic in ("kendall-b", "kendall-c", "acc-eq"):
        points = {"system": n_systems, "item": n_systems, "global": cells}[level]
        groups = n_inputs if level == "item" else 1
        if statistic == "acc-eq" or points <= 64:
            return cells + groups * points * (points - 1) // 2
    return cells


def used(x: np.ndarray, z: np.ndarray, level: str, statistic: str) -> tuple[int, int, str]:
    """(how many, of how many, what) of one (N x M) pair of matrices the value is computed on:
    at ``item`` level the inputs whose own statistic is defined (an input whose scored systems are
    all tied, or fewer than the statistic needs, is left out of the average), at ``system`` level
    the systems with a mean on both sides, at ``global`` level the cells scored on both sides."""
    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    ok = ~(np.isnan(x) | np.isnan(z))
    if level == "item" and statistic != "spa":
        gx, gz = np.swapaxes(x, -1, -2), np.swapaxes(z, -1, -2)
        if statistic == "acc-eq":
            defined = ok.sum(axis=0) >= 2                     # an input with a pair scored on both sides
        else:
            defined = ~np.isnan(coefficient(gx, gz, statistic))
        return int(defined.sum()), x.shape[1], "inputs"
    if level == "system" or statistic == "spa":
        both = ~np.isnan(_row_means(x)) & ~np.isnan(_row_means(z))
        return int(both.sum()), x.shape[0], "systems"
    return int(ok.sum()), x.size, "cells"


def undefined_reason(x: np.ndarray, z: np.ndarray, level: str, statistic: str) -> str:
    """Why the statistic of one (N x M) pair of matrices has no value."""
    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    if np.isnan(x).all():
        return "undefined: the metric has no score in any judged cell (every one is blank or an error)"
    ok = ~(np.isnan(x) | np.isnan(z))
    need = 2 if statistic in ("acc-eq", "spa") else MIN_POINTS
    if level == "system" or statistic == "spa":
        n = int((~np.isnan(_row_means(x)) & ~np.isnan(_row_means(z))).sum())
        if statistic == "spa" and n >= 2 and not ok.all(axis=0).any():
            return "undefined: no input has both scores for every system"
        if n < need:
            return f"undefined: {n} system{'s' * (n != 1)} with scores (needs at least {need})"
    elif level == "item":
        best = int(ok.sum(axis=0).max(initial=0))
        if best < need:
            return f"undefined: no input has {need} systems scored on both sides (at most {best})"
    elif int(ok.sum()) < need:
        return f"undefined: {int(ok.sum())} scored cells (needs at least {need})"
    if statistic == "acc-eq":
        return "undefined: no pair scored on both sides"
    where = {"system": "system means", "item": "every input", "global": "all cells"}[level]
    return f"undefined: constant scores on one side ({where})"
