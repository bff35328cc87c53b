"""The one rule for bad input, shared by every metric (the README's "Bad input" section):

- empty, undecodable or oversized text -> an error record, no score;
- text an English pipeline cannot judge (another script, symbols only, no English words)
  -> a defined score plus a ``notes`` flag (learned metrics give their neutral value);
- control characters are stripped before scoring.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from dataclasses import dataclass

from evalcore.textio import InputError

# C0/C1 control characters except tab, newline and carriage return (NUL bytes, escape codes).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
# Closed-class English words: a text of several words with none of them is not English prose.
_ENGLISH_CUES = frozenset(
    "a an the and or but of to in on at for with by from as is are was were be been it its this that "
    "these those he she they we you i his her their our your not no if so than then there here who what "
    "which when where why how has have had do does did will would can could should may might must".split())

DEFAULT_MAX_CHARS = 100_000


def default_max_chars() -> int:
    """The size cap: ``AESOP_MAX_CHARS`` or 100,000 characters (about 15,000 words)."""
    raw = os.environ.get("AESOP_MAX_CHARS")
    if raw is None:
        return DEFAULT_MAX_CHARS
    try:
        value = int(raw)
    except ValueError:
        raise InputError(f"AESOP_MAX_CHARS must be a whole number, got {raw!r}") from None
    if value <= 0:
        raise InputError(f"AESOP_MAX_CHARS must be positive, got {value}")
    return value


@dataclass(frozen=True)
class InputLimits:
    """How large one text may be; larger texts are refused (not cut) with an error record."""

    max_chars: int = DEFAULT_MAX_CHARS

    @classmethod
    def from_env(cls) -> InputLimits:
        return cls(default_max_chars())


@dataclass(frozen=True)
class TextCheck:
    """A text after the input rule: the cleaned text and the notes an English pipeline owes it."""

    text: str
    notes: tuple[str, ...] = ()

    @property
    def judgeable(self) -> bool:
        return not self.notes


def strip_control(text: str) -> str:
    """``text`` without control characters (tab, newline and carriage return are kept)."""
    return _CONTROL.sub("", text)


def check_text(text: object, role: str, limits: InputLimits | None = None, english: bool = True) -> TextCheck:
    """Apply the input rule to one text; raise :class:`InputError` naming ``role`` when it cannot
    be scored at all, else return the cleaned text with its notes."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{role} is not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        hint = " (did you swap references and candidate?)" if isinstance(text, (list, tuple)) else ""
        raise InputError(f"{role} must be a string, got {type(text).__name__}{hint}")
    limits = limits or InputLimits.from_env()
    if len(text) > limits.max_chars:
        raise InputError(f"{role} is too long ({len(text):,} characters > {limits.max_chars:,}; "
                         "raise the cap with --max-chars or AESOP_MAX_CHARS)")
    clean = strip_control(text)
    if not clean.strip():
        raise InputError(f"{role} is empty" + (" (only control characters)" if text.strip() else ""))
    return TextCheck(clean, judge_english(clean) if english else ())


@functools.lru_cache(maxsize=65536)
def judge_english(text: str) -> tuple[str, ...]:
    """Notes for text an English pipeline cannot judge: mostly another script, no letters at all,
    or several words of which none is a common English word. Cached: a topic's references are
    judged once, not once per candidate."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return ("no-words: the text has no letters to read",)
    # ASCII letters are Latin: only other text needs the (slow) Unicode name of each letter
    latin = len(letters) if text.isascii() else sum(1 for c in letters if "LATIN" in unicodedata.name(c, ""))
    if latin < 0.5 * len(letters):
        return (f"non-english: {100 * (1 - latin / len(letters)):.0f}% of letters are not Latin script",)
    words = [w.lower() for w in _WORD.findall(text)]
    symbols = sum(1 for c in text if not (c.isalnum() or c.isspace()))
    if symbols > len(letters):
        return ("symbols: more symbols than letters",)
    if len(words) >= 8 and not any(w in _ENGLISH_CUES for w in words):
        return ("non-english: no common English word in the text",)
    return ()
