"""Helpers over flat arrays of runs, shared by the bag engines of :mod:`evalcore.text.ngrams` and
:mod:`evalcore.text.ngram_tables`: index ranges laid end to end, where runs of equal values start."""

from __future__ import annotations

import numpy as np


def ranges(starts: np.ndarray, counts: np.ndarray, reverse: np.ndarray | None = None) -> np.ndarray:
    """``starts[k] .. starts[k] + counts[k] - 1`` for every k, end to end (each range backwards
    where ``reverse[k]``)."""
    total = int(counts.sum())
    offsets = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    if reverse is not None and reverse.all():
        return np.repeat(starts + counts - 1, counts) - offsets
    if reverse is not None and reverse.any():
        offsets = np.where(np.repeat(reverse, counts), np.repeat(counts - 1, counts) - offsets, offsets)
    return np.repeat(starts, counts) + offsets


def run_starts(sorted_values: np.ndarray) -> np.ndarray:
    """Where each run of equal values starts in a sorted array (a boolean mask)."""
    new = np.empty(len(sorted_values), dtype=bool)
    new[:1] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=new[1:])
    return new
