"""The system table: corpus values with bootstrap intervals, every pair tested, clusters in the
metric's orientation."""

import numpy as np
import pytest

from evalcore.stats.significance import bootstrap_interval, paired_bootstrap
from evalcore.stats.systems import system_table


def _systems():
    rng = np.random.default_rng(3)
    base = rng.normal(0.5, 0.1, 80)
    return {"good": base + 0.2, "same-a": base, "same-b": base + rng.normal(0, 0.01, 80)}


def test_interval_resamples_sacrebleus_draws():
    values = np.arange(10, dtype=float)
    got = bootstrap_interval(values, n_samples=300, seed=5)
    idx = np.random.default_rng(5).choice(10, size=(300, 10), replace=True)
    means = values[idx].mean(axis=1)
    assert got.value == pytest.approx(4.5) and got.mean == pytest.approx(means.mean())
    assert (got.ci_low, got.ci_high) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])))


def test_every_pair_is_tested_with_the_same_seed_and_clusters_follow():
    systems = _systems()
    table = system_table(systems, test="bootstrap", n_samples=500, seed=1)
    assert [(p["a"], p["b"]) for p in table["pairs"]] == [("good", "same-a"), ("good", "same-b"), ("same-a", "same-b")]
    assert table["pairs"][0]["p_value"] == paired_bootstrap(systems["good"], systems["same-a"], n_samples=500,
                                                           seed=1).p_value
    rows = {r["system"]: r for r in table["systems"]}
    assert rows["good"]["rank"] == 1 and rows["good"]["cluster"] == 1
    assert rows["same-a"]["cluster"] == rows["same-b"]["cluster"] == 2


def test_lower_is_better_flips_ranks_and_clusters():
    table = system_table(_systems(), lower_is_better=True, test="bootstrap", n_samples=300)
    assert table["systems"][-1]["system"] == "good" and table["systems"][-1]["cluster"] == 2


def test_without_a_test_there_are_no_clusters():
    table = system_table(_systems())
    assert not table["pairs"] and all(r["cluster"] is None and r["rank"] for r in table["systems"])
