"""PEM's fluency feature on top of evalcore.resources.lm: length-normalised log10 probability."""

import pickle

import pytest

from evalcore.resources.registry import ResourceError
from parapeval.pem.fluency import FluencyScorer


def test_fluent_beats_scrambled(toy_lm):
    assert toy_lm.score("the cat sleeps on the mat .") > toy_lm.score("mat the on sleeps cat the .")
    assert toy_lm.score("The cat sleeps on the mat.") == pytest.approx(toy_lm.score("the cat sleeps on the mat ."))


def test_score_is_length_normalised_log10(toy_lm):
    import kenlm

    raw = kenlm.Model(str(toy_lm.lm_path)).score("the cat sleeps .", bos=True, eos=True)
    assert toy_lm.score("the cat sleeps .") == pytest.approx(raw / 5)
    assert toy_lm.score("") < 0  # defined for empty text: only </s> is scored


def test_signature_and_pickle(toy_lm):
    assert toy_lm.signature().startswith("toy:4g:")
    restored = pickle.loads(pickle.dumps(toy_lm))
    assert restored.score("a dog eats meat .") == pytest.approx(toy_lm.score("a dog eats meat ."))


def test_missing_lm_is_a_resource_error(tmp_path):
    with pytest.raises(ResourceError, match="build-lm"):
        FluencyScorer(tmp_path / "missing.klm")
