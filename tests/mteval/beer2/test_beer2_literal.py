"""The feature extractor against a literal, loop-for-loop transcription of upstream's Scala
(pieces as separator-joined strings, one pair at a time) on random sentences."""

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval.beer2.features import FeatureTemplate
from mteval.beer2.model import default_model_dir
from mteval.beer2.pieces import java_split

SEP = "-------"
TEMPLATE = FeatureTemplate.from_yaml(default_model_dir() / "feature_template.yaml")


def literal_pieces(kind: str, order: int, x: list[str]) -> Counter:
    """NGram.scala / SkipBigram.scala / CharNGram.scala getPieces, statement by statement."""
    pieces: Counter[str] = Counter()
    if kind == "ngram":
        for i in range(len(x) - order + 1):
            pieces["".join(SEP + x[j] for j in range(i, i + order))] += 1
        pieces["<S>" + "".join(SEP + x[j] for j in range(min(len(x), order)))] += 1
        pieces["".join(x[j] + SEP for j in range(max(len(x) - order, 0), len(x))) + "</S>"] += 1
    elif kind == "skip-bigram":
        for i in range(len(x) - 1):
            for j in range(i + 1, min(i + order + 2, len(x))):
                pieces[x[i] + SEP + x[j]] += 1
    else:
        s = " ".join(x)
        for i in range(len(s) - order + 1):
            pieces[s[i:i + order - 1]] += 1
    return pieces


def literal_features(sys: list[str], ref: list[str]) -> dict[str, float]:
    """AbstractPieceFeature.featureValues and LengthDisbalance.featureValues for the default template."""
    out = {}
    for fam in TEMPLATE.families:
        sp, rp = literal_pieces(fam.kind, fam.order, sys), literal_pieces(fam.kind, fam.order, ref)
        overlap = sum(min(c, rp[k]) for k, c in sp.items() if k in rp)
        s, r = sum(sp.values()), sum(rp.values())
        p = 0.0 if s == 0 else overlap / s
        rc = 0.0 if r == 0 else overlap / r
        a, b = min(p, rc), max(p, rc)
        out[f"{fam.name}.a"], out[f"{fam.name}.b"] = a, b
        out[f"{fam.name}.f.1.0"] = 0.0 if a + b == 0 else 2 * a * b / (a + b)
        out[f"{fam.name}.g.1.0"] = math.pow(a * b, 0.5)

    def disbalance(x, y):
        hi, lo = max(x, y), min(x, y)
        return 100000.0 if lo == 0 else hi / lo - 1.0

    out["len_disbalance_word.d.1.0"] = disbalance(len(sys), len(ref))
    out["len_disbalance_char.d.1.0"] = disbalance(len(" ".join(sys)), len(" ".join(ref)))
    return out


WORDS = st.sampled_from(["a", "b", "a", "ab", "ba", "é", ".", "Ab"])
TEXTS = st.lists(WORDS, min_size=1, max_size=9).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(TEXTS, TEXTS)
def test_features_equal_the_literal_transcription(sys, ref):
    got = dict(zip(TEMPLATE.feature_names(), TEMPLATE.values([(TEMPLATE.pieces(sys), TEMPLATE.pieces(ref))])[0]))
    want = literal_features(java_split(sys), java_split(ref))
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == pytest.approx(want[name], rel=1e-12, abs=1e-15), name
