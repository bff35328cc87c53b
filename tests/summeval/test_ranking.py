"""Ranking systems when some miss topics, lose a topic's references, or score lower-is-better."""

import json
import shutil
from pathlib import Path

import pytest

from evalcore.data.records import SummaryItem
from summeval.cli import main
from summeval.pipeline import SummaryResult, aggregate_systems, score_items
from summeval.tesla_s.metric import TeslaS
from tests.summeval.named import LowerNamed, Named

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"


def result(topic, system, value):
    return SummaryResult(topic, system, {"m": value})


def score_json(capsys, models: Path, peers: Path, *extra) -> tuple[int, dict, str]:
    code = main(["score", "--models", str(models), "--peers", str(peers), "--format", "json", *extra])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def demo_copy(tmp_path: Path) -> Path:
    root = tmp_path / "tac"
    for part in ("models", "peers"):
        shutil.copytree(DEMO / part, root / part)
    return root


def test_a_partial_system_is_unranked_and_the_rest_ranked_on_every_topic():
    results = [result("easy", "full", 0.9), result("hard1", "full", 0.1), result("hard2", "full", 0.1),
               result("easy", "other", 0.2), result("hard1", "other", 0.5), result("hard2", "other", 0.5),
               result("easy", "partial", 0.8)]
    systems, rankings = aggregate_systems(results, [Named()])
    by = {s.system: s for s in systems}
    # on "easy" alone, full (0.9) beats other (0.2); over every topic other wins
    assert by["other"].rank["m"] == 1 and by["full"].rank["m"] == 2 and by["partial"].rank["m"] is None
    assert by["other"].rank_scores["m"] == pytest.approx(1.2 / 3) == by["other"].scores["m"]
    assert by["partial"].coverage == {"m": 1} and by["partial"].rank_scores == {}
    assert rankings["m"].topics == ("easy", "hard1", "hard2") and rankings["m"].unranked == ("partial",)
    assert [s.system for s in systems] == ["other", "full", "partial"]


def test_ranks_follow_the_metric_orientation():
    results = [result("t", "a", 0.1), result("t", "b", 0.5), result("t", "c", 0.5)]
    systems, rankings = aggregate_systems(results, [LowerNamed()])
    assert [(s.system, s.rank["m"]) for s in systems] == [("a", 1), ("b", 2), ("c", 2)]
    assert rankings["m"].lower_is_better and rankings["m"].as_dict()["order"] == "lower is better"
    systems, _ = aggregate_systems(results, [Named()])
    assert {s.system: s.rank["m"] for s in systems} == {"a": 3, "b": 1, "c": 1}


def test_an_unscorable_summary_unranks_its_system_not_the_topic():
    # over the size cap: an error record (an empty summary would be scored, as the worst summary)
    ref = ("the council approved the budget for two new schools",)
    items = [SummaryItem(t, s, "word " * 30_000 if (t, s) == ("t2", "b") else f"the council approved {s} {t}", ref)
             for t in ("t1", "t2", "t3") for s in ("a", "b", "c")]
    systems, rankings = aggregate_systems(score_items(items, [TeslaS()]), [TeslaS()])
    by = {s.system: s for s in systems}
    assert by["b"].rank["tesla-s"] is None and by["b"].coverage == {"tesla-s": 2}
    assert rankings["tesla-s"].topics == ("t1", "t2", "t3") and rankings["tesla-s"].unranked == ("b",)


def test_a_topic_no_system_has_a_value_for_is_named():
    results = [result("t1", "a", 0.5), result("t1", "b", 0.4),
               SummaryResult("t2", "a", {}, {"m": "x:3: reference 1 is empty"}),
               SummaryResult("t2", "b", {}, {"m": "x:4: reference 1 is empty"})]
    systems, rankings = aggregate_systems(results, [Named()])
    assert rankings["m"].unscored == {"t2": "x:3: reference 1 is empty"} and rankings["m"].topics == ("t1",)
    assert rankings["m"].as_dict()["unscored_topics"] == {"t2": "x:3: reference 1 is empty"}
    assert [s.rank["m"] for s in systems] == [1, 2]


