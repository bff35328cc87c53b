"""Where a line break ends a sentence: the sentence modes every command that needs sentences reads.

CNN/DailyMail and TAC files put one sentence per line, often without final punctuation; a
sentence splitter reading the joined words runs such lines together. The modes:

- ``lines``: every line break ends a sentence (a line may still hold several);
- ``text``: line breaks are spaces, the splitter alone finds sentences (the DICOMER paper's reading);
- ``auto`` (default): ``lines`` for a text with a line break between words, else ``text``.

The spaCy side (sentence starts preset before parsing) is :mod:`coherence.sentences`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

SENTENCE_MODES = ("auto", "lines", "text")
DEFAULT_SENTENCES = "auto"
#: characters that end a line (those :meth:`str.splitlines` splits at)
LINE_ENDS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def check_mode(mode: str) -> str:
    """``mode`` when it is one of :data:`SENTENCE_MODES`; ValueError naming them otherwise."""
    if mode not in SENTENCE_MODES:
        raise ValueError(f"sentences must be one of {', '.join(SENTENCE_MODES)}, got {mode!r}")
    return mode


def effective_mode(text: str, mode: str) -> str:
    """``lines`` or ``text``: how ``mode`` reads ``text`` (``auto`` reads lines when a line
    break stands between two words)."""
    check_mode(mode)
    if mode != "auto":
        return mode
    return "lines" if any(c in LINE_ENDS for c in text.strip()) else "text"


def line_starts(text: str, offsets: Sequence[tuple[int, int]]) -> list[bool]:
    """For each token (by its character offsets in ``text``), whether a line break stands between
    it and the token before: the tokens that start a new line."""
    starts, previous_end = [], 0
    for i, (start, end) in enumerate(offsets):
        starts.append(i > 0 and any(c in LINE_ENDS for c in text[previous_end:start]))
        previous_end = end
    return starts


def add_sentences_arg(p: argparse.ArgumentParser) -> None:
    """``--sentences auto|lines|text`` for the metrics that read sentences (DICOMER, readability,
    CREMER)."""
    p.add_argument("--sentences", choices=SENTENCE_MODES, default=DEFAULT_SENTENCES,
                   help="where sentences end for the metrics that read them (dicomer, readability, cremer): "
                        "lines = at every line break (one sentence a line, as CNN/DM and TAC files), text = where "
                        "the parser finds them, auto (default) = lines for a text with line breaks")
