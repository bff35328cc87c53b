"""The `parapeval` command line on toy resources: the suite's CLI convention (formats pure on
stdout, signatures, exit codes, checks before scoring), bad input files, train, build commands."""

import codecs
import io
import json
import sys

import numpy as np
import pytest

from evalcore.bpng import PhraseTableStore
from parapeval.cli import main
from parapeval.pem.metric import COPY_NOTE
from parapeval.pem.model import load_pem

GOOD = ("the cat sleeps .", "the feline dozes .")


def _strict(text: str):
    """json.loads that refuses NaN and Infinity, as jq and strict readers do."""
    def bad(token):
        raise ValueError(f"non-standard JSON token {token}")
    return json.loads(text, parse_constant=bad)


@pytest.fixture
def pairs_file(tmp_path):
    """Six JSONL lines: two scored pairs, then lines that cannot be scored."""
    path = tmp_path / "pairs.jsonl"
    lines = [json.dumps({"original": GOOD[0], "paraphrase": GOOD[1], "system": "A"}).encode(),
             json.dumps({"original": GOOD[0], "paraphrase": GOOD[0], "system": "B"}).encode(),
             b'{"original": "the cat \xff\xfe", "paraphrase": "x", "system": "B"}',
             b'{"original": "missing paraphrase"}',
             b"not json",
             json.dumps({"original": "", "paraphrase": "", "system": "B"}).encode()]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.fixture
def clean_file(tmp_path, toy_pairs):
    path = tmp_path / "p.tsv"
    path.write_text("original\tparaphrase\tsystem\n" + "".join(
        f"{p.original}\t{p.paraphrase}\tg{i % 3}\n" for i, p in enumerate(toy_pairs)), "utf-8")
    return path


def test_jsonl_stdout_is_pure_rows_and_the_signature_goes_to_stderr(pairs_file, resource_args, capsys):
    """On the old main stdout mixed JSONL rows with the signature and a table, so `jq` failed."""
    rc = main(["score", "-i", str(pairs_file), "--system-field", "system", "--format", "jsonl", *resource_args])
    out, err = capsys.readouterr()
    rows = [_strict(line) for line in out.splitlines()]  # every stdout line is one JSON object
    assert rc == 1 and len(rows) == 6
    assert [r["item"] for r in rows] == [f"pairs.jsonl:{k}" for k in range(1, 7)]
    assert rows[0]["pem"]["value"] > rows[1]["pem"]["value"]
    assert set(rows[0]["pem"]["components"]) == {"adequacy", "fluency", "target_ngram_f1", "pivot_f1_fr"}
    assert rows[1]["pem"]["notes"] == [COPY_NOTE]
    assert "not valid UTF-8" in rows[2]["pem"]["error"] and "unreadable line" in rows[4]["pem"]["error"]
    assert rows[5]["pem"]["error"] == "source is empty"
    assert "pem|pivots:fr=" in err and "model:toy|v:0.2.0" in err
    assert "4 of 6 pairs could not be scored" in err and "pairs.jsonl:6: pem: source is empty" in err


def test_json_is_strict_with_a_top_level_signature_and_summaries(pairs_file, resource_args, capsys):
    rc = main(["score", "-i", str(pairs_file), "--system-field", "system", "--format", "json", *resource_args])
    out, err = capsys.readouterr()
    doc = _strict(out)
    assert rc == 1 and "pem|" not in err
    assert doc["signature"]["pem"]["short"].startswith("pem|pivots:fr=") and doc["failed_items"] == 4
    assert len(doc["items"]) == 6
    systems = {s["system"]: s for s in doc["systems"]["pem"]}
    assert systems["A"]["rank"] == 1 and systems["B"]["rank"] == 2
    assert (systems["B"]["n"], systems["B"]["errors"]) == (1, 1)
    assert systems["all"]["errors"] == 3 and systems["all"]["value"] is None and "rank" not in systems["all"]


