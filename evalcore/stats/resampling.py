"""Confidence intervals by resampling systems, inputs or both (Deutsch, Dror and Roth 2021:
BOOT-SYSTEMS, BOOT-INPUTS, BOOT-BOTH), percentile or BCa, seeded.

Every resample is an index draw: ``systems`` draws N rows with replacement and keeps every input,
``inputs`` draws M columns and keeps every system, ``both`` draws rows and columns independently
(rows first) and uses the sub-matrix; metric and human matrices share the draw. The ``inputs``
draw equals :func:`evalcore.stats.correlation.resample_documents` for the same seed. Resamples
are computed in chunks of stacked sub-matrices, so a whole bootstrap is a few numpy calls; at item
level Pearson, Spearman, Kendall tau-b and acc-eq take draw counts instead
(:mod:`evalcore.stats.weighted`), which skips the sub-matrices.

Memory: the index draws take 8 x resamples x (systems + inputs) bytes; each chunk holds about
:data:`CHUNK` cells or compared pairs, and the statistic builds up to about ten temporaries of
that size (float64: 16 MiB each), so the peak stays near 0.2 GiB whatever the number of resamples.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np

from evalcore.stats import levels
from evalcore.stats.correlation import bca_bounds, percentile_bounds
from evalcore.stats.names import CI_METHODS, DESIGNS, MAX_RESAMPLES
from evalcore.stats.weighted import WEIGHTED, draw_counts, item_values

#: cells (or compared pairs) per chunk of resamples
CHUNK = 1 << 21
#: bytes the index draws (or permutation masks) of one run may take: larger counts are refused
#: before any work (:func:`check_resamples`) instead of failing with a MemoryError midway
DRAW_BYTES = 2 << 30


def draw_bytes(n_systems: int, n_inputs: int, test: str = "") -> int:
    """Bytes one resample's draws take (8 per drawn row and column), or one permutation's swap
    mask under ``test`` (``perm-both``: a byte per cell), whichever is more."""
    mask = {"perm-both": n_systems * n_inputs, "perm-systems": n_systems, "perm-inputs": n_inputs}.get(test, 0)
    return max(8 * (n_systems + n_inputs), mask, 1)


def check_resamples(n_resamples: int, n_systems: int, n_inputs: int, test: str = "") -> None:
    """ValueError, before any work, when ``n_resamples`` is below 1 or its draws would take more
    than :data:`DRAW_BYTES`; the message states the largest count these data allow."""
    if n_resamples < 1:
        raise ValueError(f"the number of resamples must be at least 1, got {n_resamples}")
    largest = min(MAX_RESAMPLES, DRAW_BYTES // draw_bytes(n_systems, n_inputs, test))
    if n_resamples > largest:
        raise ValueError(f"{n_resamples} resamples of {n_systems} systems x {n_inputs} inputs are too many: at most "
                         f"{largest} (the draws may take {DRAW_BYTES >> 30} GiB; the cap is {MAX_RESAMPLES})")


@dataclass(frozen=True)
class Draws:
    """Row indices (resamples x N') and column indices (resamples x M'); None keeps every row
    or column in order."""

    rows: np.ndarray | None
    cols: np.ndarray | None

    def __len__(self) -> int:
        return len(self.rows if self.rows is not None else self.cols)  # type: ignore[arg-type]

    def origin(self, n: int, m: int, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """The original rows and columns of resamples ``start`` to ``stop``."""
        rows = self.rows[start:stop] if self.rows is not None else np.broadcast_to(np.arange(n), (stop - start, n))
        cols = self.cols[start:stop] if self.cols is not None else np.broadcast_to(np.arange(m), (stop - start, m))
        return rows, cols

    def take(self, x: np.ndarray, start: int, stop: int) -> np.ndarray:
        """The stacked sub-matrices of resamples ``start`` to ``stop``."""
        rows, cols = self.origin(x.shape[0], x.shape[1], start, stop)
        return x[rows[:, :, None], cols[:, None, :]]


def draw(design: str, n_systems: int, n_inputs: int, n_resamples: int, seed: int) -> Draws:
    """Seeded index draws of ``design`` (``inputs``, ``systems`` or ``both``)."""
    if design not in DESIGNS:
        raise ValueError(f"unknown resampling design {design!r}; choose from {', '.join(DESIGNS)}")
    check_resamples(n_resamples, n_systems, n_inputs)
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n_systems, size=(n_resamples, n_systems)) if design != "inputs" else None
    cols = rng.integers(0, n_inputs, size=(n_resamples, n_inputs)) if design != "systems" else None
    return Draws(rows, cols)


def leave_one_out(design: str, n_systems: int, n_inputs: int) -> list[Draws]:
    """The jackknife of a design (BCa's acceleration): every input left out once (``inputs``),
    every system (``systems``), or both sets of leave-one-out draws (``both``)."""
    def without(n: int) -> np.ndarray:
        full = np.broadcast_to(np.arange(n), (n, n))
        return full[~np.eye(n, dtype=bool)].reshape(n, n - 1)

    out = []
    if design in ("systems", "both") and n_systems > 1:
        out.append(Draws(without(n_systems), None))
    if design in ("inputs", "both") and n_inputs > 1:
        out.append(Draws(None, without(n_inputs)))
    return out


def chunks(draws: Draws, n_systems: int, n_inputs: int, level: str, statistic: str) -> Iterator[tuple[int, int]]:
    """(start, stop) of resample chunks of about :data:`CHUNK` cells or pairs each."""
    cost = levels.pairs_per_resample(n_systems, n_inputs, level, statistic)
    step = max(1, CHUNK // max(1, cost))
    for start in range(0, len(draws), step):
        yield start, min(start + step, len(draws))


def resampled(x: np.ndarray, z: np.ndarray, level: str, statistic: str, draws: Draws,
              epsilon: float | None = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(statistic, epsilon) on every resample of ``draws``; NaN where a resample has no value."""
    n, m = x.shape
    vals, eps = [], []
    for start, stop in chunks(draws, n, m, level, statistic):
        if level == "item" and statistic in WEIGHTED:
            rows, cols = draws.origin(n, m, start, stop)
            v, e = item_values(x, z, statistic, draw_counts(rows, n, stop - start),
                               draw_counts(cols, m, stop - start), epsilon)
            vals.append(v)
            eps.append(e)
            continue
        v, e = levels.values(draws.take(x, start, stop), draws.take(z, start, stop), level, statistic, epsilon,
                             draws.origin(n, m, start, stop))
        vals.append(v)
        eps.append(e)
    return np.concatenate(vals), np.concatenate(eps)


@dataclass(frozen=True)
class Estimate:
    """One statistic with its interval. ``value`` None means undefined (``undefined`` says
    why); ``ci_low``/``ci_high`` None means no interval (``flags`` says why); ``epsilon`` is
    acc-eq's tie threshold (calibrated or given), None for the other statistics."""

    statistic: str
    level: str
    value: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    epsilon: float | None = None
    design: str | None = None
    method: str | None = None
    n_resamples: int = 0
    n_defined: int = 0
    seed: int | None = None
    undefined: str | None = None
    flags: tuple[str, ...] = field(default_factory=tuple)
    #: (how many, of how many, what) the value is computed on (:func:`evalcore.stats.levels.used`)
    used: tuple[int, int, str] | None = None

    def as_dict(self) -> dict:
        used = None if self.used is None else dict(zip(("n", "of", "what"), self.used))
        return {"statistic": self.statistic, "level": self.level, "value": self.value, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "epsilon": self.epsilon, "resample": self.design, "ci": self.method,
                "n_resamples": self.n_resamples, "n_defined_resamples": self.n_defined, "seed": self.seed,
                "used": used, "undefined": self.undefined, "flags": list(self.flags)}


def _matrix(x, name: str) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"{name} must be a (systems x inputs) matrix, got shape {x.shape}")
    if np.isinf(x).any():
        raise ValueError(f"{name} holds an infinite score; a missing cell is NaN")
    return x


