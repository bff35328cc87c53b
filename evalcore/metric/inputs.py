"""The one rule for bad input, shared by every metric (the README's "Bad input" section):

- undecodable or oversized text, an empty reference or source -> an error record, no score;
- an empty (or whitespace-only) candidate is an output, the worst kind: it is scored as the
  metric scores an empty text (or the metric's ``empty_value``), with the note :data:`EMPTY_NOTE`;
- text an English pipeline cannot judge (another script, symbols only, no English words)
  -> a defined score plus a ``notes`` flag (learned metrics give their neutral value);
- control characters and invisible characters are removed, and the text is put in Unicode NFC,
  before any metric reads it; a record whose text lost characters says so in a note
  (:func:`cleaning_note`). See docs/input-rule.md.

Invisible characters are every format character (Unicode category Cf: zero-width spaces and
joiners, bidi marks, embeddings, overrides and isolates, the BOM, soft hyphens, tag characters)
plus the invisible marks outside Cf (variation selectors, the combining grapheme joiner, Hangul
fillers, Khmer inherent vowels): they change no word a reader sees, so a copy with one inserted
is still a copy. NFC, not NFKC: NFC only unifies canonically equivalent spellings (a composed
and a decomposed "é" look the same); NFKC would rewrite visible characters ("½", "²", "ﬁ",
full-width CJK punctuation) and move scores away from the reference implementations.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from evalcore.io.textfiles import CONTROL as _CONTROL
from evalcore.io.textfiles import CONTROL_CLASS as _CONTROL_CLASS
from evalcore.io.textfiles import InputError, UnreadableText

# Format characters (Cf, Unicode 15) and the invisible characters of other categories.
_INVISIBLE_CLASS = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef"
)
_INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
_REMOVED = re.compile(f"[{_CONTROL_CLASS}{_INVISIBLE_CLASS}]")
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")

DEFAULT_MAX_CHARS = 100_000
#: the note on the score of an empty candidate
EMPTY_NOTE = "empty: the candidate is empty, scored as the metric scores an empty text"


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
    """How large one text may be; larger texts are refused (not cut) with an error record.
    ``owner``: the metric whose own, smaller cap this is (its cost grows faster than linearly)."""

    max_chars: int = DEFAULT_MAX_CHARS
    owner: str = ""

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


def clean_text(text: str) -> str:
    """``text`` without control characters (tab, newline and carriage return are kept) and
    invisible characters, in NFC: what every metric reads."""
    if text.isascii():
        return _CONTROL.sub("", text)
    text = _REMOVED.sub("", text)
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def cleaning_note(raw: str, role: str) -> str:
    """The note for a record whose ``role`` text :func:`clean_text` changed: how many control and
    invisible characters it removed (naming the first) and whether it applied NFC; "" when it
    removed nothing (whitespace alone differs)."""
    parts = []
    for pattern, kind in ((_CONTROL, "control"), (_INVISIBLE, "invisible")):
        found = pattern.findall(raw)
        if found:
            name = unicodedata.name(found[0], "").lower() or f"{kind} character"
            parts.append(f"removed {len(found)} {kind} character{'s' if len(found) > 1 else ''} "
                         f"(U+{ord(found[0]):04X} {name}{', ...' if len(set(found)) > 1 else ''})")
    if not unicodedata.is_normalized("NFC", _REMOVED.sub("", raw)):
        parts.append("applied NFC")
    return f"cleaned: {role}: {'; '.join(parts)}" if parts else ""


def is_blank(text: object) -> bool:
    """Whether ``text`` is a string of nothing but whitespace, control and invisible characters
    (input that could not be decoded is not blank: it is unreadable)."""
    return isinstance(text, str) and not isinstance(text, UnreadableText) and not clean_text(text).strip()


def check_text(text: object, role: str, limits: InputLimits | None = None, english: bool = True) -> TextCheck:
    """Apply the input rule to one text; raise :class:`InputError` naming ``role`` when it cannot
    be scored at all, else return the cleaned text with its notes."""
    if isinstance(text, UnreadableText):
        raise InputError(f"{role}: {text.reason}")
    if not isinstance(text, str):
        hint = (" (did you swap references and candidate?)" if isinstance(text, (list, tuple))
                else " (decode bytes to str first)" if isinstance(text, (bytes, bytearray)) else "")
        raise InputError(f"{role} must be a string, got {type(text).__name__}{hint}")
    limits = limits or InputLimits.from_env()
    checked = _accepted.get((text, english))
    if checked is None:
        clean = clean_text(text)
        _check_size(clean, role, limits)
        if not clean.strip():
            raise InputError(f"{role} is empty"
                             + (" (only control or invisible characters)" if text.strip() else ""))
        checked = TextCheck(clean, judge_english(clean) if english else ())
        if len(_accepted) >= _ACCEPTED_SIZE:
            _accepted.clear()
        _accepted[text, english] = checked
        return checked
    _check_size(checked.text, role, limits)  # a reference met again: one look-up, its cap still applies
    return checked


def _check_size(clean: str, role: str, limits: InputLimits) -> None:
    """Refuse a cleaned text over the size cap. The cap counts what the metric reads (after NFC and
    with control and invisible characters removed), so an NFD text and its NFC twin, or a text
    padded with zero-width spaces and its clean twin, get one verdict."""
    if len(clean) <= limits.max_chars:
        return
    if limits.owner:
        raise InputError(f"{role} is too long for {limits.owner} ({len(clean):,} characters > "
                         f"{limits.max_chars:,}, the metric's own limit; see docs/bounds.md)")
    raise InputError(f"{role} is too long ({len(clean):,} characters > {limits.max_chars:,}; "
                     "raise the cap with --max-chars or AESOP_MAX_CHARS)")


#: (text, english) -> its check, for texts that passed (what fails is not cached: its message names
#: the item); bounded by emptying it when full, at a size that holds the texts of a batch met again
#: (a topic's or a line's references) and keeps a long run's memory flat
_accepted: dict[tuple[str, bool], TextCheck] = {}
_ACCEPTED_SIZE = 8192


def judge_english(text: str) -> tuple[str, ...]:
    """Notes for text an English pipeline cannot judge: mostly another script, no letters at all,
    more symbols than letters, or eight words or more without an English function word (Title-Case
    headlines excepted). :func:`check_text` caches the verdict per text, so a topic's references
    are judged once, not once per candidate."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return ("no-words: the text has no letters to read",)
    # ASCII letters are Latin: only other text needs the (slow) Unicode name of each letter
    latin = len(letters) if text.isascii() else sum(1 for c in letters if "LATIN" in unicodedata.name(c, ""))
    if latin < 0.5 * len(letters):
        return (f"non-english: {100 * (1 - latin / len(letters)):.0f}% of letters are not Latin script",)
    raw_words = _WORD.findall(text)
    words = [w.lower() for w in raw_words]
    symbols = sum(1 for c in text if not (c.isalnum() or c.isspace()))
    if symbols > len(letters):
        return ("symbols: more symbols than letters",)
    if len(words) >= 8 and not _has_function_word(words) and not _headline(raw_words):
        return ("non-english: no English function word in the text",)
    return ()


def _has_function_word(words: list[str]) -> bool:
    """Whether any word is on the shipped English closed-class list (227 words: a text of eight
    words or more without one is not English prose)."""
    from evalcore.text.preprocess import function_word_list

    closed = function_word_list()
    return any(w in closed for w in words)


def _headline(words: list[str]) -> bool:
    """Title-case headlines ("Patriots Select Aaron Dobson Marshall Wide Receiver") drop their
    function words: exempt texts where most words start with a capital."""
    return sum(w[0].isupper() for w in words) > 0.5 * len(words)
