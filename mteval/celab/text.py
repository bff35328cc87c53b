"""Chinese preprocessing for character-level matching: the text as a list of units.

Named ``zh-chars`` in signatures: NFKC normalisation (full-width digits, letters and punctuation
become their ASCII forms); a number's digit groups separated by spacing (``1 000``, ``1 000 000``,
thin or no-break spaces alike) are joined, so a number matches whatever spacing it is written
with; then every Han, Hiragana or Katakana character is one unit, every run of other letters and
digits (a Latin word, a number such as 2021) is one unit, case kept, and every other character
that is not whitespace (punctuation, symbols) is one unit, as the paper counts it (its examples
match the final ``。`` and ``？``). Whitespace separates units and is not one. No segmenter is involved.
"""

from __future__ import annotations

import re
import unicodedata

TOKENIZATION = "zh-chars"

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_UNIT = re.compile(f"[{_CJK}]|(?:(?![{_CJK}])[^\\W_])+|\\S")
_HAN = re.compile(f"[{_CJK}]")
#: spacing inside a number: between a digit and a following group of exactly three digits
_DIGIT_GROUP_SPACE = re.compile(r"(?<=\d)\s+(?=\d{3}(?!\d))")


def units(text: str) -> list[str]:
    """The matching units of ``text`` (see the module docstring)."""
    return _UNIT.findall(_DIGIT_GROUP_SPACE.sub("", unicodedata.normalize("NFKC", text)))


def has_chinese(text: str) -> bool:
    """Whether ``text`` contains at least one Han or kana character."""
    return _HAN.search(text) is not None
