"""PuLP (CBC) backend: the textbook LP, kept as the reference the fast paths are tested against."""

from __future__ import annotations

import numpy as np

from evalcore.extras import require
from evalcore.matching.highs import silence_highs_banner
from evalcore.matching.problem import MatchProblem


def solve_pulp(problem: MatchProblem, solver: str = "cbc") -> float:
    require("lp", "the reference matcher (PuLP)")
    import pulp

    x, y, sim = problem.x, problem.y, problem.sim
    lp = pulp.LpProblem("bng_match", pulp.LpMaximize)
    edges = {(i, j): lp.add_variable(f"w_{i}_{j}", lowBound=0) for i, j in zip(*np.nonzero(sim > 0))}
    lp += pulp.lpSum(sim[i, j] * v for (i, j), v in edges.items())
    for i in range(len(x)):
        lp += pulp.lpSum(v for (r, _), v in edges.items() if r == i) <= x[i]
    for j in range(len(y)):
        lp += pulp.lpSum(v for (_, c), v in edges.items() if c == j) <= y[j]
    if solver == "highs":
        silence_highs_banner()  # PuLP's HiGHS backend constructs highspy solvers
    backend = pulp.HiGHS(msg=False) if solver == "highs" else pulp.PULP_CBC_CMD(msg=False)
    status = lp.solve(backend)
    if pulp.LpStatus[status] != "Optimal":
        raise RuntimeError(f"PuLP ({solver}) returned status {pulp.LpStatus[status]}")
    return float(pulp.value(lp.objective) or 0.0)
