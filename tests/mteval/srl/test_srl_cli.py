"""``mteval srl FILE``: frames of every line in both formats, error records for bad lines."""

import json

from mteval.cli import main
from mteval.srl.external import parse_conllu


def test_srl_command_json_and_conllu(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("John gave Mary a book.\n\nThe house is big.\n")
    assert main(["srl", str(src), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    first, empty, third = [json.loads(line) for line in out.splitlines()]
    assert first["line"] == 1 and first["frames"][0]["lemma"] == "give"
    assert empty == {"line": 2, "tokens": [], "frames": [], "error": f"{src}:2: empty line"}
    assert third["tokens"] == ["The", "house", "is", "big", "."]
    assert "1 of 3 lines could not be labelled" in err
    assert main(["srl", str(src), "--format", "conllu"]) == 1
    out, err = capsys.readouterr()
    give, house = parse_conllu(out.splitlines())
    assert {(a.role, a.head) for a in give.frames[0].arguments} == {("ARG0", 0), ("ARG2", 2), ("ARG1", 4)}
    assert f"{src}:2: empty line" in err


def test_srl_command_names_a_missing_model(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("Ein Satz.\n")
    assert main(["srl", str(src), "--model", str(tmp_path / "missing.npz")]) == 2
    assert "not found" in capsys.readouterr().err


def test_srl_command_names_what_german_lacks(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("Der Hund bellt.\n")
    assert main(["srl", str(src), "-l", "de"]) == 2
    assert "no offline German dependency parser" in capsys.readouterr().err
