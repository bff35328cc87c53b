"""A table of systems for one metric: each system's corpus value with a bootstrap interval over
inputs, a paired test between every pair of systems and significance clusters.

Every system is scored on the same inputs (segments): a value vector or a (segments x statistics)
matrix per system with an ``aggregate`` for corpus rules such as BLEU's (as
:mod:`evalcore.stats.significance` takes them). Intervals and tests use sacrebleu's draws (numpy's
``default_rng(seed)``, ``choice`` with replacement), every pair the same seed, so the same
resamples; a cluster's head is compared with each candidate by the two-sided p-value of the pair's
test (the one-sided p of the head beating it is at most that: the clusters are conservative)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

import numpy as np

from evalcore.stats.clusters import rank_clusters
from evalcore.stats.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    TESTS,
    Aggregate,
    approximate_randomization,
    bootstrap_interval,
    paired_bootstrap,
)


def system_table(systems: Mapping[str, object], aggregate: Aggregate | None = None, lower_is_better: bool = False,
                 test: str | None = None, n_samples: int | None = None, seed: int = DEFAULT_SEED,
                 n_ci: int = DEFAULT_SAMPLES["bootstrap"], alpha: float = 0.05) -> dict:
    """{"systems": [{system, value, mean, ci_low, ci_high, rank, cluster, cluster_head, p_vs_head}...]
    best first, "pairs": [PairedTest dicts with "a" and "b"] (empty without ``test``), and the settings}."""
    if test is not None and test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose from {TESTS}")
    rows = {name: {"system": name, **bootstrap_interval(values, aggregate, n_ci, seed, alpha).as_dict()}
            for name, values in systems.items()}
    sign = -1.0 if lower_is_better else 1.0
    pairs: dict[tuple[str, str], dict] = {}
    if test is not None:
        run = paired_bootstrap if test == "bootstrap" else approximate_randomization
        n = n_samples or DEFAULT_SAMPLES[test]
        for a, b in combinations(systems, 2):
            pairs[(a, b)] = {"a": a, "b": b, **run(systems[a], systems[b], aggregate, n, seed, alpha=alpha).as_dict()}

    def p_value(head: str, other: str) -> float | None:
        found = pairs.get((head, other)) or pairs.get((other, head))
        return None if found is None else found["p_value"]

    ranks = rank_clusters({name: sign * r["value"] if np.isfinite(r["value"]) else None for name, r in rows.items()},
                          p_value, alpha)
    order = sorted(rows, key=lambda n: (ranks[n].rank is None, -sign * rows[n]["value"] if np.isfinite(
        rows[n]["value"]) else 0.0, n))
    table = []
    for place, name in enumerate(order, 1):
        r = ranks[name]
        table.append({**rows[name], "rank": place if r.rank is not None else None,
                      "cluster": r.rank if test is not None else None, "cluster_head": r.head if test else None,
                      "p_vs_head": r.p_value if test else None})
    return {"systems": table, "pairs": list(pairs.values()), "test": test,
            "n_samples": (n_samples or DEFAULT_SAMPLES[test]) if test else None, "n_ci": n_ci, "seed": seed,
            "alpha": alpha, "lower_is_better": lower_is_better}
