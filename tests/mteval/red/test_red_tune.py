"""The tuning objective (segment Kendall + system Spearman per pair) and the alternating grid
search, on a hand-made ranked set (tiny: no WMT data, no parsing)."""

import numpy as np
import pytest

from mteval.data.wmt12 import Ranking
from mteval.learn.ranked import RankedSet
from mteval.red.score import LEN_H, N_STATS
from mteval.red.train import START, Objective, grid_search, output_values, weights_of

KEYS = [("cs-en", 1, "A"), ("cs-en", 1, "B"), ("cs-en", 2, "A"), ("cs-en", 2, "B")]


def _data(better="A"):
    worse = "B" if better == "A" else "A"
    rankings = [Ranking("cs-en", s, "j", (better, worse), (1, 2)) for s in (1, 2)]
    return RankedSet(KEYS, [(("ref",), "hyp")] * 4, rankings, [])


def test_objective_is_kendall_plus_spearman():
    objective = Objective.build(_data("A"), _data("A").rankings)
    got = objective(np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]]))
    # agreeing: tau 1 + rho 1; reversed: -1 - 1; all tied: tau -1 (ties count against), rho undefined -> 0
    assert got == pytest.approx([2.0, -2.0, -1.0])


def _stats(matched, length, count):
    row = np.zeros(N_STATS)
    row[1], row[8], row[LEN_H] = matched, count, length  # n = 1: exact content words, count_1(ref)
    return row


def test_grid_search_finds_the_alpha_the_judgments_want():
    # A matches every reference word in a long hypothesis (recall 1, precision 0.2); B one word of
    # two in a one-word hypothesis (precision 1, recall 0.5): recall-heavy alpha prefers A
    stats = np.array([_stats(2, 10, 2), _stats(1, 1, 2)] * 2)
    owner = np.arange(4)
    for better in ("A", "B"):
        data = _data(better)
        best, score = grid_search(stats, owner, 4, Objective.build(data, data.rankings), iterations=1)
        v = output_values(stats, owner, 4, weights_of([best]))[0]
        assert score == pytest.approx(2.0)
        assert (v[0] > v[1]) == (better == "A")
    # Table 1 (alpha 0.9) is recall-heavy: it prefers A, so only the B judgments move alpha down
    start = output_values(stats, owner, 4, weights_of([START]))[0]
    assert start[0] > start[1]
