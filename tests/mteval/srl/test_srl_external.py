"""External frames: CoNLL-U with PropBank columns and the JSON form, read with errors naming the
line, and the suite's own output read back."""

import json

import pytest

from mteval.srl.external import format_of, parse_conllu, parse_json, read_frames, to_conllu, to_json_lines
from mteval.srl.features import Parsed
from mteval.srl.frames import Argument, Frame, FramedSentence

CONLLU = """\
# sent_id = 1
1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t_\t_\t_\tARG0
2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t_\t_\tgive.01\tV
3\tMary\tMary\tPROPN\tNNP\t_\t2\tiobj\t_\t_\t_\tARG2
4\ta\ta\tDET\tDT\t_\t5\tdet\t_\t_\t_\t_
5\tbook\tbook\tNOUN\tNN\t_\t2\tobj\t_\t_\t_\tARG1
"""
GIVE = FramedSentence(("John", "gave", "Mary", "a", "book"), (
    Frame(1, "give", "verbal",
          (Argument("ARG0", 0, (0, 1)), Argument("ARG2", 2, (2, 3)), Argument("ARG1", 4, (3, 5)))),))


def test_conllu_frames():
    assert parse_conllu(CONLLU.splitlines()) == [GIVE]


def test_json_lines_and_array_round_trip(tmp_path):
    text = to_json_lines([GIVE, FramedSentence(("Hi",))])
    assert parse_json(text.splitlines(keepends=True)) == [GIVE, FramedSentence(("Hi",))]
    path = tmp_path / "frames.json"
    path.write_text(json.dumps([GIVE.to_json()], indent=1))
    assert read_frames(path) == [GIVE]


def test_own_conllu_reads_back():
    parsed = Parsed(words=GIVE.tokens, lemmas=("John", "give", "Mary", "a", "book"),
                    tags=("NNP", "VBD", "NNP", "DT", "NN"), pos=("PROPN", "VERB", "PROPN", "DET", "NOUN"),
                    deps=("nsubj", "ROOT", "dative", "det", "dobj"), heads=(1, -1, 1, 4, 1), sents=(0,) * 5)
    text = to_conllu([GIVE], [parsed], ["John gave Mary a book"])
    assert "# text = John gave Mary a book" in text
    assert parse_conllu(text.splitlines()) == [GIVE]


@pytest.mark.parametrize("lines, message", [
    (['{"tokens": ["a"], "frames": []}\n', "{oops\n"], ":2: not valid JSON"),
    (['{"frames": []}\n'], ":1: missing field 'tokens'"),
    (['{"tokens": ["a"], "frames": [{"predicate": 5, "lemma": "x"}]}\n'], ":1: predicate index 5 outside"),
    (['\n', '{"tokens": ["a", "b"], "frames": [{"predicate": 0, "lemma": "x", "kind": "weird"}]}\n'],
     ":2: frame kind must be one of"),
    (['["not an object"]\n'], ":1: expected a JSON object"),
])
def test_bad_json_names_the_line(lines, message):
    with pytest.raises(ValueError, match=f"^ext.json{message}"):
        parse_json(lines, "ext.json")


def test_bad_conllu_names_the_line():
    bad = CONLLU.replace("2\tgave\tgive\tVERB\tVBD\t_\t0", "2\tgave\tgive\tVERB\tVBD\t_\tx")
    with pytest.raises(ValueError, match="^ext.conllu:3: head 'x'"):
        parse_conllu(bad.splitlines(), "ext.conllu")


def test_format_by_extension_or_declared():
    assert format_of("a.conllu") == "conllu" and format_of("a.jsonl") == "json"
    assert format_of("a.txt", "json") == "json"
    with pytest.raises(ValueError, match="say conllu or json"):
        format_of("a.txt")
    with pytest.raises(ValueError, match="must be one of"):
        format_of("a.txt", "xml")
