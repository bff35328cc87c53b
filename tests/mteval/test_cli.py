"""`mteval score` end to end on the demo test set: the suite's CLI convention (formats pure on
stdout, signatures, exit codes), sacrebleu's numbers, paired tests, and bad input."""

import io
import json
from pathlib import Path

import pytest
import sacrebleu

from mteval.cli import main

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"
REFS = ["-r", str(DEMO / "ref.A.en"), "-r", str(DEMO / "ref.B.en")]
SYSTEMS = ["-i", str(DEMO / "system-a.en"), str(DEMO / "system-b.en")]


def _strict(text: str):
    def bad(token):
        raise ValueError(f"non-standard JSON token {token}")
    return json.loads(text, parse_constant=bad)


def _lines(name):
    return (DEMO / name).read_text("utf-8").splitlines()


def test_table_has_sacrebleus_corpus_scores_and_signatures(capsys):
    assert main(["score", *REFS, *SYSTEMS, "-m", "bleu", "-m", "chrf"]) == 0
    out = capsys.readouterr().out
    refs = [_lines("ref.A.en"), _lines("ref.B.en")]
    bleu = sacrebleu.corpus_bleu(_lines("system-a.en"), refs).score
    assert f"{bleu:.4f}" in out and "8/8" in out
    assert "Signatures:\n  bleu|tok:13a|" in out and "chrf|nc:6|" in out


def test_json_is_strict_with_signatures_segments_and_paired_bootstrap(capsys):
    rc = main(["score", *REFS, *SYSTEMS, "-m", "bleu", "-m", "ter", "--segments", "--paired-bs",
               "--paired-n", "200", "--format", "json"])
    doc = _strict(capsys.readouterr().out)
    assert rc == 0 and set(doc["signature"]) == {"bleu", "ter"}
    assert [s["system"] for s in doc["systems"]] == ["system-a.en", "system-b.en"]
    assert len(doc["segments"]) == 16 and doc["segments"][0]["line"] == 1
    seg = doc["segments"][0]
    assert seg["scores"]["bleu"] == pytest.approx(sacrebleu.sentence_bleu(
        _lines("system-a.en")[0], [_lines("ref.A.en")[0], _lines("ref.B.en")[0]]).score)
    test = doc["significance"]["bleu"]
    assert test["baseline"] == "system-a.en" and test["n_samples"] == 200
    b = test["systems"]["system-b.en"]
    assert b["difference"] < 0 and b["ci_high"] < 0 and b["p_value"] < 0.05
    assert doc["significance"]["ter"]["systems"]["system-b.en"]["difference"] > 0  # TER: lower is better
    assert doc["errors"] == []


def test_paired_randomization_of_a_system_against_itself_is_not_significant(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((DEMO / "system-a.en").read_bytes())))
    rc = main(["score", *REFS, "-i", str(DEMO / "system-a.en"), "-", "-m", "chrf", "--paired-ar",
               "--paired-n", "500", "--format", "json"])
    doc = _strict(capsys.readouterr().out)
    result = doc["significance"]["chrf"]["systems"]["stdin"]
    assert rc == 0 and result["difference"] == 0 and result["p_value"] == 1.0


