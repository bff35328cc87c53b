"""The matching LP's data: two weight vectors and a similarity matrix in [0, 1]."""

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
    def of(cls, x, y, sim) -> "MatchProblem":
        """Validate and convert inputs (clear errors instead of a solver failure)."""
        x = np.asarray(x, dtype=float).ravel()
        y = np.asarray(y, dtype=float).ravel()
        sim = np.asarray(sim, dtype=float).reshape(len(x), len(y))
        if not (np.isfinite(x).all() and np.isfinite(y).all()) or (x < 0).any() or (y < 0).any():
            raise ValueError("bag weights must be finite and non-negative")
        if not np.isfinite(sim).all() or (sim < 0).any() or (sim > 1).any():
            raise ValueError("similarities must be finite and within [0, 1]")
        # Values below every solver's tolerance are zeros (denormals stall network simplex).
        return cls(*(np.where(a < TINY, 0.0, a) for a in (x, y, sim)))

    @property
    def trivial(self) -> bool:
        """No positive weight or no positive similarity: the optimum is 0."""
        return self.x.sum() <= 0 or self.y.sum() <= 0 or not (self.sim > 0).any()
