"""BEER's word alignment (paper §4: METEOR's aligner; spec §7: exact + stem + WordNet synonyms):
one-to-one links between hypothesis and reference words, found in three stages as METEOR does,
each stage linking only words no earlier stage linked:

1. exact: equal lowercased words;
2. stem: equal Porter stems (nltk) of the lowercased words;
3. synonym: the words share a WordNet 3.0 synset in the part of speech their tags name
   (TESLA-M's look-up, :func:`mteval.lexical.similarity.shared_synsets`).

Within a stage the links are a maximum matching (scipy's assignment solver); among maximum
matchings the one with the least total relative-position distance |i/|h| - j/|r|| is taken, which
stands in for METEOR's "fewest crossings" tie-break (decision: named ``align:exact+stem+syn/lsa``
in the signature).
"""

from __future__ import annotations

import functools

import numpy as np

from mteval.beer.pet import ranks
from mteval.lexical.preprocess import Segment
from mteval.lexical.similarity import encode, shared_synsets

STAGES = ("exact", "stem", "synonym")
#: weight of the position tie-break: below 1 / (longest sentence), so it never trades a link away
_TIE = 1e-4


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter stem of a lowercased word (nltk's stemmer, METEOR's English stemmer)."""
    return _porter().stem(word.lower())


@functools.lru_cache(maxsize=1)
def _porter():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


def candidates(hyp: Segment, ref: Segment, stage: str) -> np.ndarray:
    """Boolean (hypothesis words x reference words): which pairs the stage may link."""
    if stage == "exact":
        h, r = [w.lower() for w in hyp.words], [w.lower() for w in ref.words]
    elif stage == "stem":
        h, r = [stem(w) for w in hyp.words], [stem(w) for w in ref.words]
    elif stage == "synonym":
        return shared_synsets(encode(hyp, 1.0), encode(ref, 1.0))
    else:
        raise ValueError(f"unknown alignment stage {stage!r}; choose from {', '.join(STAGES)}")
    return np.array(h, dtype=object)[:, None] == np.array(r, dtype=object)[None, :] if h and r \
        else np.zeros((len(h), len(r)), dtype=bool)


def align(hyp: Segment, ref: Segment) -> list[tuple[int, int]]:
    """The (hypothesis position, reference position) links of the staged alignment, sorted by
    hypothesis position."""
    from scipy.optimize import linear_sum_assignment

    n, m = len(hyp), len(ref)
    links: list[tuple[int, int]] = []
    if not n or not m:
        return links
    free_h, free_r = np.ones(n, dtype=bool), np.ones(m, dtype=bool)
    distance = np.abs(np.arange(n)[:, None] / n - np.arange(m)[None, :] / m)
    for stage in STAGES:
        allowed = candidates(hyp, ref, stage) & free_h[:, None] & free_r[None, :]
        if not allowed.any():
            continue
        rows, cols = np.nonzero(allowed.any(axis=1))[0], np.nonzero(allowed.any(axis=0))[0]
        sub = allowed[np.ix_(rows, cols)]
        weight = np.where(sub, 1.0 - _TIE * distance[np.ix_(rows, cols)], 0.0)
        picked_r, picked_c = linear_sum_assignment(weight, maximize=True)
        for i, j in zip(rows[picked_r], cols[picked_c]):
            if allowed[i, j]:
                links.append((int(i), int(j)))
                free_h[i], free_r[j] = False, False
    return sorted(links)


def permutation(links: list[tuple[int, int]]) -> list[int]:
    """The permutation of reference order the links induce, read in hypothesis order: the rank
    (1-based) of each linked reference position. Unaligned words are dropped (spec decision)."""
    return ranks([j for _, j in links])
