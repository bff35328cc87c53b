"""The entity grid, permutation generation and DICOMER's ranking model (spec 5.2, 7.6)."""

import numpy as np
import pytest

from coherence.dicomer.analysis import Analysis, permutations
from coherence.dicomer.config import DicomerConfig
from coherence.dicomer.entity_grid import build_grid, grid_features, grid_role
from coherence.dicomer.matrix import Token, transitions
from coherence.dicomer.model import DicomerModel, permutation_training_set


def test_entity_grid_tiny_example():
    # B&L style: "judge" S in s0, O in s1 (S wins over X in s0), absent in s2; "microsoft" X in s2
    mentions = [(0, "judg", "X"), (0, "judg", "S"), (1, "judg", "O"), (2, "microsoft", "X"),
                (0, "case", "O")]
    grid = build_grid(mentions, 3)
    assert grid.cell("judg", 0) == {"S"} and grid.cell("judg", 1) == {"O"}
    counts, total = transitions(grid, grid.terms, 2, nil="-")
    assert total == 6
    assert counts[("S", "O")] == 1 and counts[("-", "-")] == 2
    feats = grid_features(grid, DicomerConfig())
    assert feats["eg|sal|2|S O"] == pytest.approx(0.5)      # judg is the only salient entity
    assert feats["eg|sal|3|S O -"] == pytest.approx(1.0)
    assert feats["eg|non|2|- -"] == pytest.approx(2 / 4)    # nil-only kept, as in B&L
    assert grid_role("nsubjpass") == "S" and grid_role("dobj") == "O" and grid_role("pobj") == "X"


def test_permutations_seeded_and_never_identity():
    a, b = permutations(5, 20, seed=7), permutations(5, 20, seed=7)
    assert a == b and len(a) == 20 and len(set(a)) == 20
    assert tuple(range(5)) not in a
    assert len(permutations(3, 20, seed=0)) == 5
    assert permutations(1, 20, seed=0) == []


def _doc(order: list[str]) -> Analysis:
    toks = []
    for s, word in enumerate(order):
        toks.append(Token(s, 10 * s, 10 * s + 3, word, "S" if s % 2 == 0 else "O"))
    return Analysis(len(order), tuple(toks), ())


def test_dicomer_model_trains_on_permutations_with_entity_grid():
    originals = [_doc(["a", "a", "b", "b"]), _doc(["c", "c", "d", "d"]), _doc(["e", "e", "f", "f"])]
    permuted = [[_doc(["a", "b", "a", "b"]), _doc(["b", "a", "b", "a"])] for _ in originals]
    texts, y, groups = permutation_training_set(originals, permuted)
    assert list(y[:3]) == [1.0, 0.0, 0.0] and len(set(groups)) == 3
    model = DicomerModel("EGRID", C=1.0).fit(texts, y, groups)
    scores = model.decision_function(texts)
    assert scores[0] > scores[1] and scores[0] > scores[2]
    logs = model.log_score(scores)
    assert np.all(np.isfinite(logs)) and np.argmax(logs) == np.argmax(scores)
    assert model.neutral_score_ == pytest.approx(np.median(scores))
    # a text without transitions is neither good nor bad: the median, not w . 0 = 0.0
    assert model.decision_function([Analysis(0, (), ())])[0] == model.neutral_score_


def test_one_sentence_texts_get_the_place_the_ranker_learned():
    from coherence.dicomer.model import DicomerModel

    one, good, poor = {"text|one_sentence": 1.0}, {"sal|2|Exp.Arg1>Exp.Arg2": 0.6}, {"sal|2|nil>Exp.Arg1": 0.6}
    feats = [one, good, poor] * 4
    # no analyses: the features stand for the texts
    model = DicomerModel("DICOMER").fit([], [5, 3, 1] * 4, [g for g in range(4) for _ in range(3)], feats)
    s_one, s_good, s_poor = model.decision_function(features=[one, good, poor])
    assert s_one > s_good > s_poor  # rated most coherent in training, ranked first
    assert model.decision_function(features=[{}])[0] == model.neutral_score_
