"""Closed-form optimum for binary, transitive similarity (s = 1 iff same class, else 0).

The LP then splits into independent classes, each a single-commodity flow whose optimum is
min(class weight in X, class weight in Y): no solver is needed. TESLA-S's exact surface match
is this case, so TESLA-S never calls an LP solver.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


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
