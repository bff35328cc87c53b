"""The ``coherence`` command line: parse (pipe/JSON, jobs, bad files), precomputed parses."""

from __future__ import annotations

import json

from coherence.cli import main

TEXT = "The market fell sharply. However, investors stayed calm because rates were low."


def test_parse_pipe_and_bad_files(tmp_path, capsys):
    good, empty, bad = tmp_path / "good.txt", tmp_path / "empty.txt", tmp_path / "bad.txt"
    good.write_text(TEXT, "utf-8")
    empty.write_text("", "utf-8")
    bad.write_bytes(b"ok \xff\xfe broken")
    assert main(["parse", str(good), str(bad), str(empty), "--tier", "0"]) == 1
    out, err = capsys.readouterr()
    assert "Explicit|" in out and "|However|Comparison|" in out and "coherence::good.txt" in out
    assert "bad.txt: not valid UTF-8" in err and "empty.txt: 0 relations" in err
    assert "1 of 3 file(s) failed" in err


def test_parse_json_to_folder_with_jobs(tmp_path, capsys):
    files = []
    for i in range(2):
        f = tmp_path / f"t{i}.txt"
        f.write_text(TEXT, "utf-8")
        files.append(str(f))
    out = tmp_path / "out"
    assert main(["parse", *files, "--format", "json", "--jobs", "2", "--out", str(out)]) == 0
    objs = [json.loads(line) for line in (out / "t1.txt.json").read_text().splitlines()]
    assert any(o["Type"] == "Explicit" and o["Connective"]["RawText"] == "However" for o in objs)
    assert all(o["DocID"] == "t1.txt" for o in objs)


def test_parse_precomputed(tmp_path, capsys):
    text = tmp_path / "doc.txt"
    text.write_text("It rained. But we went out.", "utf-8")
    pre = tmp_path / "pre"
    pre.mkdir()
    (pre / "doc.pipe").write_text(
        "Explicit|11..14||||||But|Comparison||||||0..9||||||15..26|||||||||||11..14|x|\n", "utf-8")
    assert main(["parse", str(text), "--precomputed", str(pre)]) == 0
    assert "|But|Comparison|" in capsys.readouterr().out
    assert main(["parse", str(text), "--precomputed", str(tmp_path / "none")]) == 1


def test_parse_missing_file(tmp_path, capsys):
    assert main(["parse", str(tmp_path / "nope.txt")]) == 1
    assert "nope.txt: cannot be read" in capsys.readouterr().err


def test_parse_precomputed_finds_what_parse_out_wrote(tmp_path, capsys):
    text = tmp_path / "b.txt"
    text.write_text(TEXT, "utf-8")
    pre = tmp_path / "pre"
    assert main(["parse", str(text), "--tier", "0", "--out", str(pre)]) == 0  # writes pre/b.txt.pipe
    (pre / "b.alt.pipe").write_text("", "utf-8")  # another text's parse, sorted first
    capsys.readouterr()
    assert main(["parse", str(text), "--precomputed", str(pre)]) == 0
    assert "|However|Comparison|" in capsys.readouterr().out
    (pre / "b.json").write_text("", "utf-8")
    assert main(["parse", str(text), "--precomputed", str(pre)]) == 1
    assert "several precomputed parses" in capsys.readouterr().err


def test_byte_order_mark_is_not_part_of_the_text(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_text(TEXT, "utf-8-sig")
    assert main(["parse", str(path), "--tier", "0", "--format", "json"]) == 0
    objs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    however = next(o for o in objs if o["Connective"].get("RawText") == "However")
    assert however["Arg1"]["RawText"] == "The market fell sharply"
    assert however["Arg1"]["CharacterSpanList"] == [[0, 23]]
