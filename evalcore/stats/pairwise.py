"""Pairwise accuracy: how often a metric orders a pair of outputs as the humans do.

- :func:`acc_eq`: acc-eq of Deutsch, Foster and Freitag ("Ties Matter", EMNLP 2023) within groups
  (the systems of one input, or the system means), averaged over groups; a metric difference of at
  most ``epsilon`` is a tie, and a pair is right when both sides tie or both order it the same way.
  With tie calibration it returns the epsilon (shared by every group) that maximises acc-eq:
  the candidates are 0 and every distinct metric difference, and a tie between candidates goes to
  the smallest epsilon. Vectorised over any leading axes (resamples).
- :func:`global_accuracy`: Kocmi et al. (2021) accuracy pooled over several sets.
- :func:`soft_pairwise_accuracy`: Thompson et al. (WMT24): one minus the mean absolute difference
  of the pairwise permutation p-values that humans and metric give each system pair.

Written here because no PyPI package computes tie-calibrated acc-eq (mt-metrics-eval is not on
PyPI and downloads its data at run time); the tests check it on mt-metrics-eval's published cases.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Accuracies within this distance of the best count as equal when tie calibration picks epsilon.
_EQUAL = 1e-12


def pair_differences(x: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Metric and human differences of every unordered pair along the last axis (NaN where a
    side is missing): two arrays of shape (..., K(K-1)/2)."""
    k = x.shape[-1]
    i, j = np.triu_indices(k, k=1)
    return x[..., i] - x[..., j], z[..., i] - z[..., j]


