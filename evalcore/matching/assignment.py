"""Unit weights: every vertex has capacity 1, so the transportation polytope is integral and
the LP optimum equals the best weighted bipartite assignment (Hungarian / LAPJV in scipy)."""

from __future__ import annotations

from scipy.optimize import linear_sum_assignment

from evalcore.matching.problem import MatchProblem


def is_unit(problem: MatchProblem) -> bool:
    """All weights on both sides are exactly 1."""
    return bool((problem.x == 1).all() and (problem.y == 1).all())


def solve_assignment(problem: MatchProblem) -> float:
    rows, cols = linear_sum_assignment(problem.sim, maximize=True)
    return float(problem.sim[rows, cols].sum())
