"""`mteval correlate`: a user's segment or system judgments against `mteval score` output."""

import json
import warnings
from pathlib import Path

import pytest

from mteval.cli import main

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"


@pytest.fixture
def scores(tmp_path, capsys):
    path = tmp_path / "scores.json"
    assert main(["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), str(DEMO / "system-b.en"),
                 "-m", "bleu", "-m", "ter", "--segments", "--format", "json", "-o", str(path)]) == 0
    capsys.readouterr()
    return path


def test_segment_judgments(tmp_path, scores, capsys):
    human = tmp_path / "h.tsv"
    rows = [f"system-a.en\t{k}\t{4 + k % 2}" for k in range(1, 9)] + [f"system-b.en\t{k}\t{k % 3}" for k in range(1, 9)]
    human.write_text("system\tline\tadequacy\n" + "\n".join(rows) + "\n")
    assert main(["correlate", "--scores", str(scores), "--human", str(human), "--format", "json",
                 "--bootstrap", "100"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["level"] == "segment" and doc["segments"] == 8 and doc["systems"] == 2
    assert set(doc["correlations"]) == {"none", "item", "system"}
    assert doc["pairs"] == {"matched": 16, "only_human": 0, "out_of_range": 0, "unscored": 0, "only_scored": 0}
    # pooled over 16 segments: defined; TER is negated, so both metrics correlate positively
    assert doc["correlations"]["none"]["adequacy"]["bleu"]["kendall"]["value"] > 0
    assert doc["correlations"]["none"]["adequacy"]["ter"]["kendall"]["value"] > 0
    # across 2 systems a correlation is always +-1: undefined, not 1.000 [1.00, 1.00]
    item = doc["correlations"]["item"]["adequacy"]["bleu"]["kendall"]
    assert item["value"] is None and item["undefined"] == "undefined: 2 systems (needs at least 3)"
    assert "bleu|tok:13a" in doc["signature"]["bleu"]["short"]


def test_system_judgments_use_corpus_scores(tmp_path, scores, capsys):
    human = tmp_path / "h.csv"
    human.write_text("system,quality\nsystem-a.en,70\nsystem-b.en,20\n")
    assert main(["correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert "| bleu   | quality  | undefined: 2 systems (needs at least 3)" in out and "1.000" not in out


@pytest.mark.parametrize("content, message", [
    ("system\tline\tq\nsystem-a.en\t1\tgood\nsystem-a.en\t2\t3\n", "h.tsv:2: q = 'good' is not a number"),
    ("system\tline\tnote\nsystem-a.en\t1\tgood\n", "h.tsv:1: no judgment column (a column of numbers)"),
    ("system\tline\tq\nnobody\t1\t3\n", "system 'nobody' has no scores"),
    ("line\tq\n1\t3\n", "h.tsv:1: the header needs a 'system' column"),
])
def test_bad_judgments_are_usage_errors_naming_the_place(tmp_path, scores, capsys, content, message):
    (tmp_path / "h.tsv").write_text(content)
    assert main(["correlate", "--scores", str(scores), "--human", str(tmp_path / "h.tsv")]) == 2
    assert message in capsys.readouterr().err


def test_scores_without_segments_are_refused(tmp_path, capsys):
    path = tmp_path / "s.json"
    assert main(["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), "--format", "json",
                 "-o", str(path)]) == 0
    (tmp_path / "h.tsv").write_text("system\tq\nsystem-a.en\t1\n")
    assert main(["correlate", "--scores", str(path), "--human", str(tmp_path / "h.tsv")]) == 2
    assert "score with --segments" in capsys.readouterr().err


@pytest.fixture
def three_systems(tmp_path, capsys):
    """Scores of three systems: the demo's two and system-a with every other line cut short."""
    lines = (DEMO / "system-a.en").read_text("utf-8").splitlines()
    third = tmp_path / "system-c.en"
    third.write_text("\n".join(line if k % 2 else " ".join(line.split()[:3]) for k, line in enumerate(lines)) + "\n")
    path = tmp_path / "scores3.json"
    assert main(["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), str(DEMO / "system-b.en"),
                 str(third), "-m", "bleu", "--segments", "--format", "json", "-o", str(path)]) == 0
    capsys.readouterr()
    return path


def test_judgments_outside_the_scored_lines_are_counted_and_warned(tmp_path, scores, capsys):
    # the hostile fixture: system-a's line 3 judged as line 99
    human = tmp_path / "judg.tsv"
    rows = [f"{s}\t{99 if (s, k) == ('system-a.en', 3) else k}\t{50 + k}" for s in ("system-a.en", "system-b.en")
            for k in range(1, 9)]
    human.write_text("system\tline\tscore\n" + "\n".join(rows) + "\n")
    assert main(["correlate", "--scores", str(scores), "--human", str(human), "--format", "json",
                 "--bootstrap", "20"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["pairs"]["matched"] == 15 and doc["pairs"]["out_of_range"] == 1 and doc["pairs"]["only_scored"] == 1
    assert "warning: 15 judged segments matched; 1 judgments outside the scored lines (e.g. system-a.en line 99: " \
           "the scores have lines 1-8)" in captured.err
    assert main(["correlate", "--scores", str(scores), "--human", str(human), "--strict"]) == 2
    assert "--strict: 15 judged segments matched" in capsys.readouterr().err


def test_a_text_column_is_ignored_with_a_note(tmp_path, three_systems, capsys):
    human = tmp_path / "h.tsv"
    levels = (("system-a.en", 5), ("system-b.en", 1), ("system-c.en", 3))
    rows = [f"{s}\t{k}\t{v + k % 3}\tann{k % 2}" for s, v in levels for k in range(1, 9)]
    human.write_text("system\tline\tadequacy\tannotator\n" + "\n".join(rows) + "\n")
    assert main(["correlate", "--scores", str(three_systems), "--human", str(human), "--bootstrap", "50"]) == 0
    captured = capsys.readouterr()
    assert "column 'annotator' of" in captured.err and "holds no number: ignored" in captured.err
    assert "annotator" not in captured.out
    assert "**segment level, per segment across systems, averaged over segments**" in captured.out
    assert "per document" not in captured.out


def test_constant_judgments_give_undefined_correlations_without_warnings(tmp_path, three_systems, capsys):
    human = tmp_path / "h.tsv"
    human.write_text("system\tq\nsystem-a.en\t3\nsystem-b.en\t3\nsystem-c.en\t3\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning fails the test
        assert main(["correlate", "--scores", str(three_systems), "--human", str(human), "--format", "json",
                     "--bootstrap", "50"]) == 0
    doc = json.loads(capsys.readouterr().out)
    entry = doc["correlations"]["q"]["bleu"]["pearson"]
    assert entry["value"] is None and entry["undefined"] == "undefined: constant scores on one side"


def test_an_incomplete_corpus_score_is_left_out_of_system_correlations(tmp_path, capsys):
    lines = (DEMO / "system-b.en").read_text("utf-8").splitlines()
    bad = tmp_path / "system-bad.en"
    bad.write_bytes("\n".join(lines).encode().replace(lines[0].encode(), b"\xff" + lines[0].encode()) + b"\n")
    third = tmp_path / "system-c.en"
    third.write_text("\n".join(" ".join(line.split()[:4]) for line in lines) + "\n")
    path = tmp_path / "s.json"
    assert main(["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), str(bad), str(third),
                 str(DEMO / "system-b.en"), "-m", "bleu", "--segments", "--format", "json", "-o", str(path)]) == 1
    capsys.readouterr()
    human = tmp_path / "h.tsv"
    human.write_text("system\tq\nsystem-a.en\t70\nsystem-bad.en\t99\nsystem-c.en\t10\nsystem-b.en\t20\n")
    assert main(["correlate", "--scores", str(path), "--human", str(human), "--format", "json",
                 "--bootstrap", "20"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["left_out"] == {"bleu": {"system-bad.en": "scored 7 of 8 lines"}}
    assert "warning: bleu: system-bad.en's corpus score is incomplete (scored 7 of 8 lines)" in captured.err
    assert doc["correlations"]["q"]["bleu"]["pearson"]["value"] is not None  # on the 3 complete systems


def test_a_second_score_row_for_a_segment_is_refused_not_overwritten(tmp_path, scores, capsys):
    doc = json.loads(scores.read_text())
    doc["segments"].append(dict(doc["segments"][0], scores={"bleu": 99.0}))
    doubled = tmp_path / "doubled.json"
    doubled.write_text(json.dumps(doc))
    (tmp_path / "h.tsv").write_text("system\tq\nsystem-a.en\t1\nsystem-b.en\t2\n")
    assert main(["correlate", "--scores", str(doubled), "--human", str(tmp_path / "h.tsv")]) == 2
    expected = f"segment {len(doc['segments'])}: duplicate scores for system 'system-a.en', line 1"
    assert expected in capsys.readouterr().err


def test_judgments_in_json_lines(tmp_path, three_systems, capsys):
    human = tmp_path / "h.jsonl"
    human.write_text("".join(json.dumps({"system": s, "quality": q}) + "\n"
                             for s, q in (("system-a.en", 70), ("system-b.en", 20), ("system-c.en", 45))))
    assert main(["correlate", "--scores", str(three_systems), "--human", str(human), "--format", "json",
                 "--bootstrap", "20"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["level"] == "system" and doc["correlations"]["quality"]["bleu"]["pearson"]["value"] > 0.9
