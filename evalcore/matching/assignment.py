"""Equal weights: every vertex has capacity c, so the transportation polytope is c times an
integral one and the LP optimum is c times the best weighted bipartite assignment (LAPJV in
scipy). MaxSim's setting (all weights 1) is the common case.

scipy.optimize is imported on first use: it costs ~0.1 s of start-up that metrics with exact-match
similarity (TESLA-S, ROUGE) never need."""

from __future__ import annotations

from evalcore.matching.problem import Core, MatchProblem


def is_unit(problem: MatchProblem) -> bool:
    """All weights on both sides are exactly 1."""
    return bool((problem.x == 1).all() and (problem.y == 1).all())


def solve_assignment(problem: MatchProblem) -> float:
    """The whole problem as an assignment: exact only for unit weights (see :func:`is_unit`)."""
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(problem.sim, maximize=True)
    return float(problem.sim[rows, cols].sum())


def has_equal_weights(core: Core) -> bool:
    """Every row and column of the core has the same weight."""
    w = core.x[0]
    return bool((core.x == w).all() and (core.y == w).all())


def solve_equal_weights(core: Core) -> float:
    """Optimum of a core whose rows and columns all have the same weight."""
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(core.sim, maximize=True)
    return float(core.x[0]) * float(core.sim[rows, cols].sum())
