"""The ``coherence`` command line under the suite's convention: inputs (files, -i, stdin), output
formats and where the signature goes, exit codes 0/1/2, checks before any work, size caps."""

from __future__ import annotations

import io
import json
import sys

import pytest

from coherence.cli import main

TEXT = "The market fell sharply. However, investors stayed calm because rates were low."
TEXTS = [
    "The company reported higher profits. But its shares fell because investors expected more. "
    "Analysts said the company would recover. The shares rose again in March.",
    "The council approved the budget after a long debate. However, the mayor vetoed it. "
    "The council then overrode the veto.",
]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    from tests.coherence.test_dicomer_metric import write_model

    return write_model(tmp_path_factory.mktemp("model"))


def _files(tmp_path, *texts, names=None):
    paths = []
    for k, text in enumerate(texts):
        path = tmp_path / (names[k] if names else f"t{k}.txt")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text, "utf-8")
        paths.append(str(path))
    return paths


def _no_parsing(monkeypatch):
    """Fail the test if any text reaches the discourse parser."""
    from coherence.parser.pipeline import DiscourseParser

    monkeypatch.setattr(DiscourseParser, "parse_batch", lambda self, pts: pytest.fail("parsed"))


# --- parse ---------------------------------------------------------------------------------------

def test_parse_pipe_and_bad_files(tmp_path, capsys):
    good, bad, empty = _files(tmp_path, TEXT, b"ok \xff\xfe broken", "", names=["good.txt", "bad.txt", "empty.txt"])
    assert main(["parse", good, bad, empty, "--tier", "0"]) == 1
    out, err = capsys.readouterr()
    assert "Explicit|" in out and "|However|Comparison|" in out and "coherence::good.txt" in out
    assert "bad.txt: not valid UTF-8" in err and "empty.txt: 0 relations" in err
    assert "1 of 3 file(s) could not be parsed" in err


def test_parse_json_to_folder_with_jobs(tmp_path, capsys):
    files = _files(tmp_path, TEXT, TEXT)
    out = tmp_path / "out"
    assert main(["parse", *files, "--format", "json", "--jobs", "2", "--out", str(out)]) == 0
    objs = [json.loads(line) for line in (out / "t1.txt.json").read_text().splitlines()]
    assert any(o["Type"] == "Explicit" and o["Connective"]["RawText"] == "However" for o in objs)
    assert all(o["DocID"] == "t1.txt" for o in objs)


def test_parse_refuses_inputs_that_would_overwrite_each_other(tmp_path, capsys, monkeypatch):
    first, second = _files(tmp_path, TEXT, "Another text. It differs.", names=["a/doc.txt", "b/doc.txt"])
    _no_parsing(monkeypatch)
    out = tmp_path / "out"
    assert main(["parse", first, second, "--tier", "0", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{first} and {second} would both be written to doc.txt.pipe" in err
    assert not list(out.iterdir())


def test_parse_input_flag_stdin_and_output_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode("utf-8"))))
    target = tmp_path / "rels.pipe"
    assert main(["parse", "-i", "-", "--tier", "0", "-o", str(target)]) == 0
    assert "|However|Comparison|" in target.read_text("utf-8")
    assert "stdin: " in capsys.readouterr().err


def test_parse_usage_errors_stop_before_any_work(tmp_path, capsys, monkeypatch):
    (good,) = _files(tmp_path, TEXT)
    _no_parsing(monkeypatch)
    assert main(["parse", str(tmp_path / "nope.txt"), good]) == 2
    assert "nope.txt: no such file" in capsys.readouterr().err
    assert main(["parse", good, "--tier", "0", "-o", str(tmp_path / "missing" / "out.pipe")]) == 2
    assert f"folder {tmp_path / 'missing'} does not exist" in capsys.readouterr().err
    assert main(["parse", "--tier", "0"]) == 2
    assert "no input" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["parse", good, "--tier", "2"])
    assert exit_.value.code == 2


def test_parse_precomputed(tmp_path, capsys):
    (text,) = _files(tmp_path, "It rained. But we went out.", names=["doc.txt"])
    pre = tmp_path / "pre"
    pre.mkdir()
    (pre / "doc.pipe").write_text(
        "Explicit|11..14||||||But|Comparison||||||0..9||||||15..26|||||||||||11..14|x|\n", "utf-8")
    assert main(["parse", text, "--precomputed", str(pre)]) == 0
    assert "|But|Comparison|" in capsys.readouterr().out
    (other,) = _files(tmp_path, "Another text.", names=["other.txt"])
    assert main(["parse", other, "--precomputed", str(pre)]) == 1
    assert "other.txt: no precomputed parse" in capsys.readouterr().err
    assert main(["parse", text, "--precomputed", str(tmp_path / "none")]) == 2


