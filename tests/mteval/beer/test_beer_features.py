"""BEER's alignment and feature families on hand-made pairs (segments built by hand, so the
tagger does not decide the expected values)."""

import pytest

from mteval.beer.align import align, permutation
from mteval.beer.features import FEATURES, char_features, char_ngrams, features, prf, word_features
from mteval.lexical.preprocess import Segment


def seg(spec: str) -> Segment:
    """'word/lemma/TAG/f' tokens (f marks a function word)."""
    parts = [t.split("/") for t in spec.split()]
    return Segment(tuple(p[0] for p in parts), tuple(p[1] for p in parts), tuple(p[2] for p in parts),
                   tuple(len(p) > 3 for p in parts))


HYP = seg("the/the/DT/f big/big/JJ dogs/dog/NNS were/be/VBD/f running/run/VBG")
REF = seg("a/a/DT/f large/large/JJ dog/dog/NN ran/run/VBD")


def test_alignment_stages():
    # exact: none; stem: dogs~dog; synonym: big~large, running~ran (lemma run); the/a, were unlinked
    assert align(HYP, REF) == [(1, 1), (2, 2), (4, 3)]


def test_alignment_prefers_the_closer_of_equal_words():
    hyp = seg("the/the/DT/f cat/cat/NN and/and/CC/f the/the/DT/f dog/dog/NN")
    ref = seg("the/the/DT/f dog/dog/NN and/and/CC/f the/the/DT/f cat/cat/NN")
    links = align(hyp, ref)
    assert (0, 0) in links and (3, 3) in links and (1, 4) in links and (4, 1) in links
    assert permutation(links) == [1, 5, 3, 4, 2]


def test_word_features_by_kind():
    values = dict(zip(("func_p", "func_r", "func_f", "cont_p", "cont_r", "cont_f", "all_p", "all_r", "all_f"),
                      word_features(HYP, REF, align(HYP, REF))))
    assert values["func_p"] == 0 and values["func_r"] == 0 and values["func_f"] == 0
    assert values["cont_p"] == 1 and values["cont_r"] == 1 and values["cont_f"] == 1
    assert values["all_p"] == pytest.approx(3 / 5) and values["all_r"] == pytest.approx(3 / 4)
    assert values["all_f"] == pytest.approx(2 * 0.6 * 0.75 / 1.35)


def test_prf_empty_sides():
    assert prf(0, 0, 0, 0) == (1.0, 1.0, 1.0)
    assert prf(0, 0, 0, 3) == (0.0, 0.0, 0.0)
    assert prf(1, 2, 1, 4) == pytest.approx((0.5, 0.25, 1 / 3))


def test_char_ngrams():
    assert char_ngrams("Ab c", 2) == {"ab": 1, "bc": 1}
    values = char_features("abcd", "abce")
    # n = 1: 3 of 4 each way; n = 2: ab, bc of 3; n = 3: abc of 2; n = 4: none; n = 5, 6: neither has any
    assert values[0:3] == pytest.approx([0.75, 0.75, 0.75])
    assert values[3:6] == pytest.approx([2 / 3, 2 / 3, 2 / 3])
    assert values[6:9] == pytest.approx([0.5, 0.5, 0.5])
    assert values[9:12] == [0.0, 0.0, 0.0]
    assert values[12:18] == [1.0] * 6


def test_char_ngrams_are_clipped():
    p, r, f = char_features("aaaa", "aa")[0:3]
    assert (p, r) == (0.5, 1.0)


def test_full_vector_of_an_identical_pair():
    x = features("a large dog ran", "a large dog ran", REF, REF)
    assert len(x) == len(FEATURES) == 33
    assert list(x) == [1.0] * 27 + [1.0, 0.0, 0.0, 0.0, 1.0, 1.0]


def test_fluency_part_follows_the_alignment():
    hyp = seg("ran/run/VBD dog/dog/NN large/large/JJ")
    ref = seg("large/large/JJ dog/dog/NN ran/run/VBD")
    x = dict(zip(FEATURES, features("ran dog large", "large dog ran", hyp, ref)))
    assert x["pet_inv"] == 1.0 and x["pet_mono"] == 0.0 and x["kendall"] == 0.0 and x["pet_count"] == 1.0
