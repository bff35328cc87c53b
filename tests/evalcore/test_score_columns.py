"""ScoreColumns keeps scores as float columns and gives back the same Scores, the same
statistics matrix and the same corpus scores (exactly: the same floats in the same order)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalcore.metric.columns import ScoreColumns
from evalcore.metric.records import Score
from evalcore.metric.registry import get_metric


def _columns(scores):
    columns = ScoreColumns()
    for s in scores:
        columns.append(s)
    return columns


def test_scores_come_back_with_their_components_including_missing_and_nan_ones():
    scores = [Score(0.5, {"a": 1.0}), Score(0.25, {"a": 2.0, "b": math.nan}), Score(1.0, {"b": 3.0}), Score(0.0)]
    columns = _columns(scores)
    assert len(columns) == 4
    for got, want in zip(columns, scores):
        assert got.value == want.value
        assert list(got.components) == list(want.components)
        assert np.array_equal(list(got.components.values()), list(want.components.values()), equal_nan=True)
    assert columns[1:3][1].components == {"b": 3.0}
    assert columns.values().tolist() == [0.5, 0.25, 1.0, 0.0]


def test_a_matrix_needs_the_component_in_every_score():
    columns = _columns([Score(0.5, {"a": 1.0}), Score(0.25, {"b": 2.0})])
    with pytest.raises(ValueError, match="'a'"):
        columns.matrix(["a"])
    assert ScoreColumns().matrix(["a", "b"]).shape == (0, 2)


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter", "beer2"])
def test_corpus_scores_and_statistics_from_columns_are_those_of_the_scores(name):
    from evalcore.metric import Item
    from evalcore.metric.statistics import SufficientStatistics

    rng = np.random.default_rng(0)
    words = "the a cat sat on mat dog ran far away".split()
    items = [Item(" ".join(rng.choice(words, 8)), (" ".join(rng.choice(words, 9)),)) for _ in range(300)]
    metric = get_metric(name)
    scores = metric.score_batch(items)
    columns = _columns(scores)
    want = metric.aggregate(scores)
    got = metric.aggregate_scores(columns)
    assert got.value == want.value and dict(got.components) == dict(want.components)  # exact: same floats
    if isinstance(metric, SufficientStatistics):
        assert np.array_equal(columns.matrix(metric.statistic_names()), metric.statistics(scores))
        exact = metric.score_of_statistics(columns.matrix(metric.statistic_names()))
        assert exact.value == want.value
