"""TESLA-S (Lin, Liu, Ng, Kan 2012, section 3): content coverage of a summary as the mean of two
TESLA F-measures, one over unigrams and one over skip-bigrams (at most 4 words apart), with
function words discounted by 0.1 and alpha = 0.8 (recall-weighted).

Similarity is exact surface match, so the matching LP has the closed form of
:mod:`evalcore.matching.closed_form`: the summed minimum of two bags' weights. Tokens are integer
ids (each whitespace-separated string tokenised once per process) and the bags of a batch are one
:class:`evalcore.text.ngrams.BagSet`, whose overlaps add the same floats in the same order as a
sparse matrix of the bags would, so scores are those of the matrix definition to the last bit. A corpus batch is bagged
and joined with dense local tables in numpy (:mod:`evalcore.text.ngram_tables`), or in compiled
code where numba is installed (the ``fast`` extra, :mod:`evalcore.text.ngram_kernels`): the same
floats; a one-document run stays on numpy's sorts and never imports numba.

``lang`` other than English reads the text as :mod:`evalcore.text.languages` defines the
language (Unicode words or Han/kana characters, Snowball stems, the ``stop-words`` list as
function words); English keeps the PTB-like tokenizer and the shipped closed-class list.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import ClassVar

import numpy as np

from evalcore import __version__
from evalcore.metric import Item, ReferenceMetric, Score, Signature
from evalcore.text.languages import LANGUAGES, language, reader, text_notes
from evalcore.text.ngrams import BagSet, IdBag, ranges, token_id, token_ids
from evalcore.text.preprocess import FUNCTION_WORD_MODES, Preprocessor, tokenize
from summeval.multiref import MULTI_REF_MODES, combine


@functools.cache
def preprocessor(stem: bool, function_words: str) -> Preprocessor:
    """The process's one preprocessor per setting (its per-text cache is shared too)."""
    return Preprocessor(lowercase=True, stem=stem, function_words=function_words)


#: (setting, texts) -> their BagSet, for the last few batches: the three CREMERs of ``--metric
#: all`` score the very items TESLA-S scored, and reuse its bags
_BAG_SETS: dict[tuple, BagSet] = {}
CACHE_BATCHES = 4
#: distinct raw tokens (and whitespace-separated strings) remembered per setting (emptied when exceeded)
CACHE_TOKENS = 1_000_000


def bag_set(texts: Sequence[str], stem: bool, function_words: str, max_gap: int,
            discount: float | None, lang: str = "en") -> BagSet:
    """The bags of ``texts`` under one setting as one :class:`BagSet`, built in one vectorised
    pass: bag ``2t`` is text ``t``'s unigrams, bag ``2t + 1`` its skip-bigrams. The last
    few batches' bags are kept (:func:`clear_caches` empties them for timing)."""
    key = (stem, function_words, max_gap, discount, lang, tuple(texts))
    bags = _BAG_SETS.pop(key, None)
    if bags is None:
        ids, function, lengths = (_ids_and_flags(texts, stem, function_words) if lang == "en"
                                  else _language_ids_and_flags(texts, stem, function_words, lang))
        weights = np.ones(len(ids)) if discount is None else np.where(function, discount, 1.0)
        bags = BagSet.of_texts(ids, weights, lengths, max_gap)
        if len(_BAG_SETS) >= CACHE_BATCHES:
            del _BAG_SETS[next(iter(_BAG_SETS))]
    _BAG_SETS[key] = bags  # most recently used last
    return bags


