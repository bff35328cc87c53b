"""Adapters: precomputed parses and an external parser command (a tiny fake written here)."""

from __future__ import annotations

import sys

import pytest

from coherence.adapters import ExternalParser, read_parse
from coherence.formats.pdtb_pipe import write_pipe
from coherence.relations import Relation, RelationError

TEXT = "It rained. But we went out."
LINE = "Explicit|11..14||||||But|Comparison.Concession||||||0..9||||||15..26|||||||||||11..14|x|"


def fake_command(tmp_path, body: str) -> str:
    script = tmp_path / "fake_parser.py"
    script.write_text(body, "utf-8")
    return f"{sys.executable} {script} {{input}}"


def test_external_parser_pipe_stdout(tmp_path):
    cmd = fake_command(tmp_path, f"import sys\nopen(sys.argv[1]).read()\nprint({LINE!r})\n")
    rels = ExternalParser(cmd, "pipe").parse(TEXT, "doc")
    assert len(rels) == 1 and rels[0].l1 == "Comparison" and rels[0].provider == "external:pipe"
    assert TEXT[slice(*rels[0].connective[0])] == "But"


def test_external_parser_json_output_file(tmp_path):
    body = ("import json, sys\n"
            "obj = {'Type': 'Implicit', 'Sense': ['Expansion.Conjunction'], 'Connective': {},"
            " 'Arg1': {'CharacterSpanList': [[0, 9]]}, 'Arg2': {'CharacterSpanList': [[15, 26]]}}\n"
            "open(sys.argv[2], 'w').write(json.dumps(obj) + '\\n')\n")
    script = tmp_path / "fake_json.py"
    script.write_text(body, "utf-8")
    rels = ExternalParser(f"{sys.executable} {script} {{input}} {{output}}", "json").parse(TEXT)
    assert rels[0].rel_type == "Implicit" and rels[0].arg2 == ((15, 26),)


def test_external_parser_failures(tmp_path):
    with pytest.raises(ValueError, match="input"):
        ExternalParser("echo hi")
    crash = fake_command(tmp_path, "import sys\nsys.exit('boom')\n")
    with pytest.raises(RelationError, match="doc: external parser exited with 1: boom"):
        ExternalParser(crash).parse(TEXT, "doc")
    with pytest.raises(RelationError, match="failed to run"):
        ExternalParser("/no/such/binary {input}").parse(TEXT, "doc")


def test_precomputed_parse_and_text_mismatch(tmp_path):
    path = tmp_path / "doc.pipe"
    path.write_text(LINE + "\n", "utf-8")
    assert read_parse(path, TEXT)[0].connective_text == "But"
    with pytest.raises(RelationError, match="text mismatch"):
        read_parse(path, "It rained. And we went out.")
    with pytest.raises(RelationError, match="outside the text"):
        read_parse(path, "Short.")
    rel = Relation("EntRel", None, ((0, 9),), ((11, 26),))
    js = tmp_path / "doc.json"
    from coherence.formats.conll_json import write_conll_json

    write_conll_json([rel], js)
    assert read_parse(js, TEXT)[0].rel_type == "EntRel"
    assert write_pipe(read_parse(js, TEXT)).startswith("EntRel|")
