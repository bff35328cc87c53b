"""Closed-form optima: no solver is needed for these shapes of the matching LP.

- Binary, transitive similarity (s = 1 iff same class, else 0): the LP splits into independent
  classes, each a single-commodity flow whose optimum is min(class weight in X, class weight in
  Y). TESLA-S's exact surface match is this case, so TESLA-S never calls an LP solver.
- Vertex-disjoint edges: each edge is its own component, optimum s * min(x, y) per edge.
- A star (one row, or one column): a fractional knapsack with unit sizes, solved greedily in
  order of decreasing similarity.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from evalcore.matching.problem import Core


def bag_overlap(x: Mapping, y: Mapping) -> float:
    """Optimum S for two bags under exact-match similarity: sum over shared keys of min weight."""
    if len(x) > len(y):
        x, y = y, x
    get = y.get
    s = 0.0
    for key, wx in x.items():
        wy = get(key)
        if wy is not None:
            s += wx if wx < wy else wy
    return s


def class_overlap(x_classes, x_weights, y_classes, y_weights) -> float:
    """Optimum S when s(x_i, y_j) = 1 iff ``x_classes[i] == y_classes[j]`` (integer labels)."""
    x_classes = np.asarray(x_classes, dtype=np.int64)
    y_classes = np.asarray(y_classes, dtype=np.int64)
    if x_classes.size == 0 or y_classes.size == 0:
        return 0.0
    size = int(max(x_classes.max(), y_classes.max())) + 1
    xs = np.bincount(x_classes, weights=np.asarray(x_weights, dtype=float), minlength=size)
    ys = np.bincount(y_classes, weights=np.asarray(y_weights, dtype=float), minlength=size)
    return float(np.minimum(xs, ys).sum())


def disjoint_edges(core: Core) -> float:
    """Optimum when no two edges share a row or a column (``core.n_edges == m == n``)."""
    r, c, s = core.edges
    return float((s * np.minimum(core.x[r], core.y[c])).sum())


def star(core: Core) -> float:
    """Optimum when the core has one row or one column: fill the centre's capacity greedily,
    most similar leaf first (each leaf takes at most its own weight)."""
    m, n = core.shape
    r, c, s = core.edges
    if m == 1:
        centre, leaves = core.x[0], core.y[c]
    elif n == 1:
        centre, leaves = core.y[0], core.x[r]
    else:
        raise ValueError(f"a star has one row or one column, not {m}x{n}")
    order = np.argsort(-s, kind="stable")
    cap, s = leaves[order], s[order]
    before = np.cumsum(cap) - cap
    return float((s * np.clip(centre - before, 0.0, cap)).sum())


def all_unit(core: Core) -> bool:
    """Every edge of the core has similarity exactly 1."""
    return np.count_nonzero(core.sim == 1) == core.n_edges


def transitive_classes(core: Core) -> float | None:
    """Optimum when every similarity is 1 and the edges form complete blocks (a transitive
    relation): the sum over blocks of min(block weight in X, block weight in Y). None when the
    edges are not such blocks.

    Each row is labelled by its first column; the core is blocks iff every edge joins a row and
    a column of the same label and the edge count equals the sum of the blocks' sizes."""
    if not all_unit(core):
        return None
    n = core.shape[1]
    r, c, _ = core.edges
    first = core.sim.argmax(axis=1)
    label = first[r]
    col_label = np.empty(n, dtype=label.dtype)
    col_label[c] = label
    if not (col_label[c] == label).all():
        return None
    rows_per = np.bincount(first, minlength=n)
    cols_per = np.bincount(col_label, minlength=n)
    if int(rows_per @ cols_per) != core.n_edges:
        return None
    xs = np.bincount(first, weights=core.x, minlength=n)
    ys = np.bincount(col_label, weights=core.y, minlength=n)
    return float(np.minimum(xs, ys).sum())
