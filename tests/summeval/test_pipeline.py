import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from evalcore.data.records import SummaryItem
from evalcore.data.tac import read_tac
from evalcore.metric import InputLimits, Item, Metric, ReferenceMetric, Score
from evalcore.metric.registry import build_metrics
from evalcore.metric.statistics import SufficientStatistics
from summeval.metrics import Rouge, RougeSU, TeslaS
from summeval.pipeline import SummaryResult, aggregate_systems, score_items
from tests.summeval.named import Named

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
NAMES = ["tesla-s", "rouge-2", "rouge-su4"]


def metrics():
    return [TeslaS(), Rouge("rouge-2"), RougeSU(4)]


class Fragile(ReferenceMetric):
    """A metric that cannot score a candidate mentioning "storm" (as a parser that gives up)."""

    name = "fragile"

    def __init__(self):
        pass

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        if any("storm" in it.candidate for it in items):
            raise RuntimeError("cannot parse a storm")
        return [Score(float(len(it.candidate))) for it in items]


def test_bad_items_get_error_records_not_dropped():
    items = [SummaryItem("t1", "a", "cats chase mice", ("cats chase mice",), "x:1"),
             SummaryItem("t1", "b", "   ", ("cats chase mice",), "x:2"),
             SummaryItem("t1", "c", "dogs", ("",), "x:3")]
    results = score_items(items, metrics())
    assert [r.system for r in results] == ["a", "b", "c"]
    assert results[0].ok and results[0].scores["tesla-s"] == pytest.approx(1.0)
    # an empty summary is scored (the worst kind), with a note; an empty reference is an error
    assert results[1].ok and results[1].scores["tesla-s"] == 0 and not results[1].errors
    assert results[2].errors["tesla-s"] == "x:3: reference 1 is empty"
    systems, rankings = aggregate_systems(results, metrics())
    by = {s.system: s for s in systems}
    assert by["c"].n_errors == 1 and math.isnan(by["c"].scores["tesla-s"])
    assert by["c"].rank["tesla-s"] is None and rankings["tesla-s"].unranked == ("c",)


def test_one_metric_failing_costs_only_its_own_values():
    items = [SummaryItem("t1", "a", "rain falls on the plain", ("rain falls on the plain",), "x:1"),
             SummaryItem("t1", "b", "a storm hits the coast", ("rain falls on the plain",), "x:2")]
    results = score_items(items, [TeslaS(), Fragile()])
    assert results[0].ok and set(results[0].scores) == {"tesla-s", "fragile"}
    assert set(results[1].scores) == {"tesla-s"} and "cannot parse a storm" in results[1].errors["fragile"]


def test_oversized_summary_is_an_error_record_naming_it():
    long = "word " * 40
    items = [SummaryItem("t1", "a", "short summary", ("a short summary",), "in.jsonl:1"),
             SummaryItem("t1", "b", long, ("a short summary",), "in.jsonl:2")]
    results = score_items(items, metrics(), limits=InputLimits(max_chars=100))
    assert results[0].ok
    assert set(results[1].errors) == set(NAMES) and "too long (200 characters > 100" in results[1].errors["tesla-s"]


def test_demo_ranking_and_parallel_jobs_agree():
    items = read_tac(DEMO / "models", DEMO / "peers")
    serial = score_items(items, metrics())
    parallel = score_items(items, metrics(), jobs=2, chunk_size=4)  # three tasks, two workers
    assert serial == parallel
    systems, _ = aggregate_systems(serial, metrics())
    assert systems[0].system == "1" and systems[0].rank == {n: 1 for n in NAMES}
    assert serial[0].components["tesla-s"]["unigram_f"] > 0 and set(serial[0].components["rouge-2"]) == {
        "precision", "recall", "f"}


def test_ties_share_a_rank():
    items = [SummaryItem("t", s, "same words here", ("same words here",)) for s in ("x", "y")]
    systems, _ = aggregate_systems(score_items(items, [TeslaS()]), [TeslaS()])
    assert [s.rank["tesla-s"] for s in systems] == [1, 1]


def test_shared_rule_ranks_on_the_topics_every_ranked_system_has():
    # "partial" skipped the two hard topics; averaged over its one easy topic it would rise above
    # "full", which beats it on that very topic
    def result(topic, system, value):
        return SummaryResult(topic, system, {"m": value})

    results = [result("easy", "full", 0.9), result("hard1", "full", 0.1), result("hard2", "full", 0.1),
               result("easy", "partial", 0.8)]
    systems, rankings = aggregate_systems(results, [Named()], rule="shared")
    by = {s.system: s for s in systems}
    assert by["full"].rank["m"] == 1 and by["partial"].rank["m"] == 2
    assert by["partial"].missing_topics == ("hard1", "hard2") and by["full"].missing_topics == ()
    assert by["full"].scores["m"] == pytest.approx(1.1 / 3) and by["full"].rank_scores == {"m": 0.9}
    assert rankings["m"].topics == ("easy",) and rankings["m"].n_topics == 3


