"""Non-explicit relations between adjacent sentences not linked by an inter-sentence explicit:
Tier 0 heuristic (EntRel on a shared noun or an initial pronoun, else Expansion) and the Tier 1
6-way classifier's features (Lin et al. 2009: first/last words, cross-argument word pairs,
dependency and production-like rules from spaCy parses, selected by mutual information)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.feature_extraction import DictVectorizer

from coherence.parser import vectors
from coherence.parser.document import ParsedText

NOUNS = frozenset({"NOUN", "PROPN"})
CONTENT = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM", "PRON", "AUX"})


@dataclass(frozen=True)
class PairItem:
    """Raw features of one sentence pair: fixed features plus the three MI-selected groups (the
    cross-argument word pairs kept as the two content-lemma sets, :attr:`word_pairs` on demand)."""

    base: dict
    content: tuple[frozenset[str], frozenset[str]]
    dep_rules: frozenset[str]
    prod_rules: frozenset[str]

    @property
    def word_pairs(self) -> frozenset[str]:
        """Every ``lemma1|lemma2`` pair across the arguments (training ranks them all)."""
        one, two = self.content
        return frozenset(f"{x}|{y}" for x in one for y in two)

    def selected_word_pairs(self, selected: frozenset[str]) -> list[str]:
        """``word_pairs & selected`` without building every pair: a short text's pairs run to
        hundreds, of which a model keeps a handful."""
        one, two = self.content
        index = _pair_index(selected)
        return [pair for x in one for y, pair in index.get(x, ()) if y in two]


@functools.lru_cache(maxsize=4)
def _pair_index(selected: frozenset[str]) -> dict[str, list[tuple[str, str]]]:
    """Selected pairs by their first lemma, split at every ``|`` (lemmas may hold one): each pair
    ``x|y`` is listed under ``x`` with ``y``."""
    index: dict[str, list[tuple[str, str]]] = {}
    for pair in selected:
        for i, char in enumerate(pair):
            if char == "|":
                index.setdefault(pair[:i], []).append((pair[i + 1:], pair))
    return index


def _words(pt: ParsedText, k: int) -> list[int]:
    a, b = pt.sentences[k]
    return [t for t in range(a, b) if pt.pos[t] != "PUNCT"]


def tier0_label(pt: ParsedText, i: int) -> str:
    """EntRel if the sentences share a noun lemma or the second opens with a pronoun."""
    return _tier0(pt, _words(pt, i), _words(pt, i + 1))


def _tier0(pt: ParsedText, s1: list[int], s2: list[int]) -> str:
    if s2 and pt.pos[s2[0]] == "PRON":
        return "EntRel"
    nouns1 = {pt.lemmas[t] for t in s1 if pt.pos[t] in NOUNS}
    if any(pt.lemmas[t] in nouns1 for t in s2 if pt.pos[t] in NOUNS):
        return "EntRel"
    return "Expansion"


def _rules(pt: ParsedText, k: int) -> tuple[set[str], set[str]]:
    """Lexicalised dependency rules (head lemma <- child labels) and unlexicalised
    production-like rules (head POS -> POS of head and children in order) of sentence ``k``."""
    a, b = pt.sentences[k]
    dep, prod = set(), set()
    children, deps, pos, lemmas = pt.children, pt.deps, pt.pos, pt.lemmas
    for t in range(a, b):
        kids = [c for c in children[t] if a <= c < b]
        if not kids:
            continue
        dep.add(f"{lemmas[t]}<-{' '.join(sorted([deps[c] for c in kids]))}")
        prod.add(f"{pos[t]}->{' '.join([pos[c] for c in sorted(kids + [t])])}")
    return dep, prod


def _valued(r1: set[str], r2: set[str]) -> frozenset[str]:
    """Rules valued by where they occur: Arg1 only, Arg2 only, or both (Lin 2009)."""
    return frozenset({f"{r}:1" for r in r1 - r2} | {f"{r}:2" for r in r2 - r1} |
                     {f"{r}:12" for r in r1 & r2})


@dataclass(frozen=True)
class _Sentence:
    """What a pair's features read from one of its sentences."""

    words: list[int]         # non-punctuation tokens
    content: frozenset[str]  # lemmas of alphabetic content words
    dep_rules: set[str]
    prod_rules: set[str]


def _sentence(pt: ParsedText, k: int) -> _Sentence:
    words = _words(pt, k)
    content = frozenset(pt.lemmas[t] for t in words if pt.pos[t] in CONTENT and pt.words[t].isalpha())
    return _Sentence(words, content, *_rules(pt, k))


def pair_item(pt: ParsedText, i: int) -> PairItem:
    """Raw features of the pair (sentence i, sentence i + 1)."""
    return pair_items(pt, [i])[0]