def test_parse_precomputed_finds_what_parse_out_wrote(tmp_path, capsys):
    (text,) = _files(tmp_path, TEXT, names=["b.txt"])
    pre = tmp_path / "pre"
    assert main(["parse", text, "--tier", "0", "--out", str(pre)]) == 0  # writes pre/b.txt.pipe
    (pre / "b.alt.pipe").write_text("", "utf-8")  # another text's parse, sorted first
    capsys.readouterr()
    assert main(["parse", text, "--precomputed", str(pre)]) == 0
    assert "|However|Comparison|" in capsys.readouterr().out
    (pre / "b.json").write_text("", "utf-8")
    assert main(["parse", text, "--precomputed", str(pre)]) == 1
    assert "several precomputed parses" in capsys.readouterr().err


def test_byte_order_mark_is_not_part_of_the_text(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_text(TEXT, "utf-8-sig")
    assert main(["parse", str(path), "--tier", "0", "--format", "json"]) == 0
    objs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    however = next(o for o in objs if o["Connective"].get("RawText") == "However")
    assert however["Arg1"]["RawText"] == "The market fell sharply"
    assert however["Arg1"]["CharacterSpanList"] == [[0, 23]]


def test_parse_caps_the_size_of_a_text(tmp_path, capsys, monkeypatch):
    (big,) = _files(tmp_path, "word " * 3000, names=["big.txt"])
    _no_parsing(monkeypatch)
    assert main(["parse", big, "--tier", "0", "--max-chars", "10000"]) == 1
    assert "big.txt: too long (15,000 characters > 10,000" in capsys.readouterr().err


# --- score ---------------------------------------------------------------------------------------

def test_score_json_is_strict_with_the_signature_on_top(model_file, tmp_path, capsys):
    good, one, bad = _files(tmp_path, TEXTS[0], "Just one sentence here.", b"\xff broken",
                            names=["a.txt", "b.txt", "c.txt"])
    status = main(["score", good, one, "-i", bad, "--format", "json", "--model", model_file])
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert status == 1 and "1 of 3 texts could not be scored" in err
    assert doc["signature"]["dicomer"]["short"].startswith("dicomer|variant:DICOMER+EGRID|mode:listwise|")
    a, b, c = doc["texts"]
    assert a["file"] == good and set(a) == {"file", "scores", "components"}
    assert set(a["components"]["dicomer"]) == {"log_score"}
    assert [n.split(":")[0] for n in b["notes"]["dicomer"]] == ["one_sentence", "no_relations"]
    assert c["scores"] == {} and c["errors"]["dicomer"].startswith("not valid UTF-8")


def test_score_jsonl_and_tsv_keep_the_signature_on_stderr(model_file, tmp_path, capsys):
    files = _files(tmp_path, *TEXTS)
    assert main(["score", *files, "--format", "jsonl", "--model", model_file]) == 0
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["file"] for r in rows] == files and err.startswith("dicomer|variant:")
    assert main(["score", *files, "--format", "tsv", "--model", model_file]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "file\tdicomer\tdicomer.log_score\tnotes\terrors" and len(lines) == 3
    assert float(lines[1].split("\t")[1]) == pytest.approx(rows[0]["scores"]["dicomer"], abs=1e-6)
    assert "dicomer|" not in out and err.startswith("dicomer|variant:")


def test_score_table_prints_the_signature_after_it(model_file, tmp_path, capsys):
    files = _files(tmp_path, *TEXTS)
    assert main(["score", *files, "--model", model_file]) == 0
    out = capsys.readouterr().out
    assert out.index("| file") < out.index("Signatures:\n  dicomer|variant:DICOMER+EGRID")


def test_score_caps_the_size_of_a_text(model_file, tmp_path, capsys, monkeypatch):
    """A 20 MB text once ran the parser out of memory: it is refused, naming the file, unread."""
    good = _files(tmp_path, TEXTS[0])[0]
    huge = tmp_path / "huge.txt"
    with huge.open("w") as f:
        f.write("The cat sat. " * 1_600_000)  # about 20 MB
    status = main(["score", str(huge), good, "--format", "jsonl", "--model", model_file])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1 and rows[0]["file"] == str(huge) and "too long" in rows[0]["errors"]["dicomer"]
    assert "dicomer" in rows[1]["scores"]
    (mid,) = _files(tmp_path, "word " * 3000, names=["mid.txt"])
    _no_parsing(monkeypatch)
    assert main(["score", mid, "--format", "jsonl", "--model", model_file, "--max-chars", "10000"]) == 1
    row = json.loads(capsys.readouterr().out)
    assert row["file"] == mid and row["errors"]["dicomer"] == (
        "too long (15,000 characters > 10,000; raise the cap with --max-chars or AESOP_MAX_CHARS)")


def test_score_usage_errors_exit_2_before_scoring(model_file, tmp_path, capsys, monkeypatch):
    (good,) = _files(tmp_path, TEXTS[0])
    _no_parsing(monkeypatch)
    assert main(["score", good, "-m", "rouge-2", "--model", model_file]) == 2
    assert "unknown metric 'rouge-2'" in capsys.readouterr().err
    assert main(["score", good, "--model", str(tmp_path / "none.npz")]) == 2
    assert "train dicomer" in capsys.readouterr().err
    assert main(["score", good, "--model", model_file, "-o", str(tmp_path / "no" / "out.json")]) == 2
    assert main(["score", str(tmp_path / "missing.txt"), "--model", model_file]) == 2
    assert "missing.txt: no such file" in capsys.readouterr().err


def test_score_with_precomputed_and_external_relations(model_file, tmp_path, capsys):
    a, b = _files(tmp_path, TEXTS[1], TEXTS[0], names=["a.txt", "b.txt"])
    pre = tmp_path / "pre"
    assert main(["parse", a, "--tier", "0", "--out", str(pre)]) == 0  # the model's parser; none for b
    capsys.readouterr()
    with pytest.warns(UserWarning, match="now come from precomputed"):
        status = main(["score", a, b, "--format", "jsonl", "--model", model_file, "--precomputed", str(pre)])
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and "|parser:precomputed|" in err
    assert main(["score", a, "--format", "jsonl", "--model", model_file]) == 0
    builtin = json.loads(capsys.readouterr().out)
    assert rows[0]["scores"]["dicomer"] == builtin["scores"]["dicomer"]
    assert "b.txt: no precomputed parse" in rows[1]["errors"]["dicomer"]  # the other file was still scored
    script = tmp_path / "ext.py"
    script.write_text(f"import sys\nsys.stdout.write(open({str(pre / 'a.txt.pipe')!r}).read())\n", "utf-8")
    with pytest.warns(UserWarning, match="now come from external:pipe"):
        assert main(["score", a, "--model", model_file, "--format", "jsonl",
                     "--external", f"{sys.executable} {script} {{input}}"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"]["dicomer"] == builtin["scores"]["dicomer"]


# --- the convention's top-level flags -------------------------------------------------------------

def test_version_and_list_metrics(capsys):
    import coherence

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"coherence {coherence.__version__}"
    with pytest.raises(SystemExit):
        main(["--list-metrics"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [["dicomer", "candidate", "coherence"],
                                                    ["dicomer-gdtb-all", "candidate", "coherence"],
                                                    ["readability", "candidate", "coherence"],
                                                    ["readability-all", "candidate", "coherence"]]


def test_train_dicomer_says_which_model_it_replaces(tmp_path, monkeypatch, capsys):
    import coherence.dicomer.train as train

    monkeypatch.setattr(train, "train", lambda *args, **kwargs: {})
    (tmp_path / "dicomer_model.npz").write_bytes(b"old")
    assert main(["train", "dicomer", "--out", str(tmp_path)]) == 0
    assert f"overwriting {tmp_path / 'dicomer_model.npz'}" in capsys.readouterr().err
    # the opt-in all-genre model has its own file: it never replaces the licence-clean default
    (tmp_path / "dicomer_gdtb_all.npz").write_bytes(b"old")
    assert main(["train", "dicomer", "--out", str(tmp_path), "--genres", "all"]) == 0
    assert f"overwriting {tmp_path / 'dicomer_gdtb_all.npz'}" in capsys.readouterr().err
    assert "CC BY-NC-SA" in train.LICENCE_NOTE and "CC BY 4.0" in train.LICENCE_NOTE
    assert main(["train", "dicomer", "--out", str(tmp_path), "--C", "-1"]) == 2


def test_dicomer_commands_are_on_the_coherence_cli():
    from coherence.cli import build_parser
    from coherence.dicomer.cli import cmd_score, cmd_train_dicomer

    ap = build_parser()
    assert ap.parse_args(["score", "a.txt", "--format", "json"]).func is cmd_score
    args = ap.parse_args(["train", "dicomer", "--mode", "listwise", "--tier", "0"])
    assert args.func is cmd_train_dicomer and args.variant == "DICOMER-N" and args.genres == "open"


def test_input_texts_are_read_by_the_shared_input_rule(tmp_path):
    """On the old main a UTF-16 text was refused as not UTF-8."""
    from coherence.cli import Source
    from evalcore.io.textfiles import InputError
    from evalcore.metric.inputs import InputLimits

    path = tmp_path / "doc.txt"
    path.write_bytes("Le café ferme. It reopens.\n".encode("utf-16"))
    assert Source(str(path)).read(InputLimits()) == "Le café ferme. It reopens.\n"
    path.write_bytes("Le café ferme.".encode("latin-1"))
    with pytest.raises(InputError, match="doc.txt: not valid UTF-8 .*latin-1"):
        Source(str(path)).read(InputLimits())


@pytest.mark.parametrize("twin", ["nfd", "zero-width"])
def test_the_size_cap_counts_the_text_as_metrics_read_it(tmp_path, twin):
    """A text in NFD or padded with zero-width spaces was refused where its clean twin was read."""
    import unicodedata

    from coherence.inputs import Source
    from evalcore.metric.inputs import InputLimits

    text = "한국어 문장입니다. " * 4  # 44 characters in NFC
    raw = unicodedata.normalize("NFD", text) if twin == "nfd" else text.replace(" ", " " + "\u200b" * 20)
    (path,) = _files(tmp_path, raw, names=["t.txt"])
    assert len(raw) > 60 and Source(path).read(InputLimits(44)) == raw
    with pytest.raises(ValueError, match=r"t\.txt: too long \(44 characters > 43;"):
        Source(path).read(InputLimits(43))