def test_demo_with_a_one_topic_fifth_system(capsys, tmp_path):
    root = demo_copy(tmp_path)
    (root / "peers" / "D0001-A.M.100.A.5").write_text("The council approved the budget on Monday.\n")
    code, doc, _ = score_json(capsys, root / "models", root / "peers")
    by = {s["system"]: s for s in doc["systems"]}
    assert code == 0 and by["5"]["rank"]["tesla-s"] is None and by["5"]["coverage"]["tesla-s"] == "1/3"
    assert by["4"]["rank"]["tesla-s"] < by["2"]["rank"]["tesla-s"]  # 0.2634 over 0.1716 on all three topics
    for s in ("1", "2", "3", "4"):  # the value each rank compares is the system's mean over every topic
        assert by[s]["rank_scores"] == pytest.approx(by[s]["scores"])
    assert all(r["topics"] == 3 and r["unranked"] == ["5"] for r in doc["ranking"].values())
    main(["score", "--models", str(root / "models"), "--peers", str(root / "peers"), "-m", "tesla-s"])
    text = capsys.readouterr().out
    assert "| -    | 5      | 1/3    | 0.0392 (-, 1/3 topics) |" in text
    assert "| 2    | 4      | 3/3    | 0.2634 (2)" in text


@pytest.mark.parametrize("model, why", [("\0\0\0", "binary data"), ("word " * 30000, "too long")])
def test_a_topic_that_would_lose_its_reference_stops_the_run_naming_it(capsys, tmp_path, model, why):
    """A model summary no metric can read would take its topic out of every ranking: the run stops
    (exit 2) naming the topic and the file, rather than ranking on the other topics."""
    root = demo_copy(tmp_path)
    (root / "models" / "D0002-A.M.100.A.B").write_text(model)
    code = main(["score", "--models", str(root / "models"), "--peers", str(root / "peers"), "-m", "tesla-s",
                 "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "topic 'D0002-A'" in err and "D0002-A.M.100.A.B" in err and why in err


def test_a_topic_no_metric_could_score_is_reported_with_the_ranking_basis(capsys, tmp_path, monkeypatch):
    """Where a metric cannot score any peer of a topic (its own size cap below the model's length),
    the ranking names the topic and compares the others."""
    from summeval.tesla_s.metric import TeslaS

    root = demo_copy(tmp_path)
    (root / "models" / "D0002-A.M.100.A.B").write_text("word " * 600)
    monkeypatch.setattr(TeslaS, "max_chars", 2000)
    code, doc, err = score_json(capsys, root / "models", root / "peers", "-m", "tesla-s")
    assert code == 1 and "4 of 12 summaries" in err
    ranking = doc["ranking"]["tesla-s"]
    assert ranking["topics"] == 2 and list(ranking["unscored_topics"]) == ["D0002-A"]
    main(["score", "--models", str(root / "models"), "--peers", str(root / "peers"), "-m", "tesla-s"])
    text = capsys.readouterr().out
    assert "tesla-s: no system has a value on D0002-A (" in text and "compare the other 2 of 3 topics" in text


def test_an_unscorable_peer_file_leaves_its_system_unranked_not_the_others(capsys, tmp_path):
    root = demo_copy(tmp_path)
    (root / "peers" / "D0002-A.M.100.A.3").write_text("word " * 1000)  # over --max-chars: an error record
    code, doc, err = score_json(capsys, root / "models", root / "peers", "-m", "tesla-s", "--max-chars", "3000")
    by = {s["system"]: s for s in doc["systems"]}
    assert code == 1 and "1 of 12 summaries" in err
    assert by["3"]["rank"]["tesla-s"] is None and by["3"]["coverage"]["tesla-s"] == "2/3"
    assert doc["ranking"]["tesla-s"]["topics"] == 3 and doc["ranking"]["tesla-s"]["unranked"] == ["3"]
    assert [by[s]["rank"]["tesla-s"] for s in ("1", "4", "2")] == [1, 2, 3]
