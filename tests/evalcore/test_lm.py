"""KenLM language models (evalcore.resources.lm): training with lmplz on toy text, querying, finding lmplz."""

import pickle

import pytest

from evalcore.resources.lm import KENLM_VERSION, KenLM, LMTrainingError, cached_lmplz, find_lmplz, lm_tokens, train_lm
from evalcore.resources.registry import ResourceError

TEXT = ["the cat sleeps on the mat .", "the dog sleeps on the rug .", "a cat eats fish .",
        "a dog eats meat .", "my friend opens the door .", "she opens the window ."] * 5


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    return KenLM(train_lm(TEXT, tmp_path_factory.mktemp("lm") / "toy.klm"))


def test_log10_prob_is_kenlm_with_sentence_boundaries(toy):
    import kenlm

    raw = kenlm.Model(str(toy.path)).score("the cat sleeps .", bos=True, eos=True)
    assert toy.log10_prob("The cat sleeps.") == (pytest.approx(raw), 4)
    assert toy.log10_prob("the cat sleeps on the mat .")[0] > toy.log10_prob("mat the on sleeps cat the .")[0]
    assert toy.log10_prob("") == (pytest.approx(toy.log10_prob("")[0]), 0) and toy.log10_prob("")[0] < 0


def test_signature_order_and_pickle(toy):
    assert toy.order == 4 and toy.signature().startswith("toy:4g:") and len(toy.signature().split(":")[2]) == 8
    clone = pickle.loads(pickle.dumps(toy))
    assert clone._model is None and clone.log10_prob("a dog eats meat .") == toy.log10_prob("a dog eats meat .")


def test_lm_tokens():
    assert lm_tokens("Don't STOP.") == ["do", "n't", "stop", "."]


def test_arpa_output_and_errors(tmp_path):
    path = train_lm(["a b c .", "a b d ."] * 3, tmp_path / "t.arpa")
    assert "\\data\\" in path.read_text()[:50]
    with pytest.raises(ValueError, match="no non-empty sentence"):
        train_lm(["", "   "], tmp_path / "e.klm")
    with pytest.raises(ResourceError, match="build-lm"):
        KenLM(tmp_path / "missing.klm")


def test_tiny_corpus_trains_with_fallback_discounts_and_says_so(tmp_path):
    said: list[str] = []
    lm = KenLM(train_lm(["a"], tmp_path / "a.klm", log=said.append))
    assert lm.log10_prob("a")[0] > lm.log10_prob("b")[0]
    assert said and "fallback discounts" in said[0] and "1 sentences (1 tokens)" in said[0]


def test_bad_order_and_failing_lmplz_are_clear_errors(tmp_path, monkeypatch):
    for order in (1, 7):
        with pytest.raises(ValueError, match="LM order must be 2..6"):
            train_lm(["a b"], tmp_path / "x.klm", order=order)
    fake = tmp_path / "lmplz"
    fake.write_text("#!/bin/sh\necho '----5---10---15' >&2\necho 'Is this small or artificial data?' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("AESOP_LMPLZ", str(fake))
    assert find_lmplz() == fake
    with pytest.raises(LMTrainingError, match=r"4-gram LM on 2 sentences \(3 tokens\), exit 1: Is this small"):
        train_lm(["a b", "c"], tmp_path / "x.klm")


def test_lmplz_is_looked_up_below_the_cache_root(tmp_path, monkeypatch):
    monkeypatch.delenv("AESOP_LMPLZ", raising=False)
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert cached_lmplz() == tmp_path / "resources" / f"kenlm-{KENLM_VERSION}" / "bin" / "lmplz"
    with pytest.raises(ResourceError, match="AESOP_LMPLZ"):
        find_lmplz()
    cached_lmplz().parent.mkdir(parents=True)
    cached_lmplz().write_text("#!/bin/sh\n")
    cached_lmplz().chmod(0o755)
    assert find_lmplz() == cached_lmplz()
