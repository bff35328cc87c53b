"""TESLA's similarities (2010 §3.1) as matrices over the token positions of two segments.

- s_ms(x, y) = 1 if lemma(x) = lemma(y), else (a + b) / 2 with a = [the WordNet synsets of x and
  y overlap] and b = [POS(x) = POS(y)] (MaxSim's measure);
- s_pos(x, y) = [POS(x) = POS(y)] (binary and transitive: :mod:`.btng` uses the closed form);
- n-grams of equal length: 0 if some position has similarity 0, else the mean over positions.

A token's synsets are WordNet's synsets of its lemma in the WordNet part of speech its tag names
(nouns, verbs, adjectives, adverbs; none for other tags). Decision where the paper is silent:
restricting the look-up to the tagged part of speech keeps closed-class words from matching rare
senses ("in" and "inch" share the noun synset inch.n.01).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from mteval.lexical.preprocess import Segment

#: Penn Treebank tag prefix -> WordNet part of speech
_WORDNET_POS = {"NN": "n", "VB": "v", "JJ": "a", "RB": "r"}
_POS_INDEX = {"n": 0, "v": 1, "a": 2, "r": 3}  # offsets are unique within one part's data file


def wordnet_pos(tag: str) -> str | None:
    """WordNet's part of speech for a Penn Treebank tag (None for closed classes, numbers, ...)."""
    return _WORDNET_POS.get(tag[:2])


@functools.lru_cache(maxsize=200_000)
def synset_ids(lemma: str, tag: str) -> np.ndarray:
    """Sorted integer ids (offset x 4 + part of speech) of the WordNet synsets of ``lemma`` in
    the part of speech of ``tag``; empty when the tag has none."""
    pos = wordnet_pos(tag)
    if pos is None:
        return np.empty(0, np.int64)
    from evalcore.resources.wordnet import synset_offsets

    return np.unique(np.array(synset_offsets(lemma, pos), dtype=np.int64) * 4 + _POS_INDEX[pos])


class _Vocabulary(dict):
    """Process-wide integer ids of strings (equal strings, equal ids)."""

    def ids(self, items) -> np.ndarray:
        return np.array([self.setdefault(x, len(self)) for x in items], dtype=np.int64)


_LEMMAS, _TAGS = _Vocabulary(), _Vocabulary()


class Encoded(NamedTuple):
    """A segment as arrays, built once: lemma and tag ids per token, token weights
    (``discount`` per function word), the segment's distinct synsets (sorted) and which token
    has which (a tokens x synsets 0/1 matrix)."""

    lemmas: np.ndarray
    tags: np.ndarray
    weights: np.ndarray
    synsets: np.ndarray
    incidence: np.ndarray


@functools.lru_cache(maxsize=65536)
def encode(segment: Segment, discount: float, synonyms: bool = True) -> Encoded:
    """Array form of ``segment`` (cached: a reference is encoded once for all its candidates).
    ``synonyms=False`` leaves out WordNet (a language without a synonym dictionary)."""
    lemmas, tags = segment.lemmas, segment.tags
    weights = np.where(np.array(segment.function, dtype=bool), discount, 1.0) if len(segment) else np.empty(0)
    per_token = [synset_ids(lemma, tag) for lemma, tag in zip(lemmas, tags)] if synonyms else []
    synsets = np.unique(np.concatenate(per_token)) if per_token else np.empty(0, np.int64)
    incidence = np.zeros((len(segment), len(synsets)))
    for k, ids in enumerate(per_token):
        incidence[k, np.searchsorted(synsets, ids)] = 1.0
    return Encoded(_LEMMAS.ids(lemmas), _TAGS.ids(tags), weights, synsets, incidence)


def shared_synsets(x: Encoded, y: Encoded) -> np.ndarray:
    """Boolean matrix: whether token i of ``x`` and token j of ``y`` share a synset."""
    if len(x.synsets) and len(y.synsets):
        at = np.searchsorted(y.synsets, x.synsets).clip(max=len(y.synsets) - 1)
        hit = y.synsets[at] == x.synsets  # both sorted and unique: matching positions
        if hit.any():
            return x.incidence[:, hit] @ y.incidence[:, at[hit]].T > 0
    return np.zeros((len(x.lemmas), len(y.lemmas)), dtype=bool)


def unigram_ms(x: Encoded, y: Encoded, pos: bool = True) -> np.ndarray:
    """s_ms between every token of ``x`` (rows) and of ``y`` (columns); ``pos=False`` for a
    language without tags (b = 0)."""
    same_lemma = x.lemmas[:, None] == y.lemmas[None, :]
    partial = shared_synsets(x, y).astype(float)
    if pos:
        partial += x.tags[:, None] == y.tags[None, :]
    return np.where(same_lemma, 1.0, partial / 2)


def ngram_similarity(unigram: np.ndarray, n: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Similarity of the n-grams starting at positions ``rows`` of the rows' text to those
    starting at ``cols`` of the columns' text, from the unigram similarities: 0 if some aligned
    position has similarity 0, else their mean."""
    parts = [unigram[(rows + d)[:, None], (cols + d)[None, :]] for d in range(n)]
    if n == 1:
        return parts[0]
    total, product = parts[0] + parts[1], parts[0] * parts[1]
    for part in parts[2:]:
        total += part
        product *= part
    return np.where(product > 0, total / n, 0.0)
