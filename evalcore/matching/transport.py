"""General case: the matching LP as a balanced transportation problem.

Inequality capacities become equalities by a dummy row (supply = total Y weight) and a dummy
column (demand = total X weight) reached at similarity 0. With cost 1 - s on every edge the
total cost is (total mass) - S, so minimum cost gives maximum S. Solved by POT's network
simplex (``ot.emd``) or, alternatively, by HiGHS on the LP directly.
"""

from __future__ import annotations

import numpy as np

from evalcore.matching.problem import MatchProblem


def solve_network_simplex(problem: MatchProblem) -> float:
    import ot

    x, y, sim = problem.x, problem.y, problem.sim
    a = np.append(x, y.sum())
    b = np.append(y, x.sum())
    cost = np.ones((len(a), len(b)))
    cost[:-1, :-1] -= sim
    flow = ot.emd(a, b, cost, numItermax=10_000_000)
    return float((flow[:-1, :-1] * sim).sum())


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
    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        raise RuntimeError(f"HiGHS did not reach an optimum: {solver.modelStatusToString(solver.getModelStatus())}")
    return float(-solver.getInfo().objective_function_value)
