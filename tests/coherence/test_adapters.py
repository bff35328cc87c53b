"""Adapters: precomputed parses and an external parser command (a tiny fake written here)."""

from __future__ import annotations

import sys

import pytest

from coherence.adapters import ExternalParser, PrecomputedParses, read_parse
from coherence.formats.conll_json import write_conll_json
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
    write_conll_json([rel], js)
    assert read_parse(js, TEXT)[0].rel_type == "EntRel"
    assert write_pipe(read_parse(js, TEXT)).startswith("EntRel|")


def _pdtb2_line(arg1: str = "0..9", arg1_text: str = "It rained") -> str:
    """A PDTB-2 (48-field) line for TEXT: these lines carry the raw text of each part."""
    fields = [""] * 48
    fields[0], fields[3], fields[5], fields[11] = "Explicit", "11..14", "But", "Comparison.Concession"
    fields[22], fields[24], fields[32], fields[34] = arg1, arg1_text, "15..26", "we  went\tout"
    return "|".join(fields)


def test_raw_text_of_arguments_must_match_the_text(tmp_path):
    pipe = tmp_path / "doc.pipe"
    pipe.write_text(_pdtb2_line() + "\n" + _pdtb2_line("0..2;3..9", "It # rained") + "\n", "utf-8")
    assert [r.arg1 for r in read_parse(pipe, TEXT)] == [((0, 9),), ((0, 2), (3, 9))]  # whitespace ignored
    pipe.write_text(_pdtb2_line(arg1_text="It snowed") + "\n", "utf-8")
    with pytest.raises(RelationError, match=r"doc.pipe: relation 1: Arg1 text 'It snowed' differs .*'It rained'"):
        read_parse(pipe, TEXT)
    js = tmp_path / "doc.json"
    write_conll_json([Relation("EntRel", None, ((0, 9),), ((15, 26),))], js, text=TEXT)
    with pytest.raises(RelationError, match=r"doc.json: relation 1: Arg2 text 'we went out' differs"):
        read_parse(js, "It rained. But he sat down.")  # same length, other words


def test_precomputed_parse_written_for_another_text_is_rejected(tmp_path):
    rel = Relation("Implicit", "Contingency", ((0, 9),), ((11, 26),), doc_id="b.txt")
    (tmp_path / "a.pipe").write_text(write_pipe([rel]), "utf-8")  # fits TEXT's length, but is b's parse
    with pytest.raises(RelationError, match="a.pipe: relation 1 was written for b.txt, not a.txt"):
        PrecomputedParses(tmp_path).parse(TEXT, "a.txt")
    (tmp_path / "a.pipe").rename(tmp_path / "b.pipe")
    assert PrecomputedParses(tmp_path).parse(TEXT, "dir/b.txt")[0].arg2 == ((11, 26),)


def test_precomputed_lookup_is_exact(tmp_path):
    pre = PrecomputedParses(tmp_path)
    (tmp_path / "b.alt.pipe").write_text("", "utf-8")  # sorts before b.pipe: another text's parse
    (tmp_path / "b.pipe").write_text(LINE + "\n", "utf-8")
    assert pre.find("texts/b.txt") == tmp_path / "b.pipe"
    (tmp_path / "b.txt.json").write_text("", "utf-8")
    with pytest.raises(RelationError, match=r"several precomputed parses .*\(b.pipe, b.txt.json\)"):
        pre.find("b.txt")
    with pytest.raises(RelationError, match=r"c.txt: no precomputed parse .*c.pipe, c.json"):
        pre.find("c.txt")


def test_adapters_fill_sentence_indices(tmp_path):
    cmd = fake_command(tmp_path, f"import sys\nprint({LINE!r})\n")
    (tmp_path / "doc.pipe").write_text(LINE + "\n", "utf-8")
    for adapter in (ExternalParser(cmd), PrecomputedParses(tmp_path)):
        (rel,) = adapter.parse(TEXT, "doc.txt")
        assert (rel.arg1_sentences, rel.arg2_sentences) == ((0,), (1,)), adapter.provider
