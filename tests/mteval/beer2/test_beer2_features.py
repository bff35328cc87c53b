"""BEER 2.0 feature values checked by hand on tiny pairs (there is no runnable upstream here):
every expected number below is worked out in the comments from upstream's definitions."""

import math

import numpy as np
import pytest

from mteval.beer2.features import FeatureTemplate, LengthDisbalance, PieceFamily
from mteval.beer2.model import default_model_dir
from mteval.beer2.pieces import char_ngrams, java_chars, java_split, skip_bigrams, word_ngrams


@pytest.fixture(scope="module")
def template():
    return FeatureTemplate.from_yaml(default_model_dir() / "feature_template.yaml")


def _features(template, sys, ref):
    return dict(zip(template.feature_names(), template.values([(template.pieces(sys), template.pieces(ref))])[0]))


def test_java_split_keeps_upstreams_quirks():
    assert java_split("a  b c") == ["a", "b", "c"]      # a run of spaces is one separator
    assert java_split(" a b  ") == ["", "a", "b"]       # leading empty word kept, trailing dropped
    assert java_split("") == [""]                       # no space: the text is the one word
    assert java_split("a\tb") == ["a\tb"]               # only spaces separate
    assert java_split("   ") == []


def test_java_chars_counts_utf16_units():
    assert java_chars("abc") == "abc"
    assert len(java_chars("a\U0001F642b")) == 4          # the emoji is a surrogate pair in Java
    assert len(java_chars("für")) == 3                    # BMP letters stay one unit


def test_word_ngram_pieces_have_start_and_end_pieces():
    # "a b a", order 2: bigrams (a,b), (b,a); start (<S>,a,b); end (b,a,</S>)
    assert word_ngrams(["a", "b", "a"], 2) == {("a", "b"): 1, ("b", "a"): 1, ("<S>", "a", "b"): 1,
                                               ("b", "a", "</S>"): 1}
    # shorter than the order: no full n-gram, start and end pieces hold the whole sentence
    assert word_ngrams(["a", "b"], 3) == {("<S>", "a", "b"): 1, ("a", "b", "</S>"): 1}


def test_skip_bigram_pieces():
    # max skip 1: pairs with j - i <= 2
    assert skip_bigrams(["a", "b", "c", "d"], 1) == {("a", "b"): 1, ("a", "c"): 1, ("b", "c"): 1, ("b", "d"): 1,
                                                     ("c", "d"): 1}
    # skip 1000000: every ordered pair, 4 * 3 / 2 = 6
    assert sum(skip_bigrams(["a", "b", "c", "d"], 1000000).values()) == 6


def test_char_ngram_pieces_are_one_shorter_than_the_order():
    # CharNGram.scala takes substring(i, i + order - 1) for i in 0 .. len - order:
    # "abcd", order 3 -> "ab", "bc" (len - order + 1 = 2 pieces of 2 characters)
    assert char_ngrams("abcd", 3) == {"ab": 1, "bc": 1}
    # order 1 -> len empty strings; order 2 -> every character but the last
    assert char_ngrams("abcd", 1) == {"": 4}
    assert char_ngrams("abcd", 2) == {"a": 1, "b": 1, "c": 1}


