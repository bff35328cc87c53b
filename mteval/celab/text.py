"""Chinese preprocessing for character-level matching: the text as a list of units.

Named ``zh-units`` in signatures: NFKC normalisation (full-width digits, letters and punctuation
become their ASCII forms); every Han, Hiragana or Katakana character is one unit; every run of
other letters and digits (a Latin word, a number such as 2021) is one unit, case kept; whitespace,
punctuation and symbols are dropped. No segmenter is involved.
"""

from __future__ import annotations

import re
import unicodedata

TOKENIZATION = "zh-units"

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_UNIT = re.compile(f"[{_CJK}]|(?:(?![{_CJK}])[^\\W_])+")
_HAN = re.compile(f"[{_CJK}]")


def units(text: str) -> list[str]:
    """The matching units of ``text`` (see the module docstring)."""
    return _UNIT.findall(unicodedata.normalize("NFKC", text))


def has_chinese(text: str) -> bool:
    """Whether ``text`` contains at least one Han or kana character."""
    return _HAN.search(text) is not None