def pair_items(pt: ParsedText, indices: Sequence[int]) -> list[PairItem]:
    """Raw features of the pairs (sentence i, sentence i + 1) of one text; a sentence shared by
    two pairs is read once."""
    sentences: dict[int, _Sentence] = {}
    for k in sorted({k for i in indices for k in (i, i + 1)}):
        sentences[k] = _sentence(pt, k)
    return [_pair(pt, i, sentences[i], sentences[i + 1]) for i in indices]


def _pair(pt: ParsedText, i: int, one: _Sentence, two: _Sentence) -> PairItem:
    s1, s2 = one.words, two.words
    low = pt.lower
    f1 = low[s1[0]] if s1 else "<none>"
    f2 = low[s2[0]] if s2 else "<none>"
    l1 = low[s1[-1]] if s1 else "<none>"
    l2 = low[s2[-1]] if s2 else "<none>"
    f2b = " ".join(low[t] for t in s2[:2])
    a1, b1 = pt.sentences[i]
    a2, b2 = pt.sentences[i + 1]
    base = {f"first1={f1}": 1, f"first2={f2}": 1, f"last1={l1}": 1, f"last2={l2}": 1,
            f"first2_2={f2b}": 1, f"first12={f1}|{f2}": 1, f"last1first2={l1}|{f2}": 1,
            f"tier0={_tier0(pt, s1, s2)}": 1,
            f"pos_first2={pt.tags[s2[0]] if s2 else '<none>'}": 1,
            f"q1={pt.words[b1 - 1] == '?'}": 1, f"q2={pt.words[b2 - 1] == '?'}": 1,
            f"len1={min(len(s1) // 5, 6)}": 1, f"len2={min(len(s2) // 5, 6)}": 1}
    return PairItem(base, (one.content, two.content), _valued(one.dep_rules, two.dep_rules),
                    _valued(one.prod_rules, two.prod_rules))


def mutual_information(items: list[frozenset[str]], labels: list[str], min_count: int = 3) -> dict[str, float]:
    """MI between each binary feature (present/absent) and the label."""
    classes = sorted(set(labels))
    cidx = {c: j for j, c in enumerate(classes)}
    counts: dict[str, np.ndarray] = {}
    for feats, lab in zip(items, labels):
        j = cidx[lab]
        for f in feats:
            arr = counts.get(f)
            if arr is None:
                arr = counts[f] = np.zeros(len(classes))
            arr[j] += 1
    n = len(labels)
    pc = np.array([Counter(labels)[c] for c in classes], dtype=float) / n
    out = {}
    for f, arr in counts.items():
        total = arr.sum()
        if total < min_count:
            continue
        p1 = arr / n                      # P(f present, c)
        p0 = pc - p1                      # P(f absent, c)
        pf = total / n
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = np.where(p1 > 0, p1 * np.log(p1 / (pf * pc)), 0.0)
            t0 = np.where(p0 > 0, p0 * np.log(p0 / ((1 - pf) * pc)), 0.0)
        out[f] = float(t1.sum() + t0.sum())
    return out


class PairFeaturizer(BaseEstimator, TransformerMixin):
    """Keeps the base features and the top-MI word pairs, dependency and production rules
    (Lin 2009 selects 500 / 100 / 100), then one-hot encodes everything."""

    def __init__(self, n_word_pairs: int = 500, n_dep_rules: int = 100, n_prod_rules: int = 100):
        self.n_word_pairs = n_word_pairs
        self.n_dep_rules = n_dep_rules
        self.n_prod_rules = n_prod_rules

    def _select(self, groups: list[frozenset[str]], y, k: int) -> frozenset[str]:
        mi = mutual_information(groups, list(y))
        return frozenset(sorted(mi, key=lambda f: (-mi[f], f))[:k])

    def fit(self, X: list[PairItem], y):
        self.word_pairs_ = self._select([x.word_pairs for x in X], y, self.n_word_pairs)
        self.dep_rules_ = self._select([x.dep_rules for x in X], y, self.n_dep_rules)
        self.prod_rules_ = self._select([x.prod_rules for x in X], y, self.n_prod_rules)
        self.vectorizer_ = DictVectorizer().fit(self._dicts(X))
        return self

    def _dicts(self, X: list[PairItem]) -> list[dict]:
        out = []
        for x in X:
            d = dict(x.base)
            d.update({"wp=" + f: 1 for f in x.selected_word_pairs(self.word_pairs_)})
            d.update({"dep=" + f: 1 for f in x.dep_rules & self.dep_rules_})
            d.update({"prod=" + f: 1 for f in x.prod_rules & self.prod_rules_})
            out.append(d)
        return out

    def transform(self, X: list[PairItem]):
        return vectors.rows(self.vectorizer_, self._dicts(X))


def candidate_pairs(pt: ParsedText, linked: set[int]) -> list[int]:
    """Indices i of adjacent pairs (i, i + 1) whose second sentence holds no PS explicit
    (``linked`` = sentences that are Arg2 of an inter-sentence explicit relation)."""
    return [i for i in range(len(pt.sentences) - 1) if i + 1 not in linked]
