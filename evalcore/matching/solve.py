"""Dispatch a matching problem to the cheapest exact solver for its shape."""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from evalcore.matching.assignment import is_unit, solve_assignment
from evalcore.matching.problem import MatchProblem
from evalcore.matching.reference import solve_pulp
from evalcore.matching.transport import solve_highs, solve_network_simplex

BACKENDS = {
    "network-simplex": solve_network_simplex,
    "highs": solve_highs,
    "assignment": solve_assignment,
    "pulp": solve_pulp,
    "pulp-highs": lambda p: solve_pulp(p, solver="highs"),
}

# Below this share of positive similarities, splitting into connected components pays off.
_SPARSE_DENSITY = 0.25


def match(x, y, sim, method: str = "auto") -> float:
    """Optimal objective S of the TESLA matching LP between weights ``x`` and ``y``.

    ``method``: ``"auto"`` (trivial -> 0, binary similarity -> closed form on the
    bipartite components, unit weights -> assignment, else network simplex per connected
    component), or one backend of :data:`BACKENDS` applied to the whole problem.
    """
    problem = MatchProblem.of(x, y, sim)
    if problem.trivial:
        return 0.0
    if method != "auto":
        try:
            return BACKENDS[method](problem)
        except KeyError:
            raise ValueError(f"unknown matching method {method!r}; choose auto or one of {sorted(BACKENDS)}") from None
    if is_unit(problem):
        return solve_assignment(problem)
    positive = problem.sim > 0
    if positive.mean() >= _SPARSE_DENSITY:
        return solve_network_simplex(problem)
    return sum(_solve_component(p) for p in _components(problem, positive))


def _components(problem: MatchProblem, positive: np.ndarray):
    """Sub-problems on the connected components of the positive-similarity bipartite graph."""
    m, n = positive.shape
    rows, cols = np.nonzero(positive)
    graph = csr_matrix((np.ones(len(rows)), (rows, m + cols)), shape=(m + n, m + n))
    _, label = connected_components(graph, directed=False)
    row_label, col_label = label[:m], label[m:]
    for comp in np.unique(label[rows]):
        ri = np.flatnonzero(row_label == comp)
        ci = np.flatnonzero(col_label == comp)
        sub = MatchProblem(problem.x[ri], problem.y[ci], problem.sim[np.ix_(ri, ci)])
        if not sub.trivial:
            yield sub


def _solve_component(problem: MatchProblem) -> float:
    """Closed form where the component is a complete block of similarity 1, else simplex."""
    if (problem.sim == 1).all():
        return float(min(problem.x.sum(), problem.y.sum()))
    if problem.sim.size == 1:
        return float(problem.sim[0, 0] * min(problem.x[0], problem.y[0]))
    return solve_network_simplex(problem)


def f_measure(s: float, x_total: float, y_total: float, alpha: float = 0.8) -> tuple[float, float, float]:
    """(precision, recall, F) from the matched weight; F = P R / (alpha P + (1 - alpha) R),
    defined as 0 when nothing matched. X is the reference side, Y the candidate."""
    if s <= 0 or x_total <= 0 or y_total <= 0:
        return 0.0, 0.0, 0.0
    p, r = s / y_total, s / x_total
    return p, r, p * r / (alpha * p + (1 - alpha) * r)
