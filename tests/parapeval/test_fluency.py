"""KenLM fluency: training with lmplz on toy text and normalised scoring."""

import codecs
import pickle

import pytest

from evalcore.resources import ResourceError
from parapeval.cli import main
from parapeval.fluency import FluencyScorer, LMTrainingError, lm_tokens, train_lm


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


def test_tiny_corpus_trains_with_fallback_discounts_and_says_so(tmp_path):
    said = []
    scorer = FluencyScorer(train_lm(["a"], tmp_path / "a.klm", log=said.append))
    assert scorer.score("a") > scorer.score("b")
    assert said and "fallback discounts" in said[0] and "1 sentences (1 tokens)" in said[0]


def test_bad_order_and_failing_lmplz_are_clear_errors(tmp_path, monkeypatch):
    for order in (1, 7):
        with pytest.raises(ValueError, match="LM order must be 2..6"):
            train_lm(["a b"], tmp_path / "x.klm", order=order)
    fake = tmp_path / "lmplz"
    fake.write_text("#!/bin/sh\necho '----5---10---15' >&2\necho 'Is this small or artificial data?' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PARAPEVAL_LMPLZ", str(fake))
    with pytest.raises(LMTrainingError, match=r"4-gram LM on 2 sentences \(3 tokens\), exit 1: Is this small"):
        train_lm(["a b", "c"], tmp_path / "x.klm")


def test_build_lm_cli_reads_utf8_with_bom_and_names_bad_files(tmp_path, capsys):
    text = tmp_path / "t.txt"
    text.write_bytes(codecs.BOM_UTF8 + "Zebra runs .\nzebra sleeps .\n".encode())
    assert main(["build-lm", "--text", str(text), "--out", str(tmp_path / "t.arpa")]) == 0
    arpa = (tmp_path / "t.arpa").read_text("utf-8")
    assert "\ufeff" not in arpa and "\tzebra\t" in arpa
    text.write_bytes(b"caf\xe9 .\n")
    assert main(["build-lm", "--text", str(text), "--out", str(tmp_path / "u.klm")]) == 2
    assert "t.txt: not valid UTF-8" in capsys.readouterr().err
