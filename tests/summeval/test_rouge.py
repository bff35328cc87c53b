import pytest
from rouge_score import rouge_scorer

from evalcore.metric.registry import get_metric
from summeval.metrics import Rouge, RougeSU

REF, CAND = "The cats were chasing the mice in the garden.", "Cats chased mice in a garden."


@pytest.mark.parametrize("kind,key", [("rouge-1", "rouge1"), ("rouge-2", "rouge2"), ("rouge-l", "rougeL")])
def test_rouge_is_rouge_score_for_each_kind(kind, key):
    expected = rouge_scorer.RougeScorer([key], use_stemmer=True).score(REF, CAND)[key]
    s = Rouge(kind).score(REF, CAND)
    assert s.value == pytest.approx(expected.recall)
    assert (s.precision, s.recall, s.f) == pytest.approx((expected.precision, expected.recall, expected.fmeasure))
    assert Rouge(kind, "f").score(REF, CAND).value == pytest.approx(expected.fmeasure)
    assert set(s.components) == {"precision", "recall", "f"}


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


def test_registered_names_and_signatures_are_those_of_0_1_0():
    assert str(get_metric("rouge-2").signature()) == "rouge-2|measure:recall|refs:max|tok:rouge-score|stem:porter|v:0.1.0"
    assert str(get_metric("rouge-l-f").signature()) == "rouge-l-f|measure:f|refs:max|tok:rouge-score|stem:porter|v:0.1.0"
    assert str(get_metric("rouge-su4").signature()) == \
        "rouge-su4|skip:4|unigrams:1.5.5|measure:recall|refs:max|tok:rouge-score|stem:porter|v:0.1.0"
    assert get_metric("rouge-su4-f").name == "rouge-su4-f" and get_metric("rouge-1-f").name == "rouge-1-f"
    assert str(Rouge("rouge-2", stem=False).signature()).endswith("stem:no|v:0.1.0")


def test_bad_measure_and_type():
    with pytest.raises(ValueError):
        Rouge("rouge-9").score("a", "a")
    with pytest.raises(ValueError):
        RougeSU(4, measure="precision").score("a", "a")
