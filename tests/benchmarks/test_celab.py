"""The TESLA-CELAB benchmark on newstest2021 en-zh (two segments)."""

import pytest


def test_bench_writes_rankings_agreement_and_speed(tmp_path):
    from evalcore.resources import shared_data_dir
    from benchmarks.mteval import celab as bench

    root = shared_data_dir() / "mt" / "wmt21-en-zh"
    if not root.is_dir():
        pytest.skip("newstest2021 en-zh is not beside this checkout")
    report = bench.run(tmp_path, n_segments=2, n_boot=20, speed_sample=4, log=lambda _: None)
    assert len(report["systems"]) == 29 and len(report["ranking_rows"]) == 30
    assert set(report["corpus"]) == {*bench.STUDIED, *bench.BASELINES}
    assert all(s["errors"] == 0 and s["items"] == 60 for s in report["speed"].values())
    assert report["lp"]["pairs"] == 4 and all(r["variables"] > 0 for r in report["lp"]["rows"])
    assert "tesla-celab vs chrf" in (tmp_path / "celab.md").read_text()
    assert 1 <= report["reference_b_rank"]["tesla-celab"] <= 30