def test_tsv_rows_and_the_table_with_signatures_after_it(clean_file, resource_args, capsys, toy_pairs):
    assert main(["score", "-i", str(clean_file), "--system-field", "system", "--format", "tsv", *resource_args]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split("\t")[:4] == ["item", "system", "pem", "pem.adequacy"] and len(lines) == len(toy_pairs) + 1
    assert all(len(line.split("\t")) == len(lines[0].split("\t")) for line in lines)
    assert "pem|" in err and "pem|" not in out
    assert main(["score", "-i", str(clean_file), "--system-field", "system", *resource_args]) == 0
    out, err = capsys.readouterr()
    assert out.rstrip().splitlines()[-2] == "Signatures:" and out.rstrip().splitlines()[-1].strip().startswith("pem|")
    assert "rank  system" in out and err == ""


def test_output_file_and_determinism(clean_file, resource_args, tmp_path, capsys):
    outputs = []
    for k, jobs in enumerate(["1", "1", "2"]):
        out = tmp_path / f"r{k}.jsonl"
        assert main(["score", "-i", str(clean_file), "--format", "jsonl", "--jobs", jobs, "-o", str(out),
                     *resource_args]) == 0
        outputs.append(out.read_text("utf-8"))
        assert capsys.readouterr().out == ""
    assert outputs[0] == outputs[1] == outputs[2]


def test_max_chars_refuses_longer_texts_with_error_records(clean_file, resource_args, capsys, toy_pairs):
    assert main(["score", "-i", str(clean_file), "--format", "jsonl", "--max-chars", "17", *resource_args]) == 1
    rows = [_strict(line) for line in capsys.readouterr().out.splitlines()]
    too_long = [r for r in rows if "error" in r["pem"]]
    assert len(rows) == len(toy_pairs) and too_long
    assert all("too long" in r["pem"]["error"] for r in too_long)
    assert all(len(p.original) <= 17 and len(p.paraphrase) <= 17
               for p, r in zip(toy_pairs, rows) if "value" in r["pem"])


def test_output_into_a_missing_folder_fails_before_scoring(clean_file, resource_args, tmp_path, capsys):
    target = tmp_path / "no" / "such" / "r.json"
    assert main(["score", "-i", str(clean_file), "-o", str(target), *resource_args]) == 2
    assert "folder" in capsys.readouterr().err and not target.exists()


@pytest.mark.parametrize("content,message", [
    (bytes(range(256)) * 4, "binary data"),
    (b"\x00" * 16, "binary data"),
    (b"  \n\t \n", "no pairs to score (the file holds only whitespace)"),
], ids=["binary", "nul-only", "whitespace"])
def test_files_that_hold_no_pairs_exit_2_naming_the_file(tmp_path, resource_args, capsys, content, message):
    """On the old main these gave one error record per line, `nan` summaries and exit 0."""
    path = tmp_path / "input.tsv"
    path.write_bytes(content)
    assert main(["score", "-i", str(path), *resource_args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"input.tsv: {message}" in err and "nan" not in err


def test_standard_input(resource_args, monkeypatch, capsys):
    data = json.dumps({"source": GOOD[0], "candidate": GOOD[1]}) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    assert main(["score", "-i", "-", "--format", "jsonl", *resource_args]) == 0
    (row,) = [_strict(line) for line in capsys.readouterr().out.splitlines()]
    assert row["item"] == "stdin:1" and row["pem"]["value"] > 0


def test_list_metrics_version_and_usage_errors(clean_file, resource_args, capsys):
    for argv in (["--list-metrics"], ["score", "--list-metrics"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
        assert exc.value.code == 0 and listed == ["ibleu", "pem", "self-bleu"]
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == "parapeval 0.2.0"
    assert main(["score", "-i", str(clean_file), "-m", "bleu", *resource_args]) == 2
    assert "unknown metric 'bleu'; parapeval offers: ibleu, pem, self-bleu" in capsys.readouterr().err
    assert main(["score", "-i", str(clean_file), "-m", "ibleu", *resource_args]) == 2
    assert "use `parapeval compare`" in capsys.readouterr().err
    assert main(["score", "-i", str(clean_file), "--table", "fr", *resource_args[2:]]) == 2
    assert "PIVOT=PATH" in capsys.readouterr().err


def test_missing_model_and_empty_input_are_clear_errors(clean_file, resource_args, tmp_path, capsys):
    assert main(["score", "-i", str(clean_file), *resource_args[:4], "--model", str(tmp_path / "none.npz")]) == 2
    assert "parapeval train" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert main(["score", "-i", str(empty), *resource_args]) == 2
    assert "empty.jsonl: no pairs to score" in capsys.readouterr().err
    assert main(["score", "-i", str(tmp_path / "none.tsv"), *resource_args]) == 2
    assert "none.tsv: no such file" in capsys.readouterr().err


def _twitter_para(path, pairs):
    path.write_text("".join(json.dumps({"source": p.original, "candidates": [{"text": p.paraphrase, "score": p.score}]})
                            + "\n" for p in pairs), "utf-8")
    return path


def test_train_writes_the_model_file(resource_args, tmp_path, capsys, toy_pairs):
    data = _twitter_para(tmp_path / "tp.jsonl", toy_pairs)
    out = tmp_path / "models" / "new.npz"
    assert main(["train", "--data", str(data), "--out", str(out), "--controls", *resource_args[:4]]) == 0
    model, info = load_pem(out)
    assert info["controls"] and info["pivots"] == ["fr"] and info["pairs"] == len(toy_pairs) + 3 * 4
    assert info["trained_on"].startswith("Twitter-Para (tp.jsonl): 12 human-scored pairs + 12 controls")
    assert info["signature"].startswith("pem|pivots:fr|fw:none|lm:toy:4g:") and info["licence"]
    neutral = np.array([list(info["neutral"]["features"].values())])
    assert info["neutral"]["value"] == pytest.approx(model.predict(neutral)[0])
    assert np.isfinite(model.predict(np.array([[0.5, -2.0, 0.3]]))).all()
    one = _twitter_para(tmp_path / "one.jsonl", [p for p in toy_pairs if p.original == "the cat sleeps ."])
    assert main(["train", "--data", str(one), "--out", str(out), *resource_args[:4]]) == 2
    assert "at least 3 distinct originals" in capsys.readouterr().err


def test_build_phrase_table_cli_on_tiny_and_bad_bitexts(tmp_path, capsys):
    src, tgt, out = tmp_path / "t.en", tmp_path / "t.fr", tmp_path / "tables" / "t.sqlite"
    src.write_text("the cat sleeps .\nthe dog eats .\na cat eats .\n", "utf-8")
    tgt.write_text("le chat dort .\nle chien mange .\nun chat mange .\n", "utf-8")
    assert main(["build-phrase-table", "--src", str(src), "--tgt", str(tgt), "--pivot", "fr", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}\tpt:fr:t:")
    assert PhraseTableStore(out).lookup([(".",)])[(".",)].translations[0][0] == (".",)
    src.write_text("\n \n", "utf-8")
    tgt.write_text("x\n\n", "utf-8")
    assert main(["build-phrase-table", "--src", str(src), "--tgt", str(tgt), "--pivot", "fr", "--out", str(out)]) == 2
    assert "no usable sentence pair" in capsys.readouterr().err
    assert main(["build-phrase-table", "--src", str(tmp_path / "none.en"), "--tgt", str(tgt), "--pivot", "fr",
                 "--out", str(out)]) == 2
    assert "none.en: cannot be read" in capsys.readouterr().err


def test_build_lm_cli_reads_utf8_with_bom_and_names_bad_files(tmp_path, capsys):
    text = tmp_path / "t.txt"
    text.write_bytes(codecs.BOM_UTF8 + b"Zebra runs .\nzebra sleeps .\n")
    assert main(["build-lm", "--text", str(text), "--out", str(tmp_path / "t.arpa")]) == 0
    assert f"{tmp_path / 't.arpa'}\tlm:t:4g:" in capsys.readouterr().out
    arpa = (tmp_path / "t.arpa").read_text("utf-8")
    assert "\ufeff" not in arpa and "\tzebra\t" in arpa
    text.write_bytes(b"caf\xe9 .\n")
    assert main(["build-lm", "--text", str(text), "--out", str(tmp_path / "u.klm")]) == 2
    assert "t.txt: not valid UTF-8" in capsys.readouterr().err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_scores_as_its_utf8_twin(clean_file, resource_args, tmp_path, capsys, encoding):
    """On the old main a UTF-16 file was refused (exit 2); the other CLIs mis-read it."""
    twin = tmp_path / "twin.tsv"
    twin.write_bytes(clean_file.read_text("utf-8").encode(encoding))
    assert main(["score", "-i", str(clean_file), "--format", "tsv", *resource_args]) == 0
    utf8 = capsys.readouterr().out
    assert main(["score", "-i", str(twin), "--format", "tsv", *resource_args]) == 0
    assert capsys.readouterr().out == utf8.replace("p.tsv:", "twin.tsv:")


def test_a_nul_byte_is_removed_with_a_note_not_a_rejected_file(clean_file, resource_args, tmp_path, capsys):
    """On the old main one NUL byte made parapeval refuse the whole file as binary (exit 2)."""
    lines = clean_file.read_text("utf-8").split("\n")
    lines[1] = lines[1].replace(" ", " \x00", 1)
    nul = tmp_path / "nul.tsv"
    nul.write_text("\n".join(lines), "utf-8")
    assert main(["score", "-i", str(clean_file), "--format", "jsonl", *resource_args]) == 0
    clean = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["score", "-i", str(nul), "--format", "jsonl", *resource_args]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["pem"]["value"] for r in rows] == [r["pem"]["value"] for r in clean]
    assert rows[0]["pem"]["notes"][-1].startswith("cleaned: source: removed 1 control character (U+0000")
