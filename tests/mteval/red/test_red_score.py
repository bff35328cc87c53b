"""RED's match scores and F-measure: the spec's distance example and a pair computed by hand."""

import math

import numpy as np
import pytest

from mteval.red.depngrams import DepTree, dep_ngrams
from mteval.red.score import BLOCK, LEN_H, Weights, best_chain_score, distance_score, exact_stats, fmeasures, values

RED = Weights.one(0.5, None, (1.0, 0.0, 0.0), 0.0, (1 / 3, 1 / 3, 1 / 3))


def test_distance_score_of_the_spec_example():
    # saw(2) -> with(5) -> magnifier(7) in the reference; saw(2), with(5), magnifier(6) in the hypothesis
    assert distance_score((2, 5, 7), (2, 5, 6)) == pytest.approx(math.exp(-0.5))
    assert distance_score((2, 5, 7), (2, 5, 7)) == 1.0
    assert distance_score((4,), (9,)) == 1.0


def test_distance_score_needs_the_reference_order():
    assert distance_score((2, 5, 7), (2, 6, 5)) == 0.0
    # a dependent before its head in the reference must be before it in the hypothesis too
    assert distance_score((3, 1), (0, 2)) == 0.0
    assert distance_score((3, 1), (2, 0)) == 1.0


def test_best_occurrence_is_taken():
    # second word occurs at 3 and 6 in the hypothesis; the reference distance 3 is met by 6
    assert best_chain_score((0, 3), [(3,), (4, 6)]) == pytest.approx(1.0)
    assert best_chain_score((0, 3), [(3,), ()]) == 0.0


def test_f_measure_on_a_hand_computed_pair():
    # reference "cats chase mice": chase root, cats and mice depend on it
    tree = DepTree(("cats", "chase", "mice"), (1, -1, 1), (False,) * 3)
    grams = dep_ngrams(tree)
    # D1 = 3 words; D2 = chains chase-cats, chase-mice + fixed "cats chase", "chase mice" = 4;
    # D3 = fixed "cats chase mice" = 1 (no 3-word chain)
    assert [grams.count(n) for n in (1, 2, 3)] == [3, 4, 1]
    hyp = ("the", "cats", "chase", "big", "mice")
    stats = exact_stats(tree, grams, hyp)
    assert stats[LEN_H] == 5
    # n = 1: 3 words matched -> P = 3/5, R = 3/3, F = 2PR/(P+R) = 0.75
    # n = 2: chain chase->cats: ref (1, 0) hyp (2, 1) -> 1; chase->mice: ref distance 1, hyp 2 -> exp(-1);
    #        "cats chase" contiguous -> 1; "chase mice" not -> 0: matched = 2 + e^-1
    # n = 3: "cats chase mice" not contiguous -> 0
    m2 = 2 + math.exp(-1)
    f1 = 2 * 0.6 * 1.0 / 1.6
    p2, r2 = m2 / 5, m2 / 4
    f2 = 2 * p2 * r2 / (p2 + r2)
    f = fmeasures(stats, RED)[0, 0]
    assert f == pytest.approx([f1, f2, 0.0])
    assert values(stats, RED)[0, 0] == pytest.approx((f1 + f2) / 3)
    # alpha moves weight between P and R: F = PR / (alpha P + (1 - alpha) R)
    recall_heavy = Weights.one(0.9, None, (1.0, 0.0, 0.0), 0.0, (1.0, 0.0, 0.0))
    assert values(stats, recall_heavy)[0, 0] == pytest.approx(0.6 / (0.9 * 0.6 + 0.1))


def test_a_hypothesis_without_words_scores_zero():
    tree = DepTree(("yes",), (-1,), (False,))
    stats = exact_stats(tree, dep_ngrams(tree), ())
    assert values(stats, RED)[0, 0] == 0.0


def test_settings_are_scored_at_once():
    tree = DepTree(("cats", "chase", "mice"), (1, -1, 1), (False,) * 3)
    stats = np.array([exact_stats(tree, dep_ngrams(tree), h) for h in (("cats", "chase", "mice"), ("mice",))])
    many = Weights(np.array([0.5, 0.9]), np.array([np.nan, np.nan]), np.array([[1.0, 0, 0]] * 2), np.zeros(2),
                   np.array([[1 / 3] * 3, [0.6, 0.5, 0.1]]))
    one = Weights.one(0.9, None, (1.0, 0, 0), 0.0, (0.6, 0.5, 0.1))
    assert values(stats, many)[1] == pytest.approx(values(stats, one)[0])
    assert stats.shape[1] == 3 * BLOCK + 1
