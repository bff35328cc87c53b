"""The LP matching benchmark's workload (seeded, shaped as the TESLA-M problems) and its baseline
commit's matcher."""

from pathlib import Path

import numpy as np
import pytest


def test_tesla_m_like_workload_is_seeded_and_shaped_as_specified():
    from benchmarks.evalcore.matching import tesla_m_like_workload

    a, b = tesla_m_like_workload(40, seed=7), tesla_m_like_workload(40, seed=7)
    for seg_a, seg_b in zip(a, b):
        for (xa, ya, sa), (xb, yb, sb) in zip(seg_a, seg_b):
            assert np.array_equal(xa, xb) and np.array_equal(ya, yb) and np.array_equal(sa, sb)
    assert [p[2].shape for p in a[0]] == [(25, 25), (24, 24), (23, 23)]
    weights = np.concatenate([p[0] for seg in a for p in seg])
    assert set(np.round(np.log10(weights)).astype(int)) <= {0, -1, -2, -3}  # products of 0.1 discounts
    sims = np.concatenate([p[2].ravel() for seg in a for p in seg])
    assert 0.08 < (sims > 0).mean() < 0.12 and sims.max() <= 1
    assert not np.array_equal(tesla_m_like_workload(1, seed=8)[0][0][2], a[0][0][2])


def test_benchmark_compares_with_the_baseline_commit():
    import subprocess

    from benchmarks.evalcore import matching as bench

    probe = subprocess.run(["git", "-C", str(Path(bench.__file__).resolve().parents[2]), "cat-file", "-e",
                            f"{bench.BASELINE_COMMIT}^{{commit}}"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"this checkout does not have commit {bench.BASELINE_COMMIT}")
    report = bench.lp_speed(n_segments=4, rounds=1, crossovers=False)
    for w in report["workloads"]:
        assert w["objectives_equal"], w
        assert set(w["ms_per_segment"]) == {f"{bench.BASELINE_COMMIT} match(auto)", "POT ot.emd, whole problem",
                                            "bare network simplex, whole problem", "match(auto)"}
    baseline = bench.baseline_matcher()
    assert baseline.__module__.startswith(f"lp_baseline_{bench.BASELINE_COMMIT}")
    assert baseline([1, 1], [1, 1], [[0.5, 1.0], [0.0, 1.0]]) == pytest.approx(1.5)
