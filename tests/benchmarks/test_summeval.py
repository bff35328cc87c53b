"""The SummEval benchmarks through the runner on a small slice of the public data."""

import json

import pytest

from benchmarks.__main__ import main
from evalcore.resources import ResourceError, shared_data_dir


def _shared():
    try:
        return shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
    except ResourceError:
        return None


SHARED = _shared()


@pytest.mark.skipif(SHARED is None or not SHARED.exists(), reason="../shared/data/summeval not present")
def test_bench_commands_on_a_small_slice(capsys, tmp_path):
    data = json.loads(SHARED.read_text())
    small = tmp_path / "small.json"
    small.write_text(json.dumps({k: data[k] for k in sorted(data)[:6]}))
    assert main(["summeval-speed", "--data", str(small), "--out", str(tmp_path / "speed"), "--problems", "5"]) == 0
    report = json.loads((tmp_path / "speed" / "speed.json").read_text())
    assert report["summaries"]["n_pairs"] == 6 * 16 * 11
    assert max(report["lp"]["max_abs_objective_diff_vs_pulp_highs"].values()) < 1e-6
    assert main(["summeval", "--data", str(small), "--out", str(tmp_path / "se"), "--bootstrap", "50"]) == 0
    result = json.loads((tmp_path / "se" / "summeval.json").read_text())
    rel = result["settings"]["all"]["correlations"]["system"]["relevance"]
    assert set(rel["tesla-s"]) == {"pearson", "spearman", "kendall"}
    assert (tmp_path / "se" / "summeval_system_scatter.png").stat().st_size > 1000
