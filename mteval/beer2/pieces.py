"""BEER 2.0's text handling and the pieces its feature families count, as upstream defines them.

Upstream reads a line, splits it with Java's ``String.split(" +")`` (``src/beer/Metric.scala``:
no tokeniser, no lower-casing; runs of spaces separate words, a tab does not) and hands the words
to each feature. Character features re-join the words with one space and count Java ``char`` s,
i.e. UTF-16 code units (``String.length``/``substring``), which :func:`java_chars` reproduces.
Word pieces are keyed by tuples of words (upstream joins them with the separator ``"-------"``; the
keys differ only for a word that itself contains that separator).
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import chain

_SPACES = re.compile(" +")
#: markers of the sentence-start and sentence-end n-grams (``src/beer/features/NGram.scala``)
START, END = "<S>", "</S>"


def java_split(text: str) -> list[str]:
    """``text.split(" +")`` as Java computes it (``src/beer/Metric.scala``): a leading run of spaces
    gives a leading empty word, trailing empty words are dropped, and a text without a space is
    one word (so ``""`` is the one word ``""``)."""
    if " " not in text:
        return [text]
    words = _SPACES.split(text)
    while words and not words[-1]:
        words.pop()
    return words


def java_chars(text: str) -> str:
    """``text`` as a string of UTF-16 code units (one character per Java ``char``): characters
    beyond the Basic Multilingual Plane become two surrogates, as Java counts and slices them."""
    if text.isascii() or max(map(ord, text)) < 0x10000:
        return text
    raw = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(int.from_bytes(raw[k:k + 2], "little")) for k in range(0, len(raw), 2))


def word_ngrams(words: list[str], order: int) -> Counter:
    """The pieces of ``ngram<order>`` (``src/beer/features/NGram.scala``): every contiguous
    ``order``-gram, plus one sentence-start piece (``<S>`` and the first ``min(n, order)`` words)
    and one sentence-end piece (the last ``min(n, order)`` words and ``</S>``), so a text always
    has two more pieces than it has full n-grams."""
    grams = Counter(tuple(words[i:i + order]) for i in range(len(words) - order + 1))
    grams[(START, *words[:order])] += 1
    grams[(*words[max(len(words) - order, 0):], END)] += 1
    return grams


def skip_bigrams(words: list[str], max_skip: int) -> Counter:
    """The pieces of ``skip<max_skip>`` (``src/beer/features/SkipBigram.scala``): word pairs
    ``(w_i, w_j)`` with ``0 < j - i <= max_skip + 1`` (at most ``max_skip`` words in between)."""
    return Counter(chain.from_iterable(zip(words, words[gap:]) for gap in range(1, min(max_skip + 2, len(words)))))


def char_ngrams(chars: str, order: int) -> Counter:
    """The pieces of ``char<order>`` (``src/beer/features/CharNGram.scala``), as upstream computes
    them: for ``i`` in ``0 .. len - order`` the substring ``chars[i : i + order - 1]``, i.e.
    ``len - order + 1`` pieces of ``order - 1`` characters (``char1`` counts ``len`` empty
    strings, ``char2`` every character but the last). The default model was trained on exactly
    these pieces: its weight of ``char1.b`` (always 1: one text's pieces all match) is 0."""
    count = max(len(chars) - order + 1, 0)
    return Counter(map(chars.__getitem__, map(slice, range(count), range(order - 1, count + order - 1))))