@pytest.mark.parametrize("fmt", ["jsonl", "tsv"])
def test_rows_only_on_stdout_and_signatures_on_stderr(fmt, capsys):
    assert main(["score", *REFS, *SYSTEMS, "-m", "chrf", "--segments", "--format", fmt]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    if fmt == "jsonl":
        rows = [_strict(line) for line in lines]
        assert len(rows) == 16 and rows[-1]["system"] == "system-b.en" and rows[-1]["line"] == 8
    else:
        assert lines[0].split("\t") == ["system", "line", "chrf", "error"] and len(lines) == 17
    assert err.startswith("chrf|nc:6|")


def test_bad_lines_are_error_records_naming_file_and_line(tmp_path, capsys):
    hyp = tmp_path / "hyp.txt"
    lines = _lines("system-a.en")
    lines[2] = ""
    hyp.write_bytes("\n".join(lines).encode().replace(b"Prices", b"Pr\xffices") + b"\n")
    rc = main(["score", *REFS, "-i", str(hyp), "-m", "bleu", "-m", "chrf", "--format", "json", "--segments"])
    out, err = capsys.readouterr()
    doc = _strict(out)
    assert rc == 1 and "1 of 8 segments could not be scored" in err
    assert doc["errors"] == [f"bleu/chrf: {hyp}:4: not valid UTF-8 (byte 0xff at byte 2; it looks like latin-1 / "
                             "Windows-1252); convert it to UTF-8, e.g. `iconv -f WINDOWS-1252 -t UTF-8`"]
    system = doc["systems"][0]
    assert system["scored"] == {"bleu": 7, "chrf": 7} and system["complete"] is False
    assert system["incomplete"] == {"bleu": "scored 7 of 8 lines", "chrf": "scored 7 of 8 lines"}
    # the empty line 3 is a translation in the score; the unreadable line 4 is not
    kept = [lines[k] for k in (0, 1, 2, 4, 5, 6, 7)]
    refs = [[_lines(r)[k] for k in (0, 1, 2, 4, 5, 6, 7)] for r in ("ref.A.en", "ref.B.en")]
    assert system["scores"]["bleu"] is None  # never a number raised by a lost line
    assert system["partial_scores"]["bleu"] == pytest.approx(sacrebleu.corpus_bleu(kept, refs).score)
    assert doc["segments"][2]["scores"]["bleu"] == 0 and doc["segments"][3]["scores"]["bleu"] is None


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_files_score_as_their_utf8_twins(tmp_path, capsys, encoding):
    """On the old main a UTF-16 hypothesis was a line-count mismatch, and UTF-16 on both sides
    scored NUL-stripped text with a phantom line."""
    assert main(["score", *REFS, "-i", str(DEMO / "system-a.en"), "--format", "tsv"]) == 0
    utf8 = capsys.readouterr().out
    hyp, ref = tmp_path / "system-a.en", tmp_path / "ref.A.en"
    hyp.write_bytes((DEMO / "system-a.en").read_text("utf-8").encode(encoding))
    ref.write_bytes((DEMO / "ref.A.en").read_text("utf-8").encode(encoding))
    assert main(["score", "-r", str(ref), "-r", REFS[3], "-i", str(hyp), "--format", "tsv"]) == 0
    assert capsys.readouterr().out == utf8


def test_a_binary_file_is_a_usage_error_naming_it(tmp_path, capsys):
    hyp = tmp_path / "hyp.bin"
    hyp.write_bytes(bytes(range(256)) * 8)
    assert main(["score", *REFS, "-i", str(hyp)]) == 2
    assert f"{hyp}: binary data" in capsys.readouterr().err


def test_mismatched_line_counts_are_a_usage_error(tmp_path, capsys):
    hyp = tmp_path / "short.txt"
    hyp.write_text("\n".join(_lines("system-a.en")[:5]) + "\n")
    assert main(["score", *REFS, "-i", str(hyp)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mteval: error: ") and "short.txt has 5 lines" in err and "has 8" in err


def test_usage_errors_exit_2_before_scoring(tmp_path, capsys):
    assert main(["score", *REFS, *SYSTEMS, "-m", "nope"]) == 2
    assert "unknown metric 'nope'" in capsys.readouterr().err
    assert main(["score", *REFS, *SYSTEMS, "-o", str(tmp_path / "missing" / "out.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["score", *REFS, "-i", str(tmp_path / "none.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["score", *REFS, "-i", str(DEMO / "system-a.en"), "--paired-bs"]) == 2
    assert "at least two -i files" in capsys.readouterr().err
    assert main(["score", *REFS, *SYSTEMS, "-l", "english"]) == 2


def test_list_metrics_names_every_mteval_metric(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--list-metrics"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    for name in ("bleu", "chrf", "ter", "meteor", "tesla-m", "tesla-b", "tesla-f"):
        assert f"\n{name} " in f"\n{out}"


def test_zh_target_uses_sacrebleus_zh_tokenizer(tmp_path, capsys):
    (tmp_path / "ref.zh").write_text("我们今天在公园散步。\n", "utf-8")
    (tmp_path / "hyp.zh").write_text("我们今天去公园散步。\n", "utf-8")
    assert main(["score", "-r", str(tmp_path / "ref.zh"), "-i", str(tmp_path / "hyp.zh"), "-l", "en-zh",
                 "-m", "bleu", "--format", "json"]) == 0
    doc = _strict(capsys.readouterr().out)
    assert "tok:zh" in doc["signature"]["bleu"]["short"]
    assert doc["systems"][0]["scores"]["bleu"] == pytest.approx(
        sacrebleu.corpus_bleu(["我们今天去公园散步。"], [["我们今天在公园散步。"]], tokenize="zh").score)
