"""Chinese words and their tags by jieba's ``posseg`` (bundled dictionary and HMM, ICTCLAS-style
tags, offline), shared by TESLA-M/B's Chinese preprocessing and TESLA-CELAB's word-level baseline."""

from __future__ import annotations

import functools
import logging
import re

#: jieba tags (first letter) of closed-class words: conjunction, interjection, preposition,
#: pronoun, auxiliary/structural particle, modal particle
FUNCTION_TAGS = frozenset("cepruy")
_ALNUM = re.compile(r"[^\W_]")
Token = tuple[str, str]  # (word, tag)


@functools.lru_cache(maxsize=1)
def _posseg():
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return jieba.posseg


@functools.lru_cache(maxsize=65536)
def tagged_words(text: str) -> tuple[Token, ...]:
    """(word, tag) of every kept jieba token of ``text``."""
    return tuple((p.word, p.flag) for p in _posseg().lcut(text) if _ALNUM.search(p.word))
