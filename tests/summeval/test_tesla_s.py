import pytest

from summeval.metrics import TeslaS, get_metric
from summeval.metrics.multiref import combine


def test_hand_computed_without_function_words():
    s = TeslaS().score("cats chase mice", "cats chase dogs")
    assert s.unigram_f == pytest.approx(2 / 3)
    assert s.skip_bigram_f == pytest.approx(1 / 3)
    assert s.value == pytest.approx(0.5)


def test_function_words_are_discounted_by_a_tenth():
    s = TeslaS().score("the cat sleeps", "a cat sleeps")
    assert s.unigram_f == pytest.approx(2 / 2.1)
    assert s.skip_bigram_f == pytest.approx(1 / 1.2)
    no_discount = TeslaS(function_words="none").score("the cat sleeps", "a cat sleeps")
    assert no_discount.unigram_f == pytest.approx(2 / 3)


def test_alpha_weights_recall():
    s = TeslaS().score("cats chase mice quickly", "cats chase")
    p, r = 1.0, 0.5
    assert s.unigram_f == pytest.approx(p * r / (0.8 * p + 0.2 * r))
    assert TeslaS(alpha=0.5).score("cats chase mice quickly", "cats chase").unigram_f == pytest.approx(2 / 3)


def test_identical_and_disjoint_texts():
    assert TeslaS().score("A quick brown fox jumps.", "a quick brown fox jumps .").value == pytest.approx(1.0)
    assert TeslaS().score("red green blue", "cats dogs").value == 0.0


def test_multi_reference_modes():
    refs = ["cats chase mice", "dogs chase cats", "birds fly"]
    cand = "cats chase dogs"
    singles = [TeslaS().score(r, cand).value for r in refs]
    assert TeslaS().score(refs, cand).value == pytest.approx(max(singles))
    assert TeslaS(multi_ref="mean").score(refs, cand).value == pytest.approx(sum(singles) / 3)
    loo = [max(singles[:k] + singles[k + 1:]) for k in range(3)]
    assert TeslaS(multi_ref="jackknife").score(refs, cand).value == pytest.approx(sum(loo) / 3)


def test_jackknife_combine_matches_definition():
    import numpy as np

    v = np.array([0.2, 0.9, 0.5, 0.9])
    loo = [max(np.delete(v, k)) for k in range(4)]
    assert combine(v, "jackknife") == pytest.approx(np.mean(loo))


def test_batch_equals_one_by_one():
    metric = TeslaS()
    items = [(["the cat sat on the mat", "a cat was on a mat"], "the cat is on the mat"),
             (["dogs bark loudly at night"], "at night dogs bark"),
             (["dogs bark loudly at night"], "the cat is on the mat")]
    batch = metric.score_batch(items)
    assert [b.value for b in batch] == pytest.approx([TeslaS().score(r, c).value for r, c in items])


def test_signature_names_settings():
    sig = get_metric("tesla-s", multi_ref="jackknife", stem=True).signature()
    assert sig.startswith("tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:jackknife|")
    assert "stem:porter" in sig and "v:" in sig


def test_bad_options_raise():
    with pytest.raises(ValueError):
        TeslaS(multi_ref="median")
    with pytest.raises(ValueError):
        TeslaS(alpha=1.5)
    with pytest.raises(ValueError, match="unknown metric"):
        get_metric("bleu")
