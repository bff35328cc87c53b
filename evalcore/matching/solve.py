"""Dispatch a matching problem to the cheapest exact solver for its shape and size."""

from __future__ import annotations

from collections.abc import Callable

from evalcore.matching.assignment import has_equal_weights, solve_assignment, solve_equal_weights
from evalcore.matching.closed_form import all_unit, disjoint_edges, star, transitive_classes
from evalcore.matching.problem import Core, MatchProblem
from evalcore.matching.reference import solve_pulp
from evalcore.matching.transport import (
    network_simplex_dense,
    network_simplex_sparse,
    solve_highs,
    solve_network_simplex,
    solve_sparse_network_simplex,
)

BACKENDS = {
    "network-simplex": solve_network_simplex,
    "sparse-network-simplex": solve_sparse_network_simplex,
    "highs": solve_highs,
    "assignment": solve_assignment,
    "pulp": solve_pulp,
    "pulp-highs": lambda p: solve_pulp(p, solver="highs"),
}

# Sparse network simplex (the edges plus one dummy arc per vertex) against the dense one on the
# (m+1) x (n+1) cost matrix, measured by `python -m benchmarks matching` (dense_vs_sparse, CPU time, three
# runs): sparse is 1.0-1.5x faster at 40x40 with 5-20% edges, 1.3-1.8x at 50x50 and 2.3-4.0x at
# 100x100 with 5-10%; dense is faster below 40x40 (0.55-0.96x at 25x25, TESLA-M's size) and at
# 50% edges up to 100x100, where the sparse arc list is as long as the dense one.
SPARSE_MIN_CELLS = 1600
SPARSE_MAX_DENSITY = 0.25


def match(x, y, sim, method: str = "auto") -> float:
    """Optimal objective S of the TESLA matching LP between weights ``x`` and ``y``.

    ``method``: ``"auto"`` (the cheapest exact path for the problem's core, see :func:`choose`),
    or one backend of :data:`BACKENDS` applied to the whole problem.
    """
    problem = MatchProblem.of(x, y, sim)
    if method == "auto":
        return solve_auto(problem)
    try:
        backend = BACKENDS[method]
    except KeyError:
        raise ValueError(f"unknown matching method {method!r}; choose auto or one of {sorted(BACKENDS)}") from None
    return 0.0 if problem.trivial else backend(problem)


def solve_auto(problem: MatchProblem) -> float:
    """Reduce to the core (rows and columns that can carry flow) and solve it on its path."""
    core = problem.core()
    return 0.0 if core is None else solve_core(core)


def solve_core(core: Core) -> float:
    """Optimum of one core on the path :func:`choose` picks."""
    value = _SOLVERS[choose(core)](core)
    if value is None:  # "classes" declined: the unit similarities are not transitive
        value = _SIMPLEX[_simplex(core)](core)
    return value


def choose(core: Core) -> str:
    """The path :func:`solve_core` takes for ``core`` (one of :data:`PATHS`; "classes" falls
    back to simplex when the unit similarities are not transitive).

    Closed forms first, each a few numpy calls against the fixed cost of a simplex call (22 µs
    on a 10 x 10 core; on the structured TESLA-M workload a quarter of the LPs are
    vertex-disjoint edges, solved in ~4 µs instead of ~50 µs); equal weights by LAPJV; otherwise
    one network simplex on the whole core, dense or sparse by size (see ``SPARSE_MIN_CELLS``).

    The core is not split into connected components (splitting every LP below 25% density cost
    55% of the time on TESLA-M-like LPs): measured on shuffled block-diagonal cores, splitting
    (scipy's connected_components, then each part on its own path) was slower at every size up
    to 3,200 vertices (0.25-0.66x) and broke even at 6,400 vertices in 64 blocks (0.9-1.2x over
    runs). The dummy row and column already decouple the components inside one simplex, and
    every extra call pays the fixed cost again.
    """
    m, n = core.shape
    if core.n_edges == m == n:
        return "disjoint-edges"
    if m == 1 or n == 1:
        return "star"
    if all_unit(core):
        return "classes"
    if has_equal_weights(core):
        return "equal-weights"
    return _simplex(core)


def _simplex(core: Core) -> str:
    m, n = core.shape
    cells = m * n
    if cells >= SPARSE_MIN_CELLS and core.n_edges <= SPARSE_MAX_DENSITY * cells:
        return "sparse-simplex"
    return "dense-simplex"


_SIMPLEX: dict[str, Callable[[Core], float]] = {
    "dense-simplex": lambda core: network_simplex_dense(core.x, core.y, core.sim),
    "sparse-simplex": network_simplex_sparse,
}
_SOLVERS: dict[str, Callable[[Core], float | None]] = {
    "disjoint-edges": disjoint_edges,
    "star": star,
    "classes": transitive_classes,
    "equal-weights": solve_equal_weights,
    **_SIMPLEX,
}
PATHS = tuple(_SOLVERS)


def f_measure(s: float, x_total: float, y_total: float, alpha: float = 0.8) -> tuple[float, float, float]:
    """(precision, recall, F) from the matched weight; F = P R / (alpha P + (1 - alpha) R),
    defined as 0 when nothing matched. X is the reference side, Y the candidate."""
    if s <= 0 or x_total <= 0 or y_total <= 0:
        return 0.0, 0.0, 0.0
    p, r = s / y_total, s / x_total
    return p, r, p * r / (alpha * p + (1 - alpha) * r)
