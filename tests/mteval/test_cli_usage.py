"""`mteval score` usage details: the full --help description, nrefs in signatures, sacrebleu's
BLEU tokenizer per target language (or a warning naming what is missing), one usage error for a
source-reading metric without --src, and a file given twice kept as two systems."""

import importlib.util
import json
from pathlib import Path

import pytest
import sacrebleu

from mteval.cli import main

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"
REF_A, REF_B, SYS_A = str(DEMO / "ref.A.en"), str(DEMO / "ref.B.en"), str(DEMO / "system-a.en")


def test_help_gives_the_whole_description(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "benchmarks live in a checkout's benchmarks/ (python -m benchmarks --list)." in out and "``" not in out


def test_signatures_say_how_many_references(capsys):
    main(["score", "-r", REF_A, "-i", SYS_A, "-m", "bleu", "-m", "chrf", "--format", "json"])
    one = json.loads(capsys.readouterr().out)["signature"]
    main(["score", "-r", REF_A, "-r", REF_B, "-i", SYS_A, "-m", "bleu", "-m", "chrf", "--format", "json"])
    two = json.loads(capsys.readouterr().out)["signature"]
    assert "|nrefs:1|" in one["bleu"]["short"] and "|nrefs:2|" in two["bleu"]["short"]
    assert "|nrefs:1|" in one["chrf"]["short"] and "|nrefs:2|" in two["chrf"]["short"]


def test_japanese_target_gets_sacrebleus_tokenizer_or_a_warning(tmp_path, capsys):
    (tmp_path / "ref.ja").write_text("私たちは今日公園を散歩しました。\n", "utf-8")
    (tmp_path / "hyp.ja").write_text("私たちは今日公園で散歩しました。\n", "utf-8")
    rc = main(["score", "-r", str(tmp_path / "ref.ja"), "-i", str(tmp_path / "hyp.ja"), "-l", "en-ja", "-m", "bleu",
               "--format", "json"])
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    installed = importlib.util.find_spec("MeCab") is not None and importlib.util.find_spec("ipadic") is not None
    tok = "ja-mecab" if installed else "char"
    assert rc == 0 and f"|tok:{tok}|" in doc["signature"]["bleu"]["short"]
    assert ("mecab-python3" in captured.err and "using tok:char" in captured.err) != installed
    assert captured.err.count("\n") == (0 if installed else 1)  # the warning is one line
    assert doc["systems"][0]["scores"]["bleu"] == pytest.approx(sacrebleu.corpus_bleu(
        ["私たちは今日公園で散歩しました。"], [["私たちは今日公園を散歩しました。"]], tokenize=tok).score)


def test_an_installed_language_tokenizer_is_used(monkeypatch, capsys):
    """A tokenizer whose dependency is present is kept (zh stands in for MeCab's, which needs an
    extra install)."""
    from mteval import cli

    monkeypatch.setitem(cli.TOKENIZER_NEEDS, "zh", "nothing beyond sacrebleu")
    assert cli.bleu_tokenizer("zh") == "zh"
    assert capsys.readouterr().err == ""


def test_a_source_metric_without_src_is_one_usage_error(capsys):
    assert main(["score", "-r", REF_A, "-i", SYS_A, "-m", "bleu", "-m", "xmeant"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "xmeant scores the output against the source" in err and "--src" in err


def test_a_file_given_twice_is_two_systems(capsys):
    assert main(["score", "-r", REF_A, "-i", SYS_A, SYS_A, "-m", "bleu", "--format", "json", "--paired-bs",
                 "--paired-n", "100"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["system"] for s in doc["systems"]] == ["system-a.en", "system-a.en (2)"]
    test = doc["significance"]["bleu"]["systems"]["system-a.en (2)"]
    assert test["difference"] == 0 and test["p_value"] == 1.0
