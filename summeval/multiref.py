"""Combining one candidate's scores against several references: max, mean, or TAC jackknife."""

from __future__ import annotations

import numpy as np

MULTI_REF_MODES = ("max", "mean", "jackknife")


def combine(values: np.ndarray, mode: str) -> int | float:
    """Per-reference headline values -> one value.

    ``jackknife``: mean over leave-one-reference-out subsets of the subset maximum (TAC's way of
    making peers, scored against all M models, comparable to models scored against M - 1).
    """
    if mode == "max":
        return float(values.max())
    if mode == "mean":
        return float(values.mean())
    if mode == "jackknife":
        if len(values) == 1:
            return float(values[0])
        order = np.sort(values)
        best, second = order[-1], order[-2]
        # Leaving out the best reference gives the second best; any other leaves the best.
        return float(((len(values) - 1) * best + second) / len(values))
    raise ValueError(f"unknown multi-reference mode {mode!r}; choose from {MULTI_REF_MODES}")
