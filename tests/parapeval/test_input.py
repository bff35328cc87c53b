"""Reading users' files: pair files (BOM, blank lines, bad bytes, empty, UTF-16, binary,
whitespace only, standard input) and training data."""

import codecs
import io
import json
import sys

import pytest

from evalcore.io.textfiles import InputError
from parapeval.data import read_twitter_para
from parapeval.io import BLANK_LINE, read_pairs

BOM = codecs.BOM_UTF8


def test_tsv_header_after_bom_is_recognised(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_bytes(BOM + b"original\tparaphrase\tsystem\nthe cat\ta cat\tg1\n")
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


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_file_reads_like_its_utf8_twin(tmp_path, encoding):
    path = tmp_path / "pairs.tsv"
    path.write_bytes("the café\ta cat\r\nthe dog\ta dog\n".encode(encoding))
    assert [(r.item, r.original, r.paraphrase, r.error) for r in read_pairs(path)] == [
        ("pairs.tsv:1", "the café", "a cat", ""), ("pairs.tsv:2", "the dog", "a dog", "")]


def test_one_nul_byte_costs_nothing_but_itself(tmp_path):
    """On the old main one NUL byte made the whole file binary data."""
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"the c\x00at\ta cat\nthe dog\ta dog\n")
    assert [(r.original, r.error) for r in read_pairs(path)] == [("the c\x00at", ""), ("the dog", "")]


def test_jsonl_system_field_is_read_by_default(tmp_path):
    """On the old main a JSONL ``system`` field was ignored unless --system-field system."""
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps({"original": "a", "paraphrase": "b", "system": "g1"}) + "\n"
                    + json.dumps({"original": "a", "paraphrase": "c"}) + "\n", "utf-8")
    assert [r.system for r in read_pairs(path)] == ["g1", "all"]
    assert [r.system for r in read_pairs(path, "other")] == ["all", "all"]


def test_binary_file_is_one_clear_error_naming_it(tmp_path):
    path = tmp_path / "model.jsonl"
    path.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(InputError, match=r"model\.jsonl: binary data"):
        read_pairs(path)
    path.write_bytes(b"\xfa\x80 x\xff\n\x81\x82\n")  # no NUL, but no line is UTF-8 either
    with pytest.raises(InputError, match=r"model\.jsonl: no line holds a pair \(2 lines; model\.jsonl:1: not valid "
                                         r"UTF-8 \(byte 0xfa at byte 0; it looks like latin-1"):
        read_pairs(path)


@pytest.mark.parametrize("content", [b"  \n\t \n\n", b" \r\n\r\n", BOM + b"\t\n"])
def test_whitespace_only_file_is_one_clear_error(tmp_path, content):
    path = tmp_path / "blank.tsv"
    path.write_bytes(content)
    with pytest.raises(InputError, match=r"blank\.tsv: no pairs to score \(the file holds only whitespace\)"):
        read_pairs(path)


@pytest.mark.parametrize("content", [b"\t\t\n\t\x00\t\n", b"  \x00   \n \xe2\x80\x8b \n"])
def test_control_and_invisible_characters_do_not_make_a_whitespace_file_hold_pairs(tmp_path, content):
    """A file reads as its twin without the characters the input rule removes: tabs and a NUL are
    whitespace only, as the same tabs without the NUL are (a fuzz run found the two exiting 1 and 2)."""
    path = tmp_path / "blank.tsv"
    path.write_bytes(content)
    with pytest.raises(InputError, match=r"blank\.tsv: no pairs to score \(the file holds only whitespace\)"):
        read_pairs(path)


def test_a_line_of_removed_characters_alone_is_a_blank_line_with_its_record(tmp_path):
    """Junk, not an absent line: it gets a record wherever it is, also when it closes the file (a
    fuzz run found such a closing line without a row)."""
    path = tmp_path / "pairs.tsv"
    path.write_bytes(b"the council met\tthe council has met\n\x7f\x0c\xc2\x9f\x00")
    assert [(r.item, r.error) for r in read_pairs(path)] == [("pairs.tsv:1", ""), ("pairs.tsv:2", BLANK_LINE)]
    path.write_bytes(b"a b\ta c\n\xe2\x80\x8b\n\na b\ta b\n\x0c\x7f\n")
    assert [r.error for r in read_pairs(path)] == ["", BLANK_LINE, BLANK_LINE, "", BLANK_LINE]


