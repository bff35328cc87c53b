"""Covered matching (TESLA-CELAB, Liu & Ng 2012 §3): positional n-gram nodes of every order on
both sides in one problem, binary edges (identical or synonym, closed under phrase matching), and
coverage variables, so a matched n-gram also counts for every n-gram inside it.

The coverage rows break the transportation structure of :mod:`.transport`, so this is a general
LP, solved by HiGHS on a sparse column-wise matrix:

    maximise (1/Z) (sum_X c_ref(X) + f sum_Y c_cand(Y)),   Z = N_ref + f N_cand
    s.t.     sum of w over the edges of a node <= 1         (every node, both sides)
             c(X) <= sum of w over the edges of every node whose span contains X (X included)
             0 <= w, c <= 1

The paper's ``max`` over covering nodes is replaced by the sum (exact when the w are integral,
an approximation otherwise, as the paper says). :func:`solve_covered_pulp` states the same LP
without any reduction for PuLP, the reference the property tests compare HiGHS against;
:func:`plain_matching` is the w-only problem through :func:`match` (the transport paths).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from evalcore.extras import require
from evalcore.matching.highs import new_highs
from evalcore.matching.solve import match

Span = tuple[int, int]
#: a link between a reference span and a candidate span: ((start, end), (start, end)), end exclusive
Link = tuple[Span, Span]


def ngram_spans(length: int, max_n: int) -> np.ndarray:
    """Every positional n-gram of a sequence, n = 1..max_n, as (start, end) rows ordered by n
    then start (index of (s, e) = :func:`span_index`)."""
    rows = [(s, s + n) for n in range(1, max_n + 1) for s in range(length - n + 1)]
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def span_index(span: Span, length: int) -> int:
    """Row of ``span`` in :func:`ngram_spans` of a sequence of ``length`` units."""
    s, e = span
    n = e - s
    return (n - 1) * length - (n - 1) * (n - 2) // 2 + s


def phrase_closure(links: Iterable[Link], max_n: int) -> set[Link]:
    """The links plus every phrase match: two spans are linked when they split into the same
    number of adjacent pieces that are pairwise linked, in order (§3.2; found by extending
    matched prefixes piece by piece, the dynamic programme over prefix pairs), neither span
    longer than ``max_n``."""
    links = {link for link in links if link[0][1] - link[0][0] <= max_n and link[1][1] - link[1][0] <= max_n}
    following: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for (s, e), (t, u) in links:
        following.setdefault((s, t), []).append((e, u))
    closed = set(links)
    todo = list(links)
    while todo:
        (s, e), (t, u) = todo.pop()
        for e2, u2 in following.get((e, u), ()):
            if e2 - s <= max_n and u2 - t <= max_n:
                longer = ((s, e2), (t, u2))
                if longer not in closed:
                    closed.add(longer)
                    todo.append(longer)
    return closed


@dataclass(frozen=True)
class CoveredProblem:
    """Nodes (spans) of both sides, edges as (reference node, candidate node) index pairs, and
    the candidate-side weight ``f`` of the objective."""

    ref_spans: np.ndarray
    cand_spans: np.ndarray
    edges: np.ndarray
    f: float = 0.25

    @classmethod
    def of(cls, ref_spans, cand_spans, edges, f: float = 0.25) -> CoveredProblem:
        """Validate and convert (clear errors instead of a solver failure)."""
        ref = np.asarray(ref_spans, dtype=np.int64).reshape(-1, 2)
        cand = np.asarray(cand_spans, dtype=np.int64).reshape(-1, 2)
        e = np.unique(np.asarray(edges, dtype=np.int64).reshape(-1, 2), axis=0)
        if not 0 < f <= 1:
            raise ValueError(f"f must be in (0, 1], got {f}")
        if len(ref) + f * len(cand) <= 0:
            raise ValueError("a covered matching problem needs at least one node")
        for spans in (ref, cand):
            if len(spans) and not (spans[:, 1] > spans[:, 0]).all():
                raise ValueError("every span must have end > start")
        if len(e) and not (e.min() >= 0 and e[:, 0].max() < len(ref) and e[:, 1].max() < len(cand)):
            raise ValueError("edge endpoints must index the given spans")
        return cls(ref, cand, e, float(f))

    @classmethod
    def from_links(cls, ref_length: int, cand_length: int, links: Iterable[Link], max_n: int = 4,
                   f: float = 0.25, phrases: bool = True) -> CoveredProblem:
        """The problem on all n-grams (n = 1..max_n) of two sequences, edges = ``links``
        (identical or synonym spans), closed under phrase matching when ``phrases``; a link with
        a span longer than ``max_n`` has no node and is left out."""
        links = phrase_closure(links, max_n) if phrases else set(links)
        for (s, e), (t, u) in links:
            if not (0 <= s < e <= ref_length and 0 <= t < u <= cand_length):
                raise ValueError(f"link {(s, e)}-{(t, u)} lies outside the sequences ({ref_length}, {cand_length})")
        edges = [(span_index(r, ref_length), span_index(c, cand_length)) for r, c in links
                 if r[1] - r[0] <= max_n and c[1] - c[0] <= max_n]
        return cls.of(ngram_spans(ref_length, max_n), ngram_spans(cand_length, max_n), edges, f)

    @property
    def z(self) -> float:
        """The normaliser: the objective's value when every coverage variable is 1."""
        return len(self.ref_spans) + self.f * len(self.cand_spans)


