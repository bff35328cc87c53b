"""Scoring that streams: batches are read as they are scored (a few ahead of the one handed on,
in worker processes too), and sufficient statistics are summed as they come, to the same floats as
the sums of the whole matrix."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.batch import AHEAD_PER_WORKER, iter_batches, score_chunk
from evalcore.metric.registry import get_metric
from evalcore.metric.statistics import StatisticSums, summed_rows


class Overlap(ReferenceMetric):
    """Share of candidate words found in the first reference."""

    name = "overlap"

    def _score_items(self, items):
        return [Score(sum(w in it.references[0].split() for w in it.candidate.split()) / len(it.candidate.split()))
                for it in items]


def _batch(k: int) -> list[Item]:
    return [Item(f"the cat {j}", (f"the cat sat {k}",), id=f"{k}.{j}") for j in range(3)]


def _batches(n: int, pulled: list[int]):
    for k in range(n):
        pulled.append(k)
        yield k, _batch(k)


@pytest.mark.parametrize("jobs", [1, 2])
def test_batches_are_read_a_few_ahead_of_the_results_handed_on(jobs):
    pulled: list[int] = []
    seen = []
    for tag, results in iter_batches([Overlap()], _batches(30, pulled), jobs=jobs):
        seen.append(tag)
        assert len(pulled) <= tag + 2 + AHEAD_PER_WORKER * jobs  # never the whole input
        assert results == score_chunk([Overlap()], _batch(tag))
    assert seen == list(range(30))


def test_sums_made_a_block_at_a_time_are_the_floats_of_the_whole_matrix():
    rng = np.random.default_rng(3)
    rows = rng.random((10_000, 2)) * 40  # fractional, as TER's average reference lengths
    assert np.array_equal(summed_rows(rows), rows.sum(axis=0))  # what corpus scores summed before
    for columns in (rows, rows[:, :1]):  # one column too, which ndarray.sum adds pairwise
        running: np.ndarray | None = None
        for start in range(0, len(columns), 777):
            running = summed_rows(columns[start:start + 777], running)
        assert running is not None and np.array_equal(running, summed_rows(columns))


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_statistic_sums_give_the_corpus_score_of_every_segment_kept(name):
    metric = get_metric(name)
    rng = np.random.default_rng(5)
    words = "the a cat sat on mat dog ran far away".split()
    items = [Item(" ".join(rng.choice(words, 6)), (" ".join(rng.choice(words, 7)), " ".join(rng.choice(words, 5))))
             for _ in range(StatisticSums.BLOCK + 300)]
    scores = metric.score_batch(items)
    sums = StatisticSums(metric)
    for score in scores:
        sums.append(score)
    assert sums.score() == metric.score_of_statistics(metric.statistics(scores))
    assert math.isnan(StatisticSums(metric).score().value)  # nothing scored
