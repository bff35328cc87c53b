"""Corpus scores under hostile input: an empty output line is a translation (scored, never dropped),
an unreadable line makes a corpus score explicitly incomplete, and paired tests compare systems on
the same lines only."""

import json
from pathlib import Path

import pytest
import sacrebleu

from evalcore.metric import Item
from evalcore.metric.inputs import EMPTY_NOTE
from evalcore.metric.registry import get_metric
from mteval.cli import main

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines()


@pytest.fixture()
def emptyline(tmp_path):
    """The demo system-a with lines 3 and 6 emptied (one truly empty, one whitespace only)."""
    lines = _lines(DEMO / "system-a.en")
    lines[2], lines[5] = "", "  \t"
    path = tmp_path / "emptyline.en"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _json(capsys, argv: list[str]) -> tuple[int, dict]:
    rc = main(argv)
    return rc, json.loads(capsys.readouterr().out)


def test_empty_lines_are_scored_as_sacrebleu_scores_them(emptyline, capsys):
    ref = DEMO / "ref.A.en"
    rc, doc = _json(capsys, ["score", "-r", str(ref), "-i", str(DEMO / "system-a.en"), str(emptyline),
                             "-m", "bleu", "-m", "chrf", "-m", "ter", "--format", "json"])
    assert rc == 0
    full, empty = doc["systems"]
    hyp, refs = _lines(emptyline), [_lines(ref)]
    expected = {"bleu": sacrebleu.corpus_bleu(hyp, refs).score, "chrf": sacrebleu.corpus_chrf(hyp, refs).score,
                "ter": sacrebleu.corpus_ter(hyp, refs).score}
    assert empty["scores"] == pytest.approx(expected, abs=1e-9)
    assert empty["complete"] is True and empty["empty_lines"] == [3, 6]
    assert empty["scored"] == {"bleu": 8, "chrf": 8, "ter": 8}
    # losing two lines never improves a score
    assert empty["scores"]["bleu"] < full["scores"]["bleu"] and empty["scores"]["ter"] > full["scores"]["ter"]


def test_paired_bootstrap_sees_the_empty_lines(emptyline, capsys):
    rc, doc = _json(capsys, ["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), str(emptyline),
                             "-m", "bleu", "--paired-bs", "--format", "json"])
    entry = doc["significance"]["bleu"]
    assert rc == 0 and entry["segments"] == 8 and "left_out" not in entry
    assert entry["systems"]["emptyline.en"]["difference"] < -10


def test_empty_segments_get_a_value_and_a_note_in_the_table(emptyline, capsys):
    assert main(["score", "-r", str(DEMO / "ref.A.en"), "-i", str(emptyline), "-m", "bleu", "--segments"]) == 0
    out = capsys.readouterr().out
    assert "emptyline.en: 2 empty output lines (3, 6), scored as empty translations" in out
    assert "incomplete" not in out


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter", "meteor", "tesla-m", "beer2", "red"])
def test_every_mt_metric_gives_an_empty_candidate_a_value(name):
    metric = get_metric(name)
    ref = ("The council approved the budget on Monday.",)
    empty, blank, good = metric.score_batch([Item("", ref, id="e"), Item(" \t ", ref, id="b"),
                                             Item(ref[0], ref, id="g")])
    assert empty.ok and blank.ok and EMPTY_NOTE in empty.notes and empty.value == blank.value
    worst = 100.0 if name == "ter" else 0.0
    assert empty.value == worst and (good.value < empty.value if name == "ter" else good.value > empty.value)


def test_an_unreadable_line_makes_the_corpus_score_incomplete(tmp_path, capsys):
    lines = _lines(DEMO / "system-b.en")
    bad = tmp_path / "bad.en"
    bad.write_bytes("\n".join(lines).encode().replace(lines[1].encode(), b"\xff" + lines[1].encode()) + b"\n")
    base = ["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), str(bad), "-m", "bleu",
            "--paired-bs"]
    rc, doc = _json(capsys, [*base, "--format", "json"])
    system = doc["systems"][1]
    assert rc == 1 and system["complete"] is False and system["incomplete"] == {"bleu": "scored 7 of 8 lines"}
    assert system["scores"]["bleu"] is None and system["partial_scores"]["bleu"] > 0
    # left out of the paired test, named, not compared on fewer lines in silence
    entry = doc["significance"]["bleu"]
    assert entry["left_out"] == {"bad.en": "scored 7 of 8 lines"} and "systems" not in entry
    # on request, compared on the lines both systems have
    rc, doc = _json(capsys, [*base, "--format", "json", "--paired-incomplete"])
    entry = doc["significance"]["bleu"]
    assert entry["segments"] == 7 and "bad.en" in entry["systems"] and "left_out" not in entry
    assert main(base) == 1
    out = capsys.readouterr().out
    assert "(incomplete: 7 of 8)" in out and "left out: incomplete (scored 7 of 8 lines)" in out
    rc = main([*base[:-1], "--format", "tsv"])
    assert capsys.readouterr().out.splitlines()[2] == "bad.en\t\t8\t7\tno"


def test_an_incomplete_baseline_leaves_nothing_to_compare(tmp_path, capsys):
    lines = _lines(DEMO / "system-a.en")
    lines[0] = "x" * 5000
    long = tmp_path / "long.en"
    long.write_text("\n".join(lines) + "\n", "utf-8")
    rc, doc = _json(capsys, ["score", "-r", str(DEMO / "ref.A.en"), "-i", str(long), str(DEMO / "system-b.en"),
                             "-m", "chrf", "--paired-ar", "--paired-n", "50", "--max-chars", "4000",
                             "--format", "json"])
    entry = doc["significance"]["chrf"]
    assert rc == 1 and "baseline's score is incomplete" in entry["error"] and "systems" not in entry


def test_paired_bootstrap_p_values_are_sacrebleus(emptyline, capsys, monkeypatch):
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest, Result

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    ref, base = DEMO / "ref.A.en", DEMO / "system-a.en"
    rc, doc = _json(capsys, ["score", "-r", str(ref), "-i", str(base), str(emptyline), "-m", "bleu", "-m", "chrf",
                             "-m", "ter", "--paired-bs", "--seed", "12345", "--format", "json"])
    test = PairedTest([("base", _lines(base)), ("empty", _lines(emptyline))],
                      {"bleu": BLEU(), "chrf": CHRF(), "ter": TER()}, references=[_lines(ref)], test_type="bs",
                      n_samples=1000)
    _, theirs = test()  # sacrebleu's default seed, 12345
    for ours, key in (("bleu", "BLEU"), ("chrf", "chrF2"), ("ter", "TER")):
        p = doc["significance"][ours]["systems"]["emptyline.en"]["p_value"]
        result = theirs[key][1]  # the first column is the baseline's
        assert isinstance(result, Result) and p == pytest.approx(result.p_value) and 0.01 < p < 0.5
