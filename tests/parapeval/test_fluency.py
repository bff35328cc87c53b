"""KenLM fluency: training with lmplz on toy text and normalised scoring."""

import pickle

import pytest

from evalcore.resources import ResourceError
from parapeval.fluency import FluencyScorer, lm_tokens, train_lm


def test_fluent_beats_scrambled(toy_lm):
    assert toy_lm.score("the cat sleeps on the mat .") > toy_lm.score("mat the on sleeps cat the .")
    assert toy_lm.score("The cat sleeps on the mat.") == pytest.approx(toy_lm.score("the cat sleeps on the mat ."))


def test_score_is_length_normalised_log10(toy_lm):
    import kenlm

    raw = kenlm.Model(str(toy_lm.lm_path)).score("the cat sleeps .", bos=True, eos=True)
    assert toy_lm.score("the cat sleeps .") == pytest.approx(raw / 5)
    assert toy_lm.score("") < 0  # defined for empty text: only </s> is scored


def test_signature_and_pickle(toy_lm):
    assert toy_lm.signature().startswith("lm:toy:4g:")
    assert pickle.loads(pickle.dumps(toy_lm)).score("a dog eats meat .") == pytest.approx(toy_lm.score("a dog eats meat ."))


def test_arpa_output_and_errors(tmp_path):
    path = train_lm(["a b c .", "a b d ."] * 3, tmp_path / "t.arpa")
    assert path.read_text().startswith("\n\\data\\") or "\\data\\" in path.read_text()[:50]
    with pytest.raises(ValueError, match="no non-empty sentence"):
        train_lm(["", "   "], tmp_path / "e.klm")
    with pytest.raises(ResourceError, match="build-lm"):
        FluencyScorer(tmp_path / "missing.klm")


def test_lm_tokens():
    assert lm_tokens("Don't STOP.") == ["do", "n't", "stop", "."]
