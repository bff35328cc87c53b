"""`mteval correlate`: a user's segment or system judgments against `mteval score` output."""

import json
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
    # system-a's segments are judged better on every line: per segment, both metrics agree
    assert doc["correlations"]["item"]["adequacy"]["bleu"]["kendall"]["value"] == pytest.approx(1.0)
    assert doc["correlations"]["item"]["adequacy"]["ter"]["kendall"]["value"] == pytest.approx(1.0)  # TER negated
    assert "bleu|tok:13a" in doc["signature"]["bleu"]["short"]


def test_system_judgments_use_corpus_scores(tmp_path, scores, capsys):
    human = tmp_path / "h.csv"
    human.write_text("system,quality\nsystem-a.en,70\nsystem-b.en,20\n")
    assert main(["correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert "| bleu   | quality  | 1.000" in out and "| ter    | quality  | 1.000" in out


@pytest.mark.parametrize("content, message", [
    ("system\tline\tq\nsystem-a.en\t1\tgood\n", "h.tsv:2: q = 'good' is not a number"),
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
