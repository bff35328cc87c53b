"""The matching LP's data: two weight vectors and a similarity matrix in [0, 1], and its core
(the rows and columns that can carry flow), which every exact path of :func:`match` starts from."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TINY = 1e-12


@dataclass(frozen=True)
class MatchProblem:
    """maximise sum_ij sim[i, j] w_ij  s.t.  w >= 0, rows sum <= x, columns sum <= y."""

    x: np.ndarray
    y: np.ndarray
    sim: np.ndarray

    @classmethod
    def of(cls, x, y, sim) -> MatchProblem:
        """Validate and convert inputs (clear errors instead of a solver failure).

        One min/max per array does the checks (NaN fails every comparison), on private copies
        that are then cleaned in place: this runs once per LP, so it is kept to a dozen numpy calls."""
        x = np.array(x, dtype=float).ravel()
        y = np.array(y, dtype=float).ravel()
        sim = np.array(sim, dtype=float).reshape(len(x), len(y))
        # Values below every solver's tolerance are zeros (denormals stall network simplex).
        for w in (x, y):
            if w.size:
                low = w.min()
                if not (low >= 0 and w.max() < np.inf):
                    raise ValueError("bag weights must be finite and non-negative")
                if low < TINY:
                    w[w < TINY] = 0.0
        if sim.size:
            if not (sim.min() >= 0 and sim.max() <= 1):
                raise ValueError("similarities must be finite and within [0, 1]")
            sim[sim < TINY] = 0.0
        return cls(x, y, sim)

    @property
    def trivial(self) -> bool:
        """No positive weight or no positive similarity: the optimum is 0."""
        return self.x.sum() <= 0 or self.y.sum() <= 0 or not (self.sim > 0).any()

    def core(self) -> Core | None:
        """The sub-problem on rows and columns with positive weight and at least one positive
        similarity to the other side (the rest cannot carry flow); None when nothing can.

        Written for few numpy calls (this runs once per LP): similarities are >= 0 with no
        denormals, so a row is active iff its sum is positive."""
        x, y, sim = self.x, self.y, self.sim
        if np.count_nonzero(x) < len(x) or np.count_nonzero(y) < len(y):
            sim = sim * (x > 0)[:, None] * (y > 0)[None, :]
        row_sum, col_sum = sim.sum(axis=1), sim.sum(axis=0)
        m, n = np.count_nonzero(row_sum), np.count_nonzero(col_sum)
        if m == 0:
            return None
        if m < len(x) or n < len(y):
            rows, cols = row_sum > 0, col_sum > 0
            x, y, sim = x.compress(rows), y.compress(cols), sim.compress(rows, axis=0).compress(cols, axis=1)
        return Core(x, y, sim, int(np.count_nonzero(sim)))


class Core:
    """A problem in which every row and column has positive weight and at least one edge (a
    positive similarity). The edge list is built on first use: the dense simplex never needs it."""

    __slots__ = ("x", "y", "sim", "n_edges", "_edges")

    def __init__(self, x: np.ndarray, y: np.ndarray, sim: np.ndarray, n_edges: int):
        self.x, self.y, self.sim, self.n_edges = x, y, sim, n_edges
        self._edges: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return self.sim.shape

    @property
    def edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows, columns, similarities) of the edges, in row-major order."""
        if self._edges is None:
            r, c = np.nonzero(self.sim)
            self._edges = (r, c, self.sim[r, c])
        return self._edges
