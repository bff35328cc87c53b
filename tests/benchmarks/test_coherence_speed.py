"""`python -m benchmarks coherence-speed` end to end on a few SummEval summaries: every run timed, the checks
(same DICOMER values in two cold runs, batched parser = parser one text at a time) passed, and
the report names the target and its verdict."""

from __future__ import annotations

import json
import os

import pytest

from benchmarks.__main__ import main


def test_speed_bench_writes_its_tables(tmp_path, capsys, monkeypatch):
    from evalcore.resources.registry import ResourceError, shared_data_dir

    try:
        data = shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
    except ResourceError as exc:
        pytest.skip(f"public data absent: {exc}")
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    assert main(["coherence-speed", "--out", str(tmp_path / "out"), "--limit", "12", "--rounds", "1"]) == 0
    md = capsys.readouterr().out
    report = json.loads((tmp_path / "out" / "speed.json").read_text())
    assert report["texts"] == 12 and report["data"] == str(data)
    assert set(report["seconds"]) == {"spacy_tokens", "spacy_raw", "dicomer_cold", "parser_batched", "parser_per_text"}
    assert all(t["wall"] > 0 and t["cpu"] > 0 for t in report["seconds"].values())
    assert report["traced_peak_mib"]["dicomer_cold"] > 0
    assert "DICOMER (cold cache) within 1.2x of spaCy alone" in md and ("| met" in md or "| MISSED" in md)
    assert os.environ["AESOP_CACHE"] == str(tmp_path / "cache")  # the bench's cache folders are its own
