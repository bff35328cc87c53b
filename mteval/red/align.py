"""REDp's word alignment (RED §3, after the Meteor aligner): staged one-to-one matching of
reference and hypothesis words, exact first, then Porter stems (nltk), then WordNet synonyms
(:mod:`evalcore.resources.wordnet`: two words match when they share a synset), each stage over the words
the earlier stages left.

Decision where Meteor differs: within a stage the alignment is the maximum matching (scipy's
``linear_sum_assignment``) that, among those, keeps each pair nearest in relative position,
where Meteor minimises crossing chunks; ties of repeated words resolve the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np

MODULES = ("exact", "stem", "syn")
_WORDNET_POS = ("n", "v", "a", "r")


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Porter stem of a lowercased word (nltk's stemmer)."""
    return _stemmer().stem(word)


@functools.lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


@functools.lru_cache(maxsize=200_000)
def synsets(word: str) -> frozenset[tuple[str, int]]:
    """The WordNet synsets of a word under any part of speech, as (pos, offset)."""
    from evalcore.resources.wordnet import synset_offsets

    return frozenset((pos, off) for pos in _WORDNET_POS for off in synset_offsets(word, pos))


def _synonyms(a: str, b: str) -> bool:
    return bool(synsets(a) & synsets(b))


def _stems(a: str, b: str) -> bool:
    return stem(a) == stem(b)


TESTS: dict[str, Callable[[str, str], bool]] = {"exact": str.__eq__, "stem": _stems, "syn": _synonyms}


def align(reference: Sequence[str], hypothesis: Sequence[str],
          modules: Sequence[str] = MODULES) -> list[tuple[int, str] | None]:
    """Per reference word, its aligned hypothesis position and the module that matched it (None: unaligned)."""
    from scipy.optimize import linear_sum_assignment

    out: list[tuple[int, str] | None] = [None] * len(reference)
    free_h = set(range(len(hypothesis)))
    scale = 1.0 / max(len(reference), len(hypothesis), 1)
    for module in modules:
        test = TESTS[module]
        rows = [i for i in range(len(reference)) if out[i] is None]
        cols = sorted(free_h)
        if not rows or not cols:
            break
        edge = np.array([[test(reference[i], hypothesis[j]) for j in cols] for i in rows], dtype=bool)
        if not edge.any():
            continue
        distance = np.abs(np.array(rows)[:, None] / len(reference) - np.array(cols)[None, :] / len(hypothesis))
        cost = np.where(edge, -1.0 + 1e-3 * scale * distance, 0.0)
        for r, c in zip(*linear_sum_assignment(cost)):
            if edge[r, c]:
                out[rows[r]] = (cols[c], module)
                free_h.discard(cols[c])
    return out