class _Vocabulary:
    """What a process learns of the language under one setting ("list" or "none" function words):
    each raw token's code (2 * token id + function-word flag) and each whitespace-separated
    string's tokens, as codes in flat arrays (string k's codes are ``codes[starts[k]:starts[k + 1]]``)."""

    def __init__(self, stem: bool, function_words: str):
        self.prep = preprocessor(stem, function_words)
        self.token_codes: dict[str, int] = {}
        self.strings: dict[str, int] = {}
        self._codes: list[int] = []
        self._starts: list[int] = [0]
        self.codes, self.starts = np.zeros(0, np.int64), np.zeros(1, np.int64)

    def learn(self, strings: Sequence[str]) -> None:
        """Tokenise and normalise strings not seen before (in order: ids are deterministic)."""
        for string in dict.fromkeys(strings):
            if string not in self.strings:
                self.strings[string] = len(self.strings)
                self._codes.extend(map(self._code, tokenize(string)))
                self._starts.append(len(self._codes))
        self.codes, self.starts = np.array(self._codes, dtype=np.int64), np.array(self._starts, dtype=np.int64)

    def _code(self, raw: str) -> int:
        code = self.token_codes.get(raw)
        if code is None:
            token, function = self.prep.token(raw)
            code = self.token_codes[raw] = 2 * token_id(token) + function
        return code


#: (stem, function_words) -> its vocabulary
_VOCABULARIES: dict[tuple[bool, str], _Vocabulary] = {}