def test_shared_rule_leaves_out_systems_sharing_no_topic_with_the_rest():
    results = [SummaryResult(t, s, {"m": v}) for t, s, v in
               [("t1", "a", 0.5), ("t2", "a", 0.25), ("t1", "b", 0.625), ("t2", "b", 0.125), ("t3", "c", 0.9)]]
    systems, rankings = aggregate_systems(results, [Named()], rule="shared")
    by = {s.system: s for s in systems}
    assert by["c"].rank["m"] is None and rankings["m"].unranked == ("c",)
    assert (by["a"].rank["m"], by["b"].rank["m"]) == (1, 1)  # 0.375 each on t1 and t2


def test_build_metrics_keeps_what_a_name_stands_for():
    built = build_metrics(["tesla-s", "tesla-s-pos", "rouge-2"],
                          {"tesla-s": {"multi_ref": "mean", "function_words": None},
                           "tesla-s-pos": {"multi_ref": "mean", "function_words": "list"}})
    assert [m.name for m in built] == ["tesla-s", "tesla-s-pos", "rouge-2"]
    tesla_s, tesla_s_pos, rouge_2 = built
    assert isinstance(tesla_s, TeslaS) and isinstance(tesla_s_pos, TeslaS) and isinstance(rouge_2, Rouge)
    assert tesla_s.multi_ref == "mean" and tesla_s_pos.function_words == "pos" and rouge_2.stem is True
    with pytest.raises(ValueError, match="multi_ref"):
        build_metrics(["tesla-s"], {"tesla-s": {"multi_ref": "median"}})


def test_dicomer_and_every_cremer_share_one_analysis_and_score_per_summary(tmp_path, monkeypatch):
    """``--metric all``'s DICOMER metric and the DICOMER inside each CREMER parse, featurise and
    score each summary once, not four times."""
    from coherence.dicomer import metric as dicomer_metric
    from coherence.dicomer.analysis import AnalysisCache
    from coherence.dicomer.model import DicomerModel

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    dicomer_metric.clear_engines()
    calls = {"texts analysed": 0, "texts featurised": 0}
    analyse_new, features = AnalysisCache._analyse_new, DicomerModel.features

    def counted_analyse(self, keys, texts, sentences):
        calls["texts analysed"] += len(texts)
        return analyse_new(self, keys, texts, sentences)

    def counted_features(self, analyses):
        calls["texts featurised"] += len(analyses)
        return features(self, analyses)

    monkeypatch.setattr(AnalysisCache, "_analyse_new", counted_analyse)
    monkeypatch.setattr(DicomerModel, "features", counted_features)
    items = read_tac(DEMO / "models", DEMO / "peers")
    results = score_items(items, build_metrics(["dicomer", "cremer-lf", "cremer-rbf", "cremer-pf"]))
    assert all(r.ok for r in results)
    unique = len({it.summary for it in items})
    assert calls == {"texts analysed": unique, "texts featurised": unique}
    assert all(r.components[name]["dicomer"] == r.scores["dicomer"] for r in results
               for name in ("cremer-lf", "cremer-rbf", "cremer-pf"))


class Ratio(SufficientStatistics, Metric):
    """Hits over total, summed over summaries first: a metric with its own corpus rule."""

    name = "ratio"

    def statistic_names(self):
        return ("hits", "total")

    def corpus_from_statistics(self, summed):
        summed = np.atleast_2d(summed)
        return summed[:, 0] / summed[:, 1]

    def _score_items(self, items):
        raise AssertionError("hand-made results are never scored")


def test_system_scores_are_each_metrics_own_aggregate():
    # one hit of one on t1, none of three on t2: the metric's corpus score is 1/4, the mean 1/2
    results = [SummaryResult(t, "a", {"ratio": v}, components={"ratio": {"hits": h, "total": n}})
               for t, v, h, n in (("t1", 1.0, 1, 1), ("t2", 0.0, 0, 3))]
    systems, _ = aggregate_systems(results, [Ratio()])
    assert systems[0].scores["ratio"] == 0.25 and systems[0].rank_scores["ratio"] == 0.25
