"""BEER's 33 features of a hypothesis against one reference (paper §3; spec §7): precision,
recall and F1 of aligned function words, content words and all words, of character n-grams for
n = 1..6 (27 adequacy features), and six word-order features over the permutation the alignment
induces (:mod:`.pet`).

Words are the tokens TESLA's preparer keeps (spaCy ``en_core_web_sm``; tokens without a letter
or digit dropped; a function word by its closed-class POS tag). Decisions where the paper is
silent, named in the metric's signature:
- character n-grams are read from the lowercased text with whitespace removed (chrF's
  convention), counted as multisets and matched by clipped counts;
- a precision or recall over no units is 1 when the other side has none either, else 0
  (``empty:1-if-both``): a hypothesis without function words against a reference without any
  is right about them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from mteval.beer.align import align, permutation
from mteval.beer.pet import FLUENCY_FEATURES, fluency_features
from mteval.lexical.preprocess import Segment

CHAR_ORDERS = tuple(range(1, 7))
WORD_KINDS = ("func", "cont", "all")
ADEQUACY_FEATURES = tuple(f"{kind}_{m}" for kind in (*WORD_KINDS, *(f"char{n}" for n in CHAR_ORDERS))
                          for m in ("p", "r", "f"))
FEATURES = ADEQUACY_FEATURES + FLUENCY_FEATURES


def prf(matched_hyp: float, total_hyp: float, matched_ref: float, total_ref: float) -> tuple[float, float, float]:
    """Precision, recall and F1 from matched and total units of each side (see the module's
    rule for empty sides)."""
    p = matched_hyp / total_hyp if total_hyp else float(not total_ref)
    r = matched_ref / total_ref if total_ref else float(not total_hyp)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def char_ngrams(text: str, n: int) -> Counter:
    """Multiset of the character n-grams of ``text`` lowercased with whitespace removed."""
    chars = "".join(text.lower().split())
    return Counter(chars[k:k + n] for k in range(len(chars) - n + 1))


def char_features(hyp: str, ref: str) -> list[float]:
    """P, R, F1 of clipped character n-gram matches for n = 1..6 (18 values)."""
    out: list[float] = []
    for n in CHAR_ORDERS:
        h, r = char_ngrams(hyp, n), char_ngrams(ref, n)
        matched = sum((h & r).values())
        out.extend(prf(matched, sum(h.values()), matched, sum(r.values())))
    return out


def _keep(kind: str, function_word: bool) -> bool:
    """Whether a word that is (or is not) a function word counts among words of ``kind``."""
    return kind == "all" or function_word == (kind == "func")


def word_features(hyp: Segment, ref: Segment, links: Sequence[tuple[int, int]]) -> list[float]:
    """P, R, F1 of aligned function, content and all words (9 values): a hypothesis word counts
    for precision in its own kind, a reference word for recall in its own."""
    linked_h, linked_r = {i for i, _ in links}, {j for _, j in links}
    out: list[float] = []
    for kind in WORD_KINDS:
        h = [i for i, f in enumerate(hyp.function) if _keep(kind, f)]
        r = [j for j, f in enumerate(ref.function) if _keep(kind, f)]
        out.extend(prf(sum(i in linked_h for i in h), len(h), sum(j in linked_r for j in r), len(r)))
    return out


def features(hyp_text: str, ref_text: str, hyp: Segment, ref: Segment) -> np.ndarray:
    """The 33 features (:data:`FEATURES` order) of a hypothesis against one reference, from the
    texts (character n-grams) and their prepared segments (words, alignment, order)."""
    links = align(hyp, ref)
    return np.array([*word_features(hyp, ref, links), *char_features(hyp_text, ref_text),
                     *fluency_features(permutation(links))])
