"""Reading users' files: pair files (BOM, blank lines, bad bytes, empty), bitexts, training data."""

import codecs
import json

import pytest

from evalcore.textio import InputError
from parapeval.data import read_twitter_para
from parapeval.io import read_pairs, write_results
from parapeval.phrase_table.bitext import read_parallel_files

BOM = codecs.BOM_UTF8


def test_tsv_header_after_bom_is_recognised(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_bytes(BOM + "original\tparaphrase\tsystem\nthe cat\ta cat\tg1\n".encode())
    recs = read_pairs(path, "system")
    assert [(r.item, r.original, r.paraphrase, r.system) for r in recs] == [("p.tsv:2", "the cat", "a cat", "g1")]


def test_jsonl_first_line_after_bom_is_read(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_bytes(BOM + json.dumps({"original": "the cat", "paraphrase": "a cat"}).encode() + b"\n")
    (rec,) = read_pairs(path)
    assert (rec.original, rec.paraphrase, rec.error) == ("the cat", "a cat", "")


def test_every_line_gets_a_record(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_bytes(b"a\tb\n\n  \n\t\nbad \xff\tx\r\nlast\tline\n\n")
    recs = read_pairs(path)
    assert [r.item for r in recs] == [f"p.tsv:{i}" for i in range(1, 7)]  # closing empty lines are no items
    assert recs[1].error == recs[2].error == "blank line: no pair"
    assert (recs[3].original, recs[3].paraphrase, recs[3].error) == ("", "", "")  # a pair of empty sides
    assert "not valid UTF-8" in recs[4].error
    assert (recs[5].original, recs[5].paraphrase) == ("last", "line")


def test_jsonl_blank_and_non_object_lines(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('[1, 2]\n\n"text"\n{"source": "a", "candidate": "b", "id": 7}\n', "utf-8")
    recs = read_pairs(path)
    assert "JSON object per line" in recs[0].error and recs[1].error == "blank line: no pair"
    assert "JSON object per line" in recs[2].error
    assert (recs[3].item, recs[3].original, recs[3].paraphrase) == ("p.jsonl:4 (id 7)", "a", "b")


@pytest.mark.parametrize("content", [b"", b"\n", BOM, b"original\tparaphrase\n"])
def test_file_without_pairs_is_an_error(tmp_path, content):
    path = tmp_path / "p.tsv"
    path.write_bytes(content)
    with pytest.raises(InputError, match="no pairs"):
        read_pairs(path)


def test_unreadable_input_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot be read"):
        read_pairs(tmp_path / "missing.tsv")
    with pytest.raises(InputError, match="cannot be read"):
        read_pairs(tmp_path)


def test_tsv_output_keeps_one_row_per_pair(tmp_path):
    out = tmp_path / "r.tsv"
    write_results(out, [{"item": "p.jsonl:1 (id a\tb)", "pem": 0.5}, {"item": "p.jsonl:2", "error": "x\ny"}])
    lines = out.read_text("utf-8").splitlines()
    assert lines == ["item\tpem\terror", "p.jsonl:1 (id a b)\t0.5\t", "p.jsonl:2\t\tx y"]


def test_bitext_bom_separators_and_bad_bytes(tmp_path):
    src, tgt = tmp_path / "b.en", tmp_path / "b.fr"
    src.write_bytes(BOM + "the cat\u2028sleeps\nthe dog\x0ceats\r\n".encode())
    tgt.write_text("le chat dort\nle chien mange\n", "utf-8")
    assert read_parallel_files(src, tgt) == [("the cat\u2028sleeps", "le chat dort"), ("the dog\x0ceats", "le chien mange")]
    src.write_bytes(b"the \xff cat\nthe dog\n")
    with pytest.raises(InputError, match=r"b\.en: not valid UTF-8"):
        read_parallel_files(src, tgt)


def test_twitter_para_errors_name_the_line(tmp_path):
    path = tmp_path / "tp.jsonl"
    good = json.dumps({"source": "a", "candidates": [{"text": "b", "score": 0.5}]})
    path.write_bytes(BOM + (good + "\n").encode())
    assert [(p.original, p.paraphrase, p.score) for p in read_twitter_para(path)] == [("a", "b", 0.5)]
    path.write_text(good + '\n{"source": "a"}\n', "utf-8")
    with pytest.raises(InputError, match=r"tp\.jsonl:2: not a Twitter-Para record"):
        read_twitter_para(path)
    path.write_text('{"source": "a", "candidates": []}\n', "utf-8")
    with pytest.raises(InputError, match="no scored pairs"):
        read_twitter_para(path)
