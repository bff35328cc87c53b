"""Relation records and the PDTB pipe / CoNLL JSON readers and writers."""

from __future__ import annotations

import json

import pytest

from coherence.formats.conll_json import parse_conll_text, read_conll_json, write_conll_json
from coherence.formats.pdtb_pipe import parse_line, read_pipe, write_pipe
from coherence.relations import Relation, RelationError, level1, parse_spans

CORE = ("rel_type", "sense", "l1", "arg1", "arg2", "connective")


def core(rel: Relation) -> tuple:
    return tuple(getattr(rel, k) for k in CORE)


def test_level1_normalisation():
    assert level1("Explicit", "Comparison.Concession.Arg2-as-denier") == "Comparison"
    assert level1("Implicit", "Cmparison.Contrast") == "Comparison"
    assert level1("Implicit", "NoRel") == "NoRel"
    assert level1("Hypophora", None) == "EntRel"
    assert level1("EntRel", None) == "EntRel"
    with pytest.raises(RelationError, match="unknown level-1"):
        level1("Implicit", "Banana.Split")


def test_bad_records():
    with pytest.raises(RelationError, match="unknown relation type"):
        Relation("Weird", None, (), ())
    with pytest.raises(RelationError, match="bad span"):
        parse_spans("5..2", "doc:1")
    with pytest.raises(RelationError, match="doc:3.*fields"):
        parse_line("Explicit|1..2", "doc:3")


def test_pipe_round_trip_all_gdtb_files_byte_exact(gdtb_dir):
    files = sorted((gdtb_dir / "pdtb" / "gold" / "00").iterdir())
    assert len(files) > 250
    for path in files:
        rels = read_pipe(path)
        assert write_pipe(rels) == path.read_text("utf-8"), path.name


def test_pipe_reader_fields(gdtb_dir):
    rels = read_pipe(gdtb_dir / "pdtb" / "gold" / "00" / "GUM_academic_discrimination")
    first = rels[0]
    assert first.rel_type == "Implicit" and first.l1 == "Expansion"
    assert first.connective_text == "for example" and first.connective == ()
    assert first.arg1 == ((153, 264),) and first.arg2 == ((265, 346),)
    explicit = [r for r in rels if r.explicit and r.connective]
    assert explicit and all(r.connective_text for r in explicit)


def test_pdtb2_48_field_line():
    fields = [""] * 48
    fields[0], fields[3], fields[5], fields[11] = "Explicit", "10..13", "but", "Comparison.Contrast"
    fields[22], fields[32] = "0..9", "14..30"
    rel = parse_line("|".join(fields), "lin:1")
    assert (rel.rel_type, rel.l1, rel.connective, rel.arg1, rel.arg2) == \
        ("Explicit", "Comparison", ((10, 13),), ((0, 9),), ((14, 30),))


def test_conll_json_round_trip_on_gdtb(gdtb_dir, tmp_path):
    src = gdtb_dir / "pdtb" / "gold" / "00" / "GUM_academic_discrimination"
    text = (gdtb_dir / "pdtb" / "raw" / "00" / src.name).read_text("utf-8")
    rels = read_pipe(src)
    out = tmp_path / "rels.json"
    write_conll_json(rels, out, text=text)
    back = read_conll_json(out)
    assert [core(r) for r in back] == [core(r) for r in rels]
    obj = json.loads(out.read_text().splitlines()[0])
    assert obj["Type"] == "Implicit" and obj["Arg1"]["RawText"] == text[153:264]


def test_conll_token_lists():
    gold = {"Type": "Explicit", "Sense": ["Temporal.Asynchronous.Precedence"],
            "Connective": {"TokenList": [[4, 9, 1, 0, 1]], "RawText": "after"},
            "Arg1": {"TokenList": [[0, 3, 0, 0, 0]]}, "Arg2": {"TokenList": [[10, 12, 2, 0, 2]]}}
    rel = parse_conll_text(json.dumps(gold))[0]
    assert rel.connective == ((4, 9),) and rel.l1 == "Temporal"
    system = {"Type": "Implicit", "Sense": ["Expansion"], "Connective": {"TokenList": []},
              "Arg1": {"TokenList": [0, 1]}, "Arg2": {"TokenList": [2]}}
    rel = parse_conll_text(json.dumps(system), token_offsets=[(0, 3), (4, 9), (10, 12)])[0]
    assert rel.arg1 == ((0, 9),) and rel.arg2 == ((10, 12),)
    with pytest.raises(RelationError, match="no token offsets"):
        parse_conll_text(json.dumps(system), "sys.json")
    with pytest.raises(RelationError, match="sys.json:1: invalid JSON"):
        parse_conll_text("{nope", "sys.json")


def test_undecodable_relation_file(tmp_path):
    bad = tmp_path / "bad.pipe"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RelationError, match="bad.pipe: not valid UTF-16LE"):
        read_pipe(bad)
    bad.write_bytes("caf\xe9|x".encode("latin-1"))
    with pytest.raises(RelationError, match="bad.pipe: not valid UTF-8 .*latin-1"):
        read_pipe(bad)