@dataclass(frozen=True)
class CoveredSolution:
    """The optimum and one optimal point, with the size of the LP that was solved."""

    value: float
    w: np.ndarray
    c_ref: np.ndarray
    c_cand: np.ndarray
    n_variables: int
    n_constraints: int
    n_nonzeros: int

    @property
    def recall(self) -> float:
        """Covered share of the reference's n-grams."""
        return float(self.c_ref.mean()) if len(self.c_ref) else 0.0

    @property
    def precision(self) -> float:
        """Covered share of the candidate's n-grams."""
        return float(self.c_cand.mean()) if len(self.c_cand) else 0.0


def containment(spans: np.ndarray) -> np.ndarray:
    """contains[x, z]: span z contains span x (z = x included)."""
    return (spans[None, :, 0] <= spans[:, None, 0]) & (spans[:, None, 1] <= spans[None, :, 1])


def coverage(problem: CoveredProblem, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The largest coverage values a fixed edge flow ``w`` allows (the sum form, capped at 1):
    what post-processing a plain matching would give, and the c of an optimal LP point."""
    out = []
    for side, spans in ((0, problem.ref_spans), (1, problem.cand_spans)):
        used = np.bincount(problem.edges[:, side], weights=w, minlength=len(spans)) if len(w) else np.zeros(len(spans))
        out.append(np.minimum(containment(spans).astype(float) @ used, 1.0) if len(spans) else np.zeros(0))
    return out[0], out[1]


def objective(problem: CoveredProblem, c_ref: np.ndarray, c_cand: np.ndarray) -> float:
    """(1/Z) (sum c_ref + f sum c_cand)."""
    return float((c_ref.sum() + problem.f * c_cand.sum()) / problem.z)


def _colwise(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, n_cols: int):
    """(start, index, value) of a column-wise sparse matrix from triplets."""
    order = np.lexsort((rows, cols))
    start = np.zeros(n_cols + 1, dtype=np.int32)
    np.cumsum(np.bincount(cols, minlength=n_cols), out=start[1:])
    return start, rows[order].astype(np.int32), vals[order]


class _SideRows(NamedTuple):
    """One side's constraint triplets: ``n_capacity`` capacity rows (upper bound 1) first, then
    one coverage row (upper bound 0) per node of ``covered``."""

    rows: np.ndarray
    cols: np.ndarray
    vals: np.ndarray
    n_rows: int
    n_capacity: int
    covered: np.ndarray


def _side_rows(spans: np.ndarray, edge_nodes: np.ndarray, n_edges: int, c_offset: int, row_offset: int) -> _SideRows:
    """Capacity rows (nodes with two edges or more; one edge is the w bound) and coverage rows
    (nodes inside some node with an edge; the rest have c = 0 and are left out of the LP)."""
    e_idx = np.arange(n_edges)
    degree = np.bincount(edge_nodes, minlength=len(spans))
    busy = np.flatnonzero(degree >= 2)
    busy_row = np.full(len(spans), -1)
    busy_row[busy] = np.arange(len(busy))
    cap = busy_row[edge_nodes] >= 0
    cap_rows, cap_cols = busy_row[edge_nodes[cap]], e_idx[cap]
    inside = containment(spans)
    covered = np.flatnonzero(inside[:, degree > 0].any(axis=1))  # x lies in some node with an edge
    edge_of = inside[np.ix_(covered, edge_nodes)]  # covered x lies in the node of edge e
    cov_x, cov_e = np.nonzero(edge_of)
    k = len(busy)
    rows = np.concatenate([cap_rows, k + cov_x, k + np.arange(len(covered))]) + row_offset
    cols = np.concatenate([cap_cols, cov_e, c_offset + np.arange(len(covered))])
    vals = np.concatenate([np.ones(len(cap_rows)), -np.ones(len(cov_x)), np.ones(len(covered))])
    return _SideRows(rows, cols, vals, k + len(covered), k, covered)


def solve_covered(problem: CoveredProblem) -> CoveredSolution:
    """Optimum of the covered matching LP by HiGHS (highspy), on the nodes that can be covered."""
    import highspy

    n_edges = len(problem.edges)
    n_ref, n_cand = len(problem.ref_spans), len(problem.cand_spans)
    if n_edges == 0:
        return CoveredSolution(0.0, np.zeros(0), np.zeros(n_ref), np.zeros(n_cand), 0, 0, 0)
    ref = _side_rows(problem.ref_spans, problem.edges[:, 0], n_edges, n_edges, 0)
    k_ref = len(ref.covered)
    cand = _side_rows(problem.cand_spans, problem.edges[:, 1], n_edges, n_edges + k_ref, ref.n_rows)
    k_cand = len(cand.covered)
    n_cols, n_rows = n_edges + k_ref + k_cand, ref.n_rows + cand.n_rows
    rows, cols, vals = (np.concatenate([a, b]) for a, b in zip(ref[:3], cand[:3]))
    upper = np.zeros(n_rows)
    upper[:ref.n_capacity] = 1.0
    upper[ref.n_rows:ref.n_rows + cand.n_capacity] = 1.0

    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n_cols, n_rows
    lp.col_cost_ = np.concatenate([np.zeros(n_edges), np.full(k_ref, -1.0), np.full(k_cand, -problem.f)]) / problem.z
    lp.col_lower_, lp.col_upper_ = np.zeros(n_cols), np.ones(n_cols)
    lp.row_lower_, lp.row_upper_ = np.full(n_rows, -highspy.kHighsInf), upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = _colwise(rows, cols, vals, n_cols)
    solver = new_highs()
    # Presolve costs more than it saves on these LPs (a few hundred columns): CPU time per
    # newstest2021 en-zh segment 3.5 ms with it, 2.2 ms without (150 segments, same optima).
    solver.setOptionValue("presolve", "off")
    solver.passModel(lp)
    solver.run()
    status = solver.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise RuntimeError(f"HiGHS did not reach an optimum: {solver.modelStatusToString(status)}")
    x = np.clip(np.asarray(solver.getSolution().col_value), 0.0, 1.0)
    c_ref, c_cand = np.zeros(n_ref), np.zeros(n_cand)
    c_ref[ref.covered] = x[n_edges:n_edges + k_ref]
    c_cand[cand.covered] = x[n_edges + k_ref:]
    value = float(-solver.getInfo().objective_function_value)
    return CoveredSolution(value, x[:n_edges], c_ref, c_cand, n_cols, n_rows, len(vals))


def solve_covered_pulp(problem: CoveredProblem, solver: str = "highs") -> float:
    """The same LP written out in full for PuLP (every node, the paper's rows): the reference."""
    require("lp", "the reference matcher (PuLP)")
    import pulp

    lp = pulp.LpProblem("covered_match", pulp.LpMaximize)
    w = [lp.add_variable(f"w_{k}", lowBound=0, upBound=1) for k in range(len(problem.edges))]
    sides = []
    for side, spans in ((0, problem.ref_spans), (1, problem.cand_spans)):
        incident = [[w[k] for k, e in enumerate(problem.edges) if e[side] == node] for node in range(len(spans))]
        for node_edges in incident:
            if node_edges:
                lp += pulp.lpSum(node_edges) <= 1
        c = [lp.add_variable(f"c{side}_{x}", lowBound=0, upBound=1) for x in range(len(spans))]
        inside = containment(spans)
        for x in range(len(spans)):
            lp += c[x] <= pulp.lpSum(v for z in np.flatnonzero(inside[x]) for v in incident[z])
        sides.append(c)
    lp += (pulp.lpSum(sides[0]) + problem.f * pulp.lpSum(sides[1])) / problem.z
    backend = pulp.HiGHS(msg=False) if solver == "highs" else pulp.PULP_CBC_CMD(msg=False)
    status = lp.solve(backend)
    if pulp.LpStatus[status] != "Optimal":
        raise RuntimeError(f"PuLP ({solver}) returned status {pulp.LpStatus[status]}")
    return float(pulp.value(lp.objective) or 0.0)


def plain_matching(problem: CoveredProblem, method: str = "auto") -> float:
    """Matched node count without coverage (sum of w, every node capacity 1): the transport
    problem of :func:`match` on the same nodes and edges (§3.1-3.2's objective)."""
    sim = np.zeros((len(problem.ref_spans), len(problem.cand_spans)))
    if len(problem.edges):
        sim[problem.edges[:, 0], problem.edges[:, 1]] = 1.0
    return match(np.ones(sim.shape[0]), np.ones(sim.shape[1]), sim, method=method)