def acc_eq(x: np.ndarray, z: np.ndarray, epsilon: float | None = 0.0,
           ids: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """acc-eq over groups of items: ``x``, ``z`` have shape (..., groups, items); pairs are taken
    within a group, each group with a pair weighs the same. ``epsilon``: the metric tie threshold,
    or None for tie calibration. ``ids`` (broadcastable to ``x``): where an item came from; a pair
    of two copies of one item (a bootstrap drew it twice) is no comparison and is left out.
    Returns (accuracy, epsilon) with the leading shape; NaN where no group has a scored pair."""
    m, h = pair_differences(np.asarray(x, dtype=float), np.asarray(z, dtype=float))
    valid = ~(np.isnan(m) | np.isnan(h))
    if ids is not None:
        i, j = np.triu_indices(x.shape[-1], k=1)
        valid &= np.broadcast_to(ids, x.shape)[..., i] != np.broadcast_to(ids, x.shape)[..., j]
    n_pairs = valid.sum(-1)                                   # (..., groups)
    has = n_pairs > 0
    n_groups = has.sum(-1)                                    # (...)
    with np.errstate(invalid="ignore", divide="ignore"):
        weight = np.where(valid, 1.0 / np.where(has, n_pairs, 1)[..., None], 0.0)
    m_abs = np.where(valid, np.abs(m), np.inf)
    human_tie = valid & (h == 0)
    agree = valid & (h != 0) & (np.sign(m) == np.sign(h))
    if epsilon is not None:
        if epsilon < 0:
            raise ValueError(f"epsilon must be at least 0, got {epsilon}")
        correct = (human_tie & (m_abs <= epsilon)) | (agree & (m_abs > epsilon))
        with np.errstate(invalid="ignore", divide="ignore"):
            acc = (weight * correct).sum((-2, -1)) / n_groups
        return np.where(n_groups > 0, acc, np.nan), np.full(acc.shape, float(epsilon))
    return _calibrated(m_abs, weight, human_tie, agree, n_groups)


def _calibrated(m_abs: np.ndarray, weight: np.ndarray, human_tie: np.ndarray, agree: np.ndarray,
                n_groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """acc-eq at the best epsilon: with the pairs sorted by |metric difference|, acc(e) is the
    weight of human-tied pairs with |m| <= e plus the weight of agreeing pairs with |m| > e."""
    lead = m_abs.shape[:-2]
    flat = m_abs.reshape(*lead, -1)
    order = np.argsort(flat, axis=-1, kind="stable")
    d = np.take_along_axis(flat, order, -1)
    w_tie = np.take_along_axis((weight * human_tie).reshape(*lead, -1), order, -1)
    w_agree = np.take_along_axis((weight * agree).reshape(*lead, -1), order, -1)
    total_agree = w_agree.sum(-1, keepdims=True)
    acc = np.cumsum(w_tie, -1) + total_agree - np.cumsum(w_agree, -1)
    # a candidate is the last pair of a run of equal |m| (and a scored pair)
    last = np.isfinite(d) & np.concatenate([d[..., 1:] != d[..., :-1], np.ones((*lead, 1), bool)], -1)
    zero = np.where(d == 0, w_tie, 0.0).sum(-1, keepdims=True) + total_agree  # candidate epsilon 0
    candidates = np.concatenate([zero, np.where(last, acc, -np.inf)], -1)
    eps = np.concatenate([np.zeros((*lead, 1)), np.where(last, d, np.inf)], -1)
    best = candidates.max(-1, keepdims=True)
    pick = np.argmax(candidates >= best - _EQUAL, axis=-1)[..., None]  # first = smallest epsilon
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.take_along_axis(candidates, pick, -1)[..., 0] / n_groups
    chosen = np.take_along_axis(eps, pick, -1)[..., 0]
    undefined = n_groups == 0
    return np.where(undefined, np.nan, value), np.where(undefined, np.nan, chosen)


def calibration_curve(x: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate epsilon (0 and each distinct metric difference, ascending) and acc-eq at
    it, for one (groups x items) pair of matrices: what tie calibration maximises."""
    m, h = pair_differences(np.asarray(x, dtype=float), np.asarray(z, dtype=float))
    valid = ~(np.isnan(m) | np.isnan(h))
    eps = np.unique(np.r_[0.0, np.abs(m[valid])])
    acc = np.array([float(acc_eq(x, z, float(e))[0]) for e in eps])
    return eps, acc


@dataclass(frozen=True)
class GlobalAccuracy:
    """Share of system pairs (pooled over sets) the metric orders as the humans do; ``n_pairs``
    counts the pairs with a human verdict, ``n_human_ties`` the pairs humans scored equal (left out)."""

    value: float
    n_pairs: int
    n_human_ties: int


def global_accuracy(sets: Sequence[tuple[np.ndarray, np.ndarray]]) -> GlobalAccuracy:
    """Kocmi et al.'s accuracy over several (metric, human) system-by-input matrices: system
    means per set, every pair of systems of a set, a metric tie counted wrong; NaN without a pair."""
    right = pairs = ties = 0
    for x, z in sets:
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a system without any score has a NaN mean
            mx, mz = np.nanmean(np.asarray(x, float), axis=1), np.nanmean(np.asarray(z, float), axis=1)
        m, h = pair_differences(mx, mz)
        ok = ~(np.isnan(m) | np.isnan(h))
        ties += int((ok & (h == 0)).sum())
        verdict = ok & (h != 0)
        pairs += int(verdict.sum())
        right += int((verdict & (np.sign(m) == np.sign(h))).sum())
    return GlobalAccuracy(right / pairs if pairs else float("nan"), pairs, ties)


def permutation_signs(n_permutations: int, n_inputs: int, seed: int) -> np.ndarray:
    """(permutations x inputs) of +1/-1: +1 keeps a pair's scores of an input, -1 swaps them.
    Drawn as mt-metrics-eval's soft pairwise accuracy draws them (uniform floats from
    ``default_rng(seed)`` rounded to 0 or 1), so the same seed gives the same permutations."""
    u = np.random.default_rng(seed).random(size=(n_permutations, n_inputs), dtype=np.float32)
    return np.rint(u).astype(float) * 2.0 - 1.0


def pairwise_p_values(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """(systems x systems) one-sided p-values that system i is better than k (upper triangle; NaN
    elsewhere) by a paired permutation test over inputs: the share of sign vectors under which the
    permuted difference of summed scores is at least the observed one."""
    scores = np.asarray(scores, dtype=float)
    partial = signs @ scores.T                                # (permutations, systems)
    total = scores.sum(axis=1)
    n = scores.shape[0]
    i, k = np.triu_indices(n, k=1)
    observed = total[i] - total[k]
    null = partial[:, i] - partial[:, k]
    out = np.full((n, n), np.nan)
    out[i, k] = (null >= observed - 1e-9 * np.maximum(1.0, np.abs(observed))).mean(axis=0)
    return out


@dataclass(frozen=True)
class SoftPairwiseAccuracy:
    """Soft pairwise accuracy over ``n_systems`` systems on the ``n_inputs`` inputs every system
    has both scores for (``n_dropped`` inputs lacked one and are left out); NaN with fewer than 2
    systems or no complete input."""

    value: float
    n_systems: int
    n_inputs: int
    n_dropped: int


def soft_pairwise_accuracy(x: np.ndarray, z: np.ndarray, n_permutations: int = 1000,
                           seed: int = 4, ids: np.ndarray | None = None) -> SoftPairwiseAccuracy:
    """1 - mean over system pairs of |p_human - p_metric|, both p-values from the same seeded
    permutations of inputs (mt-metrics-eval's default seed, 4, and 1,000 permutations). ``ids``:
    where each row came from; two copies of one system (a bootstrap drew it twice) are no pair."""
    x, z = np.asarray(x, dtype=float), np.asarray(z, dtype=float)
    complete = ~(np.isnan(x) | np.isnan(z)).any(axis=0)
    n_sys, n_in = x.shape[0], int(complete.sum())
    dropped = x.shape[1] - n_in
    if n_sys < 2 or n_in == 0:
        return SoftPairwiseAccuracy(float("nan"), n_sys, n_in, dropped)
    signs = permutation_signs(n_permutations, n_in, seed)
    p_metric = pairwise_p_values(x[:, complete], signs)
    p_human = pairwise_p_values(z[:, complete], signs)
    i, k = np.triu_indices(n_sys, k=1)
    if ids is not None:
        distinct = np.asarray(ids)[i] != np.asarray(ids)[k]
        i, k = i[distinct], k[distinct]
    if not len(i):
        return SoftPairwiseAccuracy(float("nan"), n_sys, n_in, dropped)
    return SoftPairwiseAccuracy(float(1.0 - np.abs(p_human[i, k] - p_metric[i, k]).mean()), n_sys, n_in, dropped)
