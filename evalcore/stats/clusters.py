"""Significance clusters of a leaderboard, as the WMT metrics tasks rank metrics: sorted by the
statistic, a metric joins the current cluster while the cluster's first metric is not
significantly better than it (one-sided test, level alpha); the first metric that is significantly
worse opens the next cluster. Only the (cluster head, candidate) pairs are tested."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Ranked:
    """A metric's cluster rank (1 = best; None when its statistic is undefined), the head of its
    cluster and the p-value of the head beating it (None for a head)."""

    rank: int | None
    head: str | None
    p_value: float | None


def rank_clusters(values: Mapping[str, float | None], p_value: Callable[[str, str], float | None],
                  alpha: float = 0.05) -> dict[str, Ranked]:
    """Cluster ranks of the metrics ``values`` holds (higher is better); ``p_value(a, b)``: the
    one-sided p-value that a beats b (None: untestable, counted as not significant)."""
    defined = sorted((name for name, v in values.items() if v is not None), key=lambda n: (-values[n], n))  # type: ignore[operator]
    out: dict[str, Ranked] = {}
    rank, head = 0, None
    for name in defined:
        p = p_value(head, name) if head is not None else None
        if head is None or (p is not None and p < alpha):
            rank, head = rank + 1, name
            out[name] = Ranked(rank, name, None)
        else:
            out[name] = Ranked(rank, head, p)
    for name, v in values.items():
        if v is None:
            out[name] = Ranked(None, None, None)
    return out