def test_feature_values_by_hand(template):
    f = _features(template, "a b a", "a b")
    # ngram1: sys pieces (a) x2, (b), (<S>,a), (a,</S>) = 5; ref (a), (b), (<S>,a), (b,</S>) = 4;
    # clipped overlap a:1 + b:1 + start:1 = 3 -> P = 3/5, R = 3/4; a, b = min, max
    assert f["ngram1.a"] == pytest.approx(0.6)
    assert f["ngram1.b"] == pytest.approx(0.75)
    assert f["ngram1.f.1.0"] == pytest.approx(2 * 0.6 * 0.75 / (0.6 + 0.75))  # 2/3
    assert f["ngram1.g.1.0"] == pytest.approx(math.sqrt(0.6 * 0.75))
    # ngram2: sys (a,b), (b,a), start (<S>,a,b), end (b,a,</S>) = 4; ref (a,b), start, end (a,b,</S>) = 3;
    # overlap (a,b) + start = 2 -> P = 1/2, R = 2/3, F = 4/7
    assert (f["ngram2.a"], f["ngram2.b"]) == pytest.approx((0.5, 2 / 3))
    assert f["ngram2.f.1.0"] == pytest.approx(4 / 7)
    # ngram3: no piece shared (ref has only its start/end pieces) -> all 0, F defined as 0
    assert [f[f"ngram3.{k}"] for k in ("a", "b", "f.1.0", "g.1.0")] == [0, 0, 0, 0]
    # skip1: sys (a,b), (a,a), (b,a) = 3; ref (a,b) = 1; overlap 1 -> P = 1/3, R = 1, F = 1/2
    assert (f["skip1.a"], f["skip1.b"], f["skip1.f.1.0"]) == pytest.approx((1 / 3, 1, 0.5))
    # char1: "a b a" has 5 empty pieces, "a b" 3 -> overlap 3, P = 3/5, R = 1
    assert (f["char1.a"], f["char1.b"], f["char1.f.1.0"]) == pytest.approx((0.6, 1, 0.75))
    assert f["char1.g.1.0"] == pytest.approx(math.sqrt(0.6))
    # char2: sys "a"," ","b"," " (the last character left out) = 4; ref "a"," " = 2; overlap 2
    assert (f["char2.a"], f["char2.b"]) == pytest.approx((0.5, 1))
    # char3: sys "a ", " b", "b " = 3; ref "a " = 1; overlap 1
    assert (f["char3.a"], f["char3.b"]) == pytest.approx((1 / 3, 1))
    # char4: ref "a b" (3 characters) has no piece: R = 0 by definition, P = 0 / 2
    assert (f["char4.a"], f["char4.b"], f["char4.f.1.0"]) == (0, 0, 0)
    # length disbalance: words 3 vs 2 -> 3/2 - 1; characters 5 vs 3 -> 5/3 - 1
    assert f["len_disbalance_word.d.1.0"] == pytest.approx(0.5)
    assert f["len_disbalance_char.d.1.0"] == pytest.approx(2 / 3)


def test_symmetry_is_what_makes_a_and_b_min_and_max():
    fam = PieceFamily("ngram", 1, False, (1.0,), (1.0,))
    # without symmetry a = P, b = R: P = 0.6 > R = 0.5 stays in that order
    vals = fam.values(np.array([3.0]), np.array([5.0]), np.array([6.0]))[0]
    assert vals[:2] == pytest.approx([0.6, 0.5])
    sym = PieceFamily("ngram", 1, True, (2.0,), (2.0,))
    a, b, f2, g2 = sym.values(np.array([3.0]), np.array([5.0]), np.array([6.0]))[0]
    assert (a, b) == pytest.approx((0.5, 0.6))
    assert f2 == pytest.approx(5 * 0.5 * 0.6 / (4 * 0.5 + 0.6))          # (1 + beta^2) a b / (beta^2 a + b)
    assert g2 == pytest.approx((0.5 * 0.6 ** 2) ** (1 / 3))               # (a b^beta)^(1 / (1 + beta))


def test_length_disbalance_variants_and_empty_side():
    lin = LengthDisbalance(False, (1.0, 2.0))
    assert lin.feature_names() == ["len_disbalance_word.d.1.0", "len_disbalance_word.d.2.0",
                                   "len_disbalance_char.d.1.0", "len_disbalance_char.d.2.0"]
    # words 4 vs 2 -> 1, squared 1; characters 0 vs 7 -> upstream's 100000 for an empty side
    assert lin.values(np.array([4]), np.array([2]), np.array([0]), np.array([7]))[0] == \
        pytest.approx([1.0, 1.0, 1e5, 1e10])
    exp = LengthDisbalance(True, (1.0,))
    assert exp.name == "len_disbalance_exp"
    assert exp.values(np.array([4]), np.array([2]), np.array([3]), np.array([3]))[0] == \
        pytest.approx([math.exp(2) - math.e, 0.0])


def test_every_model_feature_is_produced(template):
    from mteval.beer2.model import Beer2Model

    model = Beer2Model(default_model_dir())
    assert sorted(template.feature_names()) == sorted(model.names)
    assert len(model.names) == 62


def test_char1_b_is_constant_and_its_weight_is_zero(template):
    """The default model confirms the character-piece reading: char1.b (max(P, R) of ``len``
    empty pieces against ``len'``) is 1 for every pair, so training gave it weight exactly 0."""
    from mteval.beer2.model import Beer2Model

    model = Beer2Model(default_model_dir())
    assert model.weights[model.names.index("char1.b")] == 0.0
    for sys, ref in [("a b a", "a b"), ("Das ist gut .", "This is good ."), ("x", "a much longer one")]:
        assert _features(template, sys, ref)["char1.b"] == 1.0


def test_unknown_template_feature_is_refused(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("features:\n  - name: syntax\n")
    with pytest.raises(ValueError, match="unknown feature 'syntax'"):
        FeatureTemplate.from_yaml(path)
