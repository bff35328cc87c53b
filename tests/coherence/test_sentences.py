"""Sentences as the data has them: a line break ends a sentence (``--sentences auto|lines|text``)
for DICOMER, readability and CREMER, on CNN/DailyMail-style and TAC-style files."""

from __future__ import annotations

import pytest

from coherence.sentences import parse_texts
from evalcore.text.sentences import SENTENCE_MODES, check_mode, effective_mode, line_starts

# CNN/DailyMail highlights: one sentence a line, no final punctuation
CNNDM = ("Council approves budget after long debate\nMayor says two schools will open next year\n"
         "Opposition calls the plan too costly")
# TAC peer summaries: one sentence a line, with punctuation, a blank line and CRLF ends
TAC = "The council met on Monday.\r\nIt approved the budget.\r\n\r\nThe mayor was pleased.\r\n"


def _sentences(pt) -> list[str]:
    return [" ".join(pt.words[a:b]) for a, b in pt.sentences]


def test_modes_and_effective_mode():
    assert SENTENCE_MODES == ("auto", "lines", "text")
    assert effective_mode(CNNDM, "auto") == "lines"
    assert effective_mode("One line only.\n", "auto") == "text"  # a final line end separates no words
    assert effective_mode(CNNDM, "text") == "text"
    with pytest.raises(ValueError, match="auto, lines, text"):
        check_mode("paragraphs")


def test_line_starts_marks_tokens_after_a_line_break():
    text = "a b\nc\u2028d"
    assert line_starts(text, [(0, 1), (2, 3), (4, 5), (6, 7)]) == [False, False, True, True]


def test_cnndm_lines_are_sentences():
    by_lines, = parse_texts([CNNDM], mode="auto")
    assert len(by_lines.sentences) == 3
    assert _sentences(by_lines)[1] == "Mayor says two schools will open next year"
    joined, = parse_texts([CNNDM], mode="text")
    assert len(joined.sentences) < 3  # the parser alone runs unpunctuated lines together


def test_tac_lines_with_crlf_and_blank_lines():
    pt, = parse_texts([TAC], mode="lines")
    assert _sentences(pt) == ["The council met on Monday .", "It approved the budget .", "The mayor was pleased ."]


def test_lines_mode_still_splits_inside_a_line():
    pt, = parse_texts(["The council met. It voted.\nThe mayor spoke."], mode="lines")
    assert len(pt.sentences) == 3


def test_text_mode_parses_as_the_parser_does():
    from coherence.parser.document import parse_texts as parser_parse

    ours, = parse_texts([CNNDM], mode="text")
    theirs, = parser_parse([CNNDM])
    assert (ours.sentences, ours.tags, ours.deps) == (theirs.sentences, theirs.tags, theirs.deps)


def test_dicomer_reads_lines_and_signs_the_mode():
    from coherence.dicomer.metric import Dicomer

    joined = Dicomer(sentences="text", cache=False).score(CNNDM)
    lines = Dicomer(sentences="auto", cache=False).score(CNNDM)
    assert any("fewer than two sentences" in n for n in joined.notes)
    assert not any("fewer than two sentences" in n for n in lines.notes)
    assert "sentences:auto" in str(Dicomer().signature())
    assert "sentences:lines" in str(Dicomer(sentences="lines").signature())


def test_cli_takes_the_mode(tmp_path, capsys):
    from coherence.cli import main as coherence_main

    f = tmp_path / "cnndm.txt"
    f.write_text(CNNDM)
    assert coherence_main(["score", str(f), "--sentences", "lines", "--format", "json", "--no-cache"]) == 0
    assert '"sentences": "lines"' in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        coherence_main(["score", str(f), "--sentences", "paragraphs"])
    assert exit_.value.code == 2
