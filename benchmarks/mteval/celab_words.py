"""The word-level baseline of the TESLA-CELAB paper (§4.3.2): TESLA-M on segmented, POS-tagged
Chinese words with Cilin synonyms, built on the shared matcher.

The paper used the Stanford segmenter and tagger; here jieba's ``posseg`` (its bundled
dictionary and HMM, ICTCLAS-style tags) segments and tags, offline. TESLA-M as in the spec
(section 2): n = 1, 2, 3 bags weighted by a 0.1 discount per function word; s_ms(x, y) = 1 for
the same word, else (a + b) / 2 with a = [Cilin synonyms], b = [same tag]; s_pos = [same tag];
F with alpha = 0.8 per (n, similarity); the mean of the 6 F-measures; several references
averaged (as TESLA-CELAB does). Decisions where the paper is silent: function words are the
closed-class tags below; tokens with no letter or digit are dropped, as TESLA drops
non-alphanumeric tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evalcore.matching import bag_overlap, f_measure, match
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.text.ngrams import total, weighted_ngrams
from mteval.celab.cilin import check_synonyms, signature_facts, word_groups
from mteval.zh_words import FUNCTION_TAGS, Token, tagged_words

#: a bag of n-grams of (word, tag) tokens
TokenBag = dict[tuple[Token, ...], float]


def bags(tokens: Sequence[Token], discount: float = 0.1) -> list[TokenBag]:
    """The n = 1, 2, 3 bags of (word, tag) tokens, function words discounted."""
    weights = [discount if tag[:1] in FUNCTION_TAGS else 1.0 for _, tag in tokens]
    return [weighted_ngrams(tuple(tokens), weights, n) for n in (1, 2, 3)]


def first_starts(tokens: Sequence[Token], bag: TokenBag, n: int) -> list[int]:
    """Start of the first occurrence of every n-gram of ``bag``, in the bag's order."""
    first: dict[tuple[object, ...], int] = {}
    for s in range(len(tokens) - n + 1):
        first.setdefault(tuple(tokens[s:s + n]), s)
    return [first[g] for g in bag]


def unigram_similarities(ref: Sequence[Token], cand: Sequence[Token], synonyms: str) -> np.ndarray:
    """s_ms between every reference and candidate position: 1 for the same word, else the mean
    of [Cilin synonyms] and [same tag]."""
    groups = word_groups(synonyms)
    same_tag = np.array([[x[1] == y[1] for y in cand] for x in ref], dtype=float).reshape(len(ref), len(cand))
    synonym = np.zeros_like(same_tag)
    cand_at: dict[int, list[int]] = {}
    for j, (word, _) in enumerate(cand):
        for g in groups.get(word, ()):
            cand_at.setdefault(g, []).append(j)
    for i, (word, _) in enumerate(ref):
        for g in groups.get(word, ()):
            synonym[i, cand_at.get(g, [])] = 1.0
    sim = (synonym + same_tag) / 2
    same_word = np.array([[x[0] == y[0] for y in cand] for x in ref], dtype=bool).reshape(sim.shape)
    sim[same_word] = 1.0
    return sim


def ngram_similarities(unigram: np.ndarray, n: int) -> np.ndarray:
    """Similarity of the n-grams starting at every (reference, candidate) position pair: 0 if
    some position has similarity 0, else the mean over positions."""
    m, k = unigram.shape[0] - n + 1, unigram.shape[1] - n + 1
    if m <= 0 or k <= 0:
        return np.zeros((max(m, 0), max(k, 0)))
    stack = np.stack([unigram[d:d + m, d:d + k] for d in range(n)])
    return np.where(stack.min(axis=0) > 0, stack.mean(axis=0), 0.0)


def _tag_bag(bag: TokenBag) -> dict[tuple[str, ...], float]:
    """The bag's weight per tag sequence (s_pos is exact match on tags: a closed form)."""
    out: dict[tuple[str, ...], float] = {}
    for gram, w in bag.items():
        tags = tuple(token[1] for token in gram)
        out[tags] = out.get(tags, 0.0) + w
    return out


@dataclass(frozen=True)
class _Pair:
    """The six F-measures of one (reference, candidate) pair."""

    ms: tuple[float, ...]
    pos: tuple[float, ...]


class WordTeslaM(ReferenceMetric):
    """TESLA-M on jieba words with Cilin synonyms: the paper's word-level baseline for Chinese."""

    name = "tesla-m-zh-words"
    english = False
    languages = ("zh",)
    signature_keys = {"synonyms": "syn", "discount": "fw"}

    def __init__(self, synonyms: str = "cilin=", discount: float = 0.1, alpha: float = 0.8):
        self.synonyms = synonyms
        self.discount = discount
        self.alpha = alpha

    def validate(self) -> None:
        check_synonyms(self.synonyms, self.name)
        if not (0 < self.discount <= 1 and 0 < self.alpha < 1):
            raise ValueError(f"{self.name}: discount must be in (0, 1] and alpha in (0, 1)")

    def signature_extras(self) -> dict[str, object]:
        from importlib.metadata import version

        return {"tok": f"jieba-posseg-{version('jieba')}", "fwtags": "".join(sorted(FUNCTION_TAGS)),
                **signature_facts(self.synonyms)}

    def _pair(self, ref_tokens: tuple[Token, ...], cand_tokens: tuple[Token, ...]) -> _Pair:
        ms: list[float] = []
        pos: list[float] = []
        unigram = unigram_similarities(ref_tokens, cand_tokens, self.synonyms)
        ref, cand = bags(ref_tokens, self.discount), bags(cand_tokens, self.discount)
        for n, x, y in zip((1, 2, 3), ref, cand):
            xw, yw = list(x.values()), list(y.values())
            rows, cols = first_starts(ref_tokens, x, n), first_starts(cand_tokens, y, n)
            sim = ngram_similarities(unigram, n)[np.ix_(rows, cols)]
            for out, s in ((ms, match(xw, yw, sim)), (pos, bag_overlap(_tag_bag(x), _tag_bag(y)))):
                out.append(f_measure(s, total(x), total(y), self.alpha)[2])
        return _Pair(tuple(ms), tuple(pos))

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        out = []
        for item in items:
            cand = tagged_words(item.candidate)
            pairs = [self._pair(tagged_words(r), cand) for r in item.references]
            f_ms = np.mean([p.ms for p in pairs], axis=0)
            f_pos = np.mean([p.pos for p in pairs], axis=0)
            components = {f"ms_f{n}": f_ms[n - 1] for n in (1, 2, 3)} | {f"pos_f{n}": f_pos[n - 1] for n in (1, 2, 3)}
            notes = () if tagged_words(item.candidate) else ("no-words: the candidate has no word to match",)
            out.append(Score(float(np.mean([*f_ms, *f_pos])), components, notes))
        return out