def test_a_file_without_a_single_pair_is_an_error(tmp_path):
    path = tmp_path / "one-column.tsv"
    path.write_text("just text\nmore text\n", "utf-8")
    with pytest.raises(InputError, match=r"no line holds a pair \(2 lines; one-column\.tsv:1: .*2 tab-separated"):
        read_pairs(path)


@pytest.mark.parametrize("text,expect", [('{"original": "a", "paraphrase": "b"}\n', ("a", "b")),
                                         ("a\tb\n", ("a", "b"))])
def test_standard_input_is_read_as_jsonl_or_tsv(monkeypatch, text, expect):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    (rec,) = read_pairs("-")
    assert (rec.item, rec.original, rec.paraphrase) == ("stdin:1", *expect)


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


def test_standard_input_with_a_broken_first_line_is_still_jsonl(monkeypatch):
    """On the old main the first line alone decided: a JSONL stream opening with a broken line
    (`"a string"`) was read as TSV, every line unreadable, and the run stopped (exit 2)."""
    text = '"a string"\n{"original": "the cat", "paraphrase": "a cat"}\n{"original": "x", "paraphrase": "y"}\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    records = read_pairs("-")
    assert [(r.original, r.paraphrase) for r in records] == [(None, None), ("the cat", "a cat"), ("x", "y")]
    assert records[0].error.startswith("unreadable line")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'\t\n{"original": "a", "paraphrase": "b"}\n')))
    assert [(r.original, r.error) for r in read_pairs("-")] == [(None, "blank line: no pair"), ("a", "")]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'\t\r{"original": "a", "paraphrase": "b"}')))
    assert [(r.original, r.error) for r in read_pairs("-")] == [(None, "blank line: no pair"), ("a", "")]  # CR ends
    # a line as LF does (the one line-end rule, docs/input-rule.md)


def test_standard_input_reads_as_the_same_file_named_jsonl(monkeypatch, tmp_path):
    """JSONL lines that do not decode still count as JSONL: standard input is read as the same
    bytes named ``pairs.jsonl`` are (every line unreadable: no pair, exit 2), not as TSV in which
    a tab-only line is a pair of empty texts (fuzzer, parapeval lossless-same-exit-code)."""
    data = b'{"original": "in \xff rose", "paraphrase": "b"}\n\t\n{"original": "\xff", "paraphrase": "c"}\n'
    (tmp_path / "pairs.jsonl").write_bytes(data)
    with pytest.raises(InputError, match="no line holds a pair") as named:
        read_pairs(tmp_path / "pairs.jsonl")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    with pytest.raises(InputError, match="no line holds a pair") as piped:
        read_pairs("-")
    assert str(named.value).split(": ", 1)[1] == str(piped.value).split(": ", 1)[1].replace("stdin", "pairs.jsonl")


def test_a_json_object_after_a_byte_order_mark_counts_as_jsonl_on_standard_input(monkeypatch, tmp_path):
    """A tab, CR and a BOM before ``{}`` (one line: CR alone ends none): named ``.jsonl`` it is an
    unreadable JSON line; standard input reads it the same way, not as a TSV pair of empty texts
    (fuzzer, parapeval same-exit-code-every-format)."""
    data = "\t\r\ufeff{}".encode()
    (tmp_path / "pairs.jsonl").write_bytes(data)
    with pytest.raises(InputError, match="no line holds a pair"):
        read_pairs(tmp_path / "pairs.jsonl")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    with pytest.raises(InputError, match="no line holds a pair"):
        read_pairs("-")


def test_a_raw_control_character_in_a_json_string_costs_nothing(tmp_path):
    """On the old main strict JSON refused the line: a pair lost for a character the input rule removes."""
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(b'{"original": "the \x01cat", "paraphrase": "a cat"}\n')
    (rec,) = read_pairs(path)
    assert (rec.original, rec.paraphrase, rec.error) == ("the \x01cat", "a cat", "")


def test_a_numeric_system_is_that_line_s_error_record_not_merged_with_its_text(tmp_path):
    """``"system": 1`` and ``"system": "1"`` were one system (docs/input-rule.md: ids are text)."""
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"original": "a", "paraphrase": "b", "system": s}) + "\n" for s in ("1", 1)),
                    "utf-8")
    records = read_pairs(path)
    assert records[0].system == "1" and not records[0].error
    assert records[1].error == ('unreadable line: \'system\' is the number 1; ids are text in JSON: '
                                'write "system": "1"')
