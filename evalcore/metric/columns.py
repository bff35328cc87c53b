"""Scores held as columns: one float array of values and one per component, so a long run keeps a
few floats per item instead of a Score object each, and reads them back as Scores for a metric's
corpus rule or as the statistics matrix of paired tests and bootstrap resamples."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import overload

import numpy as np

from evalcore.metric.records import Score


class ScoreColumns(Sequence[Score]):
    """Appended Scores, read back one at a time (value and components; notes are not kept)."""

    def __init__(self) -> None:
        self._values = array("d")
        self._components: dict[str, array] = {}
        self._present: dict[str, bytearray] = {}  # whether each score has the component

    def append(self, score: Score) -> None:
        n = len(self._values)
        self._values.append(score.value)
        for name, value in score.components.items():
            if name not in self._components:
                self._components[name] = array("d", bytes(8 * n))
                self._present[name] = bytearray(n)
            self._components[name].append(value)
            self._present[name].append(1)
        for name, column in self._components.items():
            if len(column) == n:  # this score lacks the component
                column.append(0.0)
                self._present[name].append(0)

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, k: int) -> Score: ...

    @overload
    def __getitem__(self, k: slice) -> list[Score]: ...

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        return Score(self._values[k], {name: column[k] for name, column in self._components.items()
                                       if self._present[name][k]})

    def values(self) -> np.ndarray:
        """The values as a float array."""
        return np.array(self._values, dtype=float)

    def matrix(self, names: Sequence[str]) -> np.ndarray:
        """(scores x names) matrix of the named components, which every score has (sufficient
        statistics): what :meth:`~evalcore.metric.statistics.SufficientStatistics.statistics` makes."""
        if not len(self):
            return np.zeros((0, len(names)))
        missing = [name for name in names if name not in self._components or 0 in self._present[name]]
        if missing:
            raise ValueError(f"not every score has the component(s) {', '.join(map(repr, missing))}")
        return np.column_stack([np.array(self._components[name], dtype=float) for name in names])
