"""PEM reads English only (English pivots, an English language model): a pair in another language
gets an error record naming the language and the metric, never a number."""

import json

import pytest

from evalcore.metric import Item
from parapeval.cli import main


@pytest.fixture
def clean_file(tmp_path, toy_pairs):
    path = tmp_path / "p.tsv"
    path.write_text("original\tparaphrase\n" + "".join(f"{p.original}\t{p.paraphrase}\n" for p in toy_pairs), "utf-8")
    return path


def test_pem_refuses_a_pair_in_another_language_and_scores_the_english_one(toy_pem):
    german = Item("Die Regierung hat den Haushalt gebilligt.", source="Der Haushalt wurde gebilligt.", id="de1",
                  lang="de")
    english = Item("The budget was approved.", source="The council approved the budget.", id="en1")
    refused, scored = toy_pem.score_batch([german, english])
    assert not refused.ok and refused.item == "de1"
    assert refused.message.startswith("pem does not read language 'de'")
    assert scored.ok and scored.value == toy_pem.score_batch([english])[0].value


def test_cli_lang_gives_every_pair_an_error_record_and_exit_1(clean_file, resource_args, capsys):
    code = main(["score", "-i", str(clean_file), "--lang", "fr", "--format", "jsonl", *resource_args])
    out = capsys.readouterr()
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert code == 1 and rows
    assert all("pem does not read language 'fr'" in json.dumps(row, ensure_ascii=False) for row in rows)


def test_cli_lang_must_look_like_a_code(clean_file, resource_args, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["score", "-i", str(clean_file), "--lang", "French", *resource_args])
    assert exit_.value.code == 2 and "invalid language_code value: 'French'" in capsys.readouterr().err