def _ids_and_flags(texts: Sequence[str], stem: bool, function_words: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token ids and function-word flags of the texts end to end (as :class:`Preprocessor`
    defines them), and each text's length. With word-list (or no) function words a token's form
    and flag do not depend on its context, and no token spans white space (the tokeniser's
    pattern neither matches nor looks past it: the tests check it), so each distinct
    whitespace-separated string is tokenised and normalised once; later occurrences cost one
    dict look-up instead of a regular-expression pass."""
    if function_words == "pos":
        prep = preprocessor(stem, function_words)
        docs = [prep(t) for t in texts]
        lengths = np.array([len(d) for d in docs], dtype=np.int64)
        ids = token_ids([t for d in docs for t in d.tokens])
        return ids, np.array([f for d in docs for f in d.function], dtype=bool), lengths
    vocabulary = _VOCABULARIES.get((stem, function_words))
    if vocabulary is None or len(vocabulary.strings) > CACHE_TOKENS or len(vocabulary.token_codes) > CACHE_TOKENS:
        vocabulary = _VOCABULARIES[stem, function_words] = _Vocabulary(stem, function_words)
    split = [t.split() for t in texts]
    n_strings = np.fromiter(map(len, split), dtype=np.int64, count=len(texts))
    try:
        string = np.fromiter(map(vocabulary.strings.__getitem__, chain.from_iterable(split)), dtype=np.int64,
                             count=int(n_strings.sum()))
    except KeyError:
        vocabulary.learn(list(chain.from_iterable(split)))
        string = np.fromiter(map(vocabulary.strings.__getitem__, chain.from_iterable(split)), dtype=np.int64,
                             count=int(n_strings.sum()))
    size = np.diff(vocabulary.starts)[string]
    ends = np.zeros(len(string) + 1, dtype=np.int64)
    np.cumsum(size, out=ends[1:])
    lengths = np.diff(ends[np.concatenate([[0], np.cumsum(n_strings)])])
    code = vocabulary.codes[ranges(vocabulary.starts[string], size)]
    return code >> 1, (code & 1).astype(bool), lengths


def _language_ids_and_flags(texts: Sequence[str], stem: bool, function_words: str,
                            lang: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_ids_and_flags` for a language of :mod:`evalcore.text.languages` (each word's form
    and flag computed once per process by its reader)."""
    read = reader(lang, stem, function_words == "list").read
    docs = [read(t) for t in texts]
    lengths = np.array([len(tokens) for tokens, _ in docs], dtype=np.int64)
    ids = token_ids([t for tokens, _ in docs for t in tokens])
    return ids, np.array([f for _, flags in docs for f in flags], dtype=bool), lengths


def clear_caches(vocabulary: bool = False) -> None:
    """Forget every cached bag and preprocessed text (benchmarks time TESLA-S from cold caches).
    The vocabulary (a word type's id and function-word flag, the tokens of a whitespace-separated
    string) stays unless ``vocabulary``: it is what a process learns of the language, not a
    text's preprocessing. Token ids stay in any case (cached bags of other settings hold them)."""
    _BAG_SETS.clear()
    preprocessor.cache_clear()
    if vocabulary:
        _VOCABULARIES.clear()


class TeslaS(ReferenceMetric):
    """TESLA-S of a candidate against its references. ``value`` is the mean of the unigram and
    skip-bigram F; components: ``precision``, ``recall``, ``f`` (= value), ``unigram_f``,
    ``skip_bigram_f`` (of the best reference under ``multi_ref="max"``, else combined the same way).

    ``function_words="pos"`` (spaCy POS tags, the paper's definition) is registered as
    ``tesla-s-pos``; the name follows the parameter so a score always says which it is.
    """

    cost: ClassVar[str] = "light"  # tesla-s-pos (spaCy tags) is medium
    languages: ClassVar[tuple[str, ...]] = ("en", *LANGUAGES)
    language_param: ClassVar[str | None] = "lang"
    signature_implicit: ClassVar[dict[str, object]] = {"lang": "en"}

    def __init__(self, alpha: float = 0.8, discount: float = 0.1, max_gap: int = 4,
                 multi_ref: str = "max", stem: bool = False, function_words: str = "list", lang: str = "en"):
        self.alpha = alpha
        self.discount = discount
        self.max_gap = max_gap
        self.multi_ref = multi_ref
        self.stem = stem
        self.function_words = function_words
        self.lang = lang

    @property
    def english(self) -> bool:  # type: ignore[override]  # a property: it follows the language
        """English input notes apply to English text only."""
        return self.lang == "en"

    def validate(self) -> None:
        if self.multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"multi_ref must be one of {MULTI_REF_MODES}, got {self.multi_ref!r}")
        if not isinstance(self.alpha, numbers.Real) or not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be within (0, 1), got {self.alpha!r}")
        if not isinstance(self.discount, numbers.Real) or not 0 <= self.discount <= 1:
            raise ValueError(f"discount must be within [0, 1], got {self.discount!r}")
        if isinstance(self.max_gap, bool) or not isinstance(self.max_gap, numbers.Integral) or self.max_gap < 0:
            raise ValueError(f"max_gap must be a whole number >= 0, got {self.max_gap!r}")
        if not isinstance(self.stem, bool):
            raise ValueError(f"stem must be True or False, got {self.stem!r}")
        if self.function_words not in FUNCTION_WORD_MODES:
            raise ValueError(f"function_words must be one of {FUNCTION_WORD_MODES}, got {self.function_words!r}")
        if self.lang != "en":
            language(self.lang)  # ValueError naming the supported languages
            if self.function_words == "pos":
                raise ValueError("function_words='pos' tags English text (spaCy's English model); "
                                 f"use 'list' or 'none' with lang={self.lang!r}")

    # ---- signature: sacrebleu's short form, recorded in CREMER's model headers -----------------
    signature_keys: ClassVar[dict[str, str]] = {"max_gap": "ngrams", "discount": "fw", "multi_ref": "refs",
                                                "function_words": "fwd"}

    def signature(self) -> Signature:
        """``tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:list|v:...``:
        ``fw`` is the function-word discount (``none`` when function words are not detected); the
        tokeniser's fields (``tok``, ``stem``, ``fwd``) are named as :class:`Preprocessor` names them."""
        fw = "none" if self.function_words == "none" else self.discount
        params: dict[str, object] = {"ngrams": f"1+sb{self.max_gap}", "fw": fw, "alpha": self.alpha,
                                     "refs": self.multi_ref, "tok": "ptb-lc", "stem": "porter" if self.stem else "no",
                                     "fwd": self.function_words}
        if self.lang != "en":  # lang, tok, stem, sw (the function-word list), syn
            params.update(_language_fields(self.lang, self.stem, self.function_words))
        return Signature(self.name, params, {}, __version__)

    # ---- scoring ---------------------------------------------------------------------------------
    def _bag_set(self, texts: Sequence[str]) -> BagSet:
        discount = None if self.function_words == "none" else self.discount
        return bag_set(texts, self.stem, self.function_words, self.max_gap, discount, self.lang)

    def bags(self, texts: Sequence[str]) -> list[tuple[IdBag, IdBag]]:
        """(unigram bag, skip-bigram bag) of each text under this metric's settings (cached)."""
        bags = self._bag_set(texts).id_bags(range(2 * len(texts)))
        return list(zip(bags[::2], bags[1::2]))

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        n_refs = np.fromiter((len(item.references) for item in items), dtype=np.int64, count=len(items))
        every = list(chain.from_iterable((item.candidate, *item.references) for item in items))
        texts = dict.fromkeys(every)  # each text once, numbered in order of appearance
        texts.update(zip(texts, range(len(texts))))
        number = np.fromiter(map(texts.__getitem__, every), dtype=np.int64, count=len(every))
        starts = np.cumsum(n_refs + 1) - n_refs - 1  # where each item's texts begin in ``every``
        refs = np.full((len(items), int(n_refs.max())), -1, dtype=np.int64)
        slots = np.arange(refs.shape[1]) < n_refs[:, None]
        refs[slots] = number[ranges(starts + 1, n_refs)]
        per_pair = self._pair_prf(self._bag_set(list(texts)), number[starts], refs)
        headline = (per_pair[0][2] + per_pair[1][2]) / 2
        scores = self._per_item(n_refs, per_pair, headline)
        if self.lang == "en":
            return scores
        notes = (text_notes(item.candidate, item.references, self.lang) for item in items)
        return [s.with_notes(*n) if n else s for s, n in zip(scores, notes)]

    def _pair_prf(self, bags: BagSet, cand: np.ndarray, refs: np.ndarray):
        """(precision, recall, F) of every candidate against each of its references (items x
        reference slots), for unigrams and for skip-bigrams: both kinds are queries of one
        :meth:`BagSet.overlaps` call, compared as two blocks."""
        n = len(cand)
        both_cand = np.concatenate([2 * cand, 2 * cand + 1])  # text t's unigram bag is 2t, skip-bigrams 2t + 1
        both_refs = np.concatenate([np.where(refs >= 0, 2 * refs, -1), np.where(refs >= 0, 2 * refs + 1, -1)])
        overlap = bags.overlaps(both_cand, both_refs, np.repeat(np.arange(2), n))
        totals = bags.totals()
        c_total, r_total = totals[both_cand][:, None], np.where(both_refs >= 0, totals[both_refs], 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(c_total > 0, overlap / c_total, 0.0)
            r = np.where(r_total > 0, overlap / r_total, 0.0)
            f = np.where(overlap > 0, p * r / (self.alpha * p + (1 - self.alpha) * r), 0.0)
        return [(p[:n], r[:n], f[:n]), (p[n:], r[n:], f[n:])]

    def _per_item(self, n_refs: np.ndarray, per_pair, headline: np.ndarray) -> list[Score]:
        (up, ur, uf), (bp, br, bf) = per_pair
        fields = (up, bp, ur, br, uf, bf)
        if self.multi_ref == "max":  # the fields of the (first) best reference
            padded = np.where(np.arange(headline.shape[1]) < n_refs[:, None], headline, -np.inf)
            best = (np.arange(len(n_refs)), padded.argmax(axis=1))
            values = headline[best].tolist()
            picked: Iterator[Sequence[float]] = zip(*(a[best].tolist() for a in fields))
        else:
            values = [combine(h[:k], self.multi_ref) for h, k in zip(headline, n_refs.tolist())]
            picked = ([combine(a[i, :k], self.multi_ref) for a in fields] for i, k in enumerate(n_refs.tolist()))
        return [Score(f, {"precision": (p1 + p2) / 2, "recall": (r1 + r2) / 2, "f": f, "unigram_f": f1,
                          "skip_bigram_f": f2}) for f, (p1, p2, r1, r2, f1, f2) in zip(values, picked)]


def _language_fields(lang: str, stem: bool, function_words: str) -> dict[str, object]:
    """Signature fields of a language other than English (its stop words only where they are read)."""
    fields: dict[str, object] = dict(language(lang).describe(stem)) if lang in LANGUAGES else {"lang": lang}
    if function_words == "none" and "sw" in fields:
        fields["sw"] = "none"
    return fields
