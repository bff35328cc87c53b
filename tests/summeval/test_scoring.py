import math
from pathlib import Path

import pytest

from summeval.io import SummaryItem, read_tac
from summeval.scoring import aggregate_systems, score_items

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
NAMES = ["tesla-s", "rouge-2", "rouge-su4"]


def test_bad_items_get_error_records_not_dropped():
    items = [SummaryItem("t1", "a", "cats chase mice", ("cats chase mice",), "x:1"),
             SummaryItem("t1", "b", "   ", ("cats chase mice",), "x:2"),
             SummaryItem("t1", "c", "dogs", ("",), "x:3")]
    results = score_items(items, NAMES)
    assert [r.system for r in results] == ["a", "b", "c"]
    assert results[0].error is None and results[0].scores["tesla-s"] == pytest.approx(1.0)
    assert "x:2: candidate summary is empty" == results[1].error
    assert "x:3: reference summary #1 is empty" == results[2].error
    systems = {s.system: s for s in aggregate_systems(results, NAMES)}
    assert systems["b"].n_errors == 1 and math.isnan(systems["b"].scores["tesla-s"])
    assert systems["b"].rank["tesla-s"] == 3


def test_demo_ranking_and_parallel_jobs_agree():
    items = read_tac(DEMO / "models", DEMO / "peers")
    serial = score_items(items, NAMES)
    parallel = score_items(items, NAMES, jobs=2, chunk_size=4)  # three tasks, two workers
    assert serial == parallel
    systems = aggregate_systems(serial, NAMES)
    assert systems[0].system == "1" and systems[0].rank == {n: 1 for n in NAMES}


def test_ties_share_a_rank():
    items = [SummaryItem("t", s, "same words here", ("same words here",)) for s in ("x", "y")]
    systems = aggregate_systems(score_items(items, ["tesla-s"]), ["tesla-s"])
    assert [s.rank["tesla-s"] for s in systems] == [1, 1]
