"""General case: the matching LP as a balanced transportation problem.

Inequality capacities become equalities by a dummy row (supply = total Y weight) and a dummy
column (demand = total X weight) reached at similarity 0. With cost 1 - s on every edge the
total cost is (total mass) - S, so minimum cost gives maximum S. Solved by POT's network
simplex, or, alternatively, by HiGHS on the LP directly.

POT's solvers are called through ``ot.lp.emd_wrap``, the compiled network simplex that ``ot.emd``
wraps: on TESLA-M-sized problems ``ot.emd``'s backend detection, marginal checks and dual
post-processing cost more than the simplex itself (the whole-problem solve through ``ot.emd``
took 2.5x the CPU time of the direct call in `python -m benchmarks matching`). ``emd_c_sparse`` (POT >=
0.9.7) takes only the positive-similarity edges plus the dummy arcs. POT is the ``lp`` extra (in
``mt`` and ``all``): the base install's metrics (TESLA-S, ROUGE) take closed forms only, and POT
0.9.7's wheel is 177 MB.
"""

from __future__ import annotations

import functools
from types import ModuleType

import numpy as np

from evalcore.extras import require
from evalcore.matching.highs import new_highs
from evalcore.matching.problem import Core, MatchProblem

MAX_ITERATIONS = 10_000_000
_OPTIMAL = 1
_STATUS = {0: "infeasible", 2: "unbounded", 3: "iteration limit (MAX_ITERATIONS) reached"}


def _balanced(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Supplies and demands with the dummy row and column. The two totals can differ in the
    last bits; POT's simplex then uses its inequality supply form, which leaves at most that
    difference unshipped (``ot.emd`` rescales instead; the optimum agrees to 1e-15)."""
    m, n = len(x), len(y)
    a = np.empty(m + 1)
    a[:m] = x
    a[m] = y.sum()
    b = np.empty(n + 1)
    b[:n] = y
    b[n] = x.sum()
    return a, b


@functools.cache
def _emd_wrap() -> ModuleType:
    """POT's compiled network simplex (in the ``lp`` and ``mt`` extras), imported once; without POT, an error
    naming the install (a HiGHS fallback would give other last bits on other machines)."""
    require("lp", "the LP matcher's network simplex", modules=("ot",))  # POT only: `mt` installs it too
    from ot.lp import emd_wrap

    return emd_wrap


def _check(code: int) -> None:
    """Fail loudly where ``ot.emd`` only warns and returns a non-optimal flow."""
    if code != _OPTIMAL:
        raise RuntimeError(f"network simplex did not reach an optimum: {_STATUS.get(code, code)}")


def network_simplex_dense(x: np.ndarray, y: np.ndarray, sim: np.ndarray) -> float:
    """Network simplex on the full (m+1) x (n+1) cost matrix."""
    emd_c = _emd_wrap().emd_c

    m, n = sim.shape
    a, b = _balanced(x, y)
    cost = np.ones((m + 1, n + 1))
    cost[:m, :n] -= sim
    flow, _, _, _, code = emd_c(a, b, cost, MAX_ITERATIONS, 1)
    _check(code)
    return float(np.vdot(flow[:m, :n], sim))


def network_simplex_sparse(core: Core) -> float:
    """Network simplex on the edges of ``core`` plus one dummy arc per vertex."""
    emd_c_sparse = _emd_wrap().emd_c_sparse

    m, n = core.shape
    r, c, s = core.edges
    a, b = _balanced(core.x, core.y)
    # Arcs: the edges; every row (and the dummy row) -> dummy column; dummy row -> every column.
    src = np.concatenate([r, np.arange(m + 1), np.full(n, m)]).astype(np.uint64)
    dst = np.concatenate([c, np.full(m + 1, n), np.arange(n)]).astype(np.uint64)
    cost = np.concatenate([1.0 - s, np.ones(m + n + 1)])
    fs, fd, flow, _, _, _, code = emd_c_sparse(a, b, src, dst, cost, MAX_ITERATIONS)
    _check(code)
    fs, fd = fs.astype(np.intp), fd.astype(np.intp)
    real = (fs < m) & (fd < n)
    return float((flow[real] * core.sim[fs[real], fd[real]]).sum())


def solve_network_simplex(problem: MatchProblem) -> float:
    """The whole problem by dense network simplex, without reduction (backend "network-simplex")."""
    return network_simplex_dense(problem.x, problem.y, problem.sim)


def solve_sparse_network_simplex(problem: MatchProblem) -> float:
    """The whole problem's positive edges by sparse network simplex."""
    core = problem.core()
    return 0.0 if core is None else network_simplex_sparse(core)


def solve_highs(problem: MatchProblem) -> float:
    """The LP with one variable per positive-similarity edge, solved by HiGHS (highspy)."""
    import highspy

    x, y, sim = problem.x, problem.y, problem.sim
    m, n = sim.shape
    rows, cols = np.nonzero(sim > 0)
    n_edges = len(rows)
    lp = highspy.HighsLp()
    lp.num_col_ = n_edges
    lp.num_row_ = m + n
    lp.col_cost_ = -sim[rows, cols]
    lp.col_lower_ = np.zeros(n_edges)
    lp.col_upper_ = np.full(n_edges, highspy.kHighsInf)
    lp.row_lower_ = np.full(m + n, -highspy.kHighsInf)
    lp.row_upper_ = np.concatenate([x, y])
    # Column-wise matrix: edge e has a 1 in row rows[e] and in row m + cols[e].
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.arange(0, 2 * n_edges + 1, 2, dtype=np.int32)
    lp.a_matrix_.index_ = np.column_stack([rows, m + cols]).ravel().astype(np.int32)
    lp.a_matrix_.value_ = np.ones(2 * n_edges)
    solver = new_highs()
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        raise RuntimeError(f"HiGHS did not reach an optimum: {solver.modelStatusToString(solver.getModelStatus())}")
    return float(-solver.getInfo().objective_function_value)
