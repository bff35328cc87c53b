"""System ranks follow the metric's orientation (``lower_is_better``)."""

from evalcore.metric import ReferenceFreeMetric, Score
from parapeval.report import Row, system_summary


class Length(ReferenceFreeMetric):
    """Words in the candidate; fewer is better (an edit-count-like metric)."""

    name = "length"
    lower_is_better = True

    def _score_items(self, items):
        return [Score(float(len(it.candidate.split()))) for it in items]


def test_a_lower_is_better_metric_ranks_the_smallest_mean_first():
    metric = Length()
    texts = {"short": "two words", "long": "four words in all", "mid": "three words here"}
    results = metric.score_batch(list(texts.values()))
    rows = [Row(str(k), system, {"length": r}) for k, (system, r) in enumerate(zip(texts, results))]
    assert [(e["system"], e["rank"]) for e in system_summary(metric, rows)] == [("short", 1), ("mid", 2), ("long", 3)]