def estimate(x, z, level: str, statistic: str, *, tie_calibration: bool = False, epsilon: float = 0.0,
             design: str | None = "both", n_resamples: int = 1000, seed: int = 0, ci: str = "percentile",
             alpha: float = 0.05) -> Estimate:
    """The statistic of metric ``x`` against human ``z`` (both systems x inputs) at ``level``,
    with a ``ci`` interval (level 1 - alpha) from ``n_resamples`` resamples of ``design`` (None:
    no interval). acc-eq uses ``epsilon``, or with ``tie_calibration`` the epsilon that maximises
    it, recalibrated on every resample (the calibrated value is optimistic for its data)."""
    statistic = levels.check(level, statistic)
    if ci not in CI_METHODS:
        raise ValueError(f"unknown interval {ci!r}; choose from {', '.join(CI_METHODS)}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    x, z = _matrix(x, "metric scores"), _matrix(z, "human scores")
    if x.shape != z.shape:
        raise ValueError(f"metric scores {x.shape} and human scores {z.shape} differ in shape")
    eps_in = None if (tie_calibration and statistic == "acc-eq") else epsilon
    v, e = levels.values(x, z, level, statistic, eps_in)
    value = float(v)
    n_used, n_all, what = levels.used(x, z, level, statistic)
    base = Estimate(statistic, level, None, epsilon=float(e) if statistic == "acc-eq" and not np.isnan(e) else None,
                    used=(n_used, n_all, what))
    if math.isnan(value):
        return replace(base, undefined=levels.undefined_reason(x, z, level, statistic))
    if n_used < n_all:
        left_out = {"inputs": "all tied or too few systems scored on both sides",
                    "systems": "no score on one side", "cells": "a side missing"}[what]
        base = replace(base, flags=(f"{what}-used: the value comes from {n_used} of {n_all} {what} (the others: "
                                    f"{left_out})",))
    if design is None:
        return replace(base, value=value)
    draws = draw(design, x.shape[0], x.shape[1], n_resamples, seed)
    boot = resampled(x, z, level, statistic, draws, eps_in)[0]
    boot = boot[~np.isnan(boot)]
    base = replace(base, value=value, design=design, method=ci, n_resamples=n_resamples, n_defined=int(boot.size),
                   seed=seed)
    if not boot.size:
        return replace(base, flags=(*base.flags, "no-interval: no resample has a defined value"))
    flags: tuple[str, ...] = base.flags
    if boot.size < n_resamples:
        flags = (*flags, f"undefined-resamples: {n_resamples - boot.size} of {n_resamples} resamples have no value and "
                 "are left out of the interval",)
    if ci == "percentile":
        low, high = percentile_bounds(boot, alpha)
    else:
        jack = np.concatenate([resampled(x, z, level, statistic, d, eps_in)[0]
                               for d in leave_one_out(design, x.shape[0], x.shape[1])] or [np.zeros(0)])
        (low, high), extra = bca_bounds(value, boot, jack[~np.isnan(jack)], alpha)
        flags = (*flags, *extra)
    if not low <= value <= high:
        flags = (*flags, f"outside-interval: the value {value:.4f} lies outside its {ci} interval")
    return replace(base, ci_low=float(low), ci_high=float(high), flags=flags)
