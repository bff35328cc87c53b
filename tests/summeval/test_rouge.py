import pytest
from rouge_score import rouge_scorer

from summeval.metrics import RougeN, RougeSU


def test_rouge_n_is_rouge_score():
    ref, cand = "The cats were chasing the mice in the garden.", "Cats chased mice in a garden."
    expected = rouge_scorer.RougeScorer(["rouge2"], use_stemmer=True).score(ref, cand)["rouge2"]
    assert RougeN("rouge-2").score(ref, cand).value == pytest.approx(expected.recall)
    assert RougeN("rouge-2", "f").score(ref, cand).value == pytest.approx(expected.fmeasure)


def test_rouge_su4_hand_computed_with_rouge_155_unigram_rule():
    # reference a b c: skip-bigrams ab ac bc + unigrams of all tokens but the last (a, b) = 5
    # candidate a c:   skip-bigram ac + unigram a = 2; overlap ac + a = 2
    s = RougeSU(4).score("a b c", "a c")
    assert s.recall == pytest.approx(2 / 5)
    assert s.precision == pytest.approx(1.0)


def test_rouge_su4_window_and_multi_reference_max():
    ref = "w1 w2 w3 w4 w5 w6 w7"
    # (w1, w6) has four words between: counted; (w1, w7) five: not counted
    assert RougeSU(4).score(ref, "w1 w6").recall > RougeSU(4).score(ref, "w1 w7").recall
    one = RougeSU(4).score("x y z", "x y")
    both = RougeSU(4).score(["p q r", "x y z"], "x y")
    assert both.value == pytest.approx(one.value)


def test_bad_measure_and_type():
    with pytest.raises(ValueError):
        RougeN("rouge-9")
    with pytest.raises(ValueError):
        RougeSU(4, measure="precision")
