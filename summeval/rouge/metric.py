"""ROUGE baselines in the same report as TESLA-S.

ROUGE-1/2/L come from ``rouge-score-rs`` (Rust), whose scores are rouge-score's value for value
(the tests compare them on SummEval) and 60x faster. Each text is tokenised and Porter-stemmed
once (cached), and only the requested ROUGE type is computed. ROUGE-SU4 is not in rouge-score:
it is computed here from the suite's skip-bigram bags, on the same tokens, exactly as ROUGE-1.5.5
defines it (see :class:`RougeSU`). Recall is the headline value, as in TAC; ``-f`` variants report
F1. Several references: the best reference (max, as rouge-score's score_multi) by default, or, with
``multi_ref``, the mean or TAC's jackknife (mean over leave-one-reference-out maxima), combined as
TESLA-S combines them (:func:`summeval.multiref.combine`).

``lang`` other than English tokenises as TESLA-S does for that language
(:class:`evalcore.text.languages.LanguageTokenizer`: Unicode words or Han/kana characters,
Snowball stems with ``stem``), handed to rouge-score-rs as its ``tokenizer``; English keeps
rouge-score's own tokenizer and Porter stemmer, so English values stay rouge-score's.
"""

from __future__ import annotations

import functools
import numbers
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from cachetools import LRUCache, cached

from evalcore import __version__
from evalcore.metric import Item, ReferenceMetric, Score, Signature
from evalcore.text.languages import LANGUAGES, LanguageTokenizer, language, text_notes
from evalcore.text.ngrams import BagSet, token_ids
from summeval.multiref import MULTI_REF_MODES, combine

ROUGE_TYPES = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeL"}
MEASURES = ("recall", "f")


@functools.lru_cache(maxsize=8)
def _scorer(rouge_type: str):
    """rouge-score-rs for one ROUGE type, on texts already tokenised and stemmed by :func:`tokens`."""
    import rouge_score_rs

    return rouge_score_rs.RougeScorer([rouge_type], use_stemmer=False)


@functools.lru_cache(maxsize=8)
def _language_scorer(rouge_type: str, lang: str, stem: bool):
    """rouge-score-rs for one ROUGE type on a language's tokens (:class:`LanguageTokenizer`)."""
    import rouge_score_rs

    return rouge_score_rs.RougeScorer([rouge_type], tokenizer=LanguageTokenizer(lang, stem))


#: tokens :func:`tokens` keeps (the least recently used texts' leave first): a few chunks' texts
TOKEN_CACHE = 200_000
_TOKENS: LRUCache[tuple, tuple[str, ...]] = LRUCache(TOKEN_CACHE, getsizeof=len)


@cached(_TOKENS)
def tokens(text: str, stem: bool, lang: str = "en") -> tuple[str, ...]:
    """rouge-score's tokens of a text (lowercased, split on non-alphanumerics, Porter-stemmed when
    longer than three characters if ``stem``), by rouge-score-rs; cached by the number of tokens
    held, so a reference is stemmed once, not once per candidate, and a long run's memory stays
    flat. Another ``lang``: its :class:`LanguageTokenizer`'s."""
    if lang != "en":
        return tuple(LanguageTokenizer(lang, stem).tokenize(text))
    from rouge_score_rs import tokenizers

    return tuple(tokenizers.DefaultTokenizer(stem).tokenize(text))


def _pretokenised(text: str, stem: bool) -> str:
    """The tokens joined by spaces: rouge-score's unstemmed tokeniser gives them back unchanged."""
    return " ".join(tokens(text, stem))


class _MultiReference(ReferenceMetric):
    """Shared multi-reference rule for the ROUGE family: ``multi_ref="max"`` keeps the reference
    with the best value, and the components ``precision``, ``recall`` and ``f`` are against it;
    ``mean`` and ``jackknife`` combine the headline and each component over the references."""

    measure: str
    stem: bool
    multi_ref: str
    lang: str
    signature_keys: ClassVar[dict[str, str]] = {"multi_ref": "refs"}
    languages: ClassVar[tuple[str, ...]] = ("en", *LANGUAGES)
    language_param: ClassVar[str | None] = "lang"
    signature_implicit: ClassVar[dict[str, object]] = {"lang": "en"}

    @property
    def english(self) -> bool:  # type: ignore[override]  # a property: it follows the language
        """English input notes apply to English text only."""
        return self.lang == "en"

    def validate(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"measure must be 'recall' or 'f', got {self.measure!r}")
        if not isinstance(self.stem, bool):
            raise ValueError(f"stem must be True or False, got {self.stem!r}")
        if self.multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"multi_ref must be one of {MULTI_REF_MODES}, got {self.multi_ref!r}")
        if self.lang != "en":
            language(self.lang)  # ValueError naming the supported languages

    def _signature_fields(self) -> dict[str, object]:
        fields: dict[str, object] = {"measure": self.measure, "refs": self.multi_ref, "tok": "rouge-score",
                                     "stem": "porter" if self.stem else "no"}
        if self.lang != "en":  # lang, tok, stem, syn; ROUGE reads no stop-word list
            fields.update(language(self.lang).describe(self.stem) if self.lang in LANGUAGES else {"lang": self.lang})
            fields.pop("sw", None)
        return fields

    def signature(self) -> Signature:
        """sacrebleu's short form, e.g. ``rouge-2|measure:recall|refs:max|tok:rouge-score|stem:porter``
        (the ROUGE type is in the name)."""
        return Signature(self.name, self._signature_fields(), {}, __version__)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        refs = [ref for item in items for ref in item.references]
        cands = [item.candidate for item in items for _ in item.references]
        prf = self._score_pairs(refs, cands)
        headline = prf[:, MEASURES.index(self.measure) + 1]  # recall or f
        ends = np.cumsum([len(item.references) for item in items]).tolist()
        spans = list(zip([0, *ends[:-1]], ends))
        if self.multi_ref == "max":
            rows = prf[[start + int(np.argmax(headline[start:end])) for start, end in spans]]  # the first best
        else:
            rows = np.array([[combine(prf[start:end, k], self.multi_ref) for k in range(3)] for start, end in spans])
        scores = [Score(components[self.measure], components)
                  for components in (dict(zip(("precision", "recall", "f"), row)) for row in rows.tolist())]
        if self.lang == "en":
            return scores
        notes = (text_notes(item.candidate, item.references, self.lang) for item in items)
        return [s.with_notes(*n) if n else s for s, n in zip(scores, notes)]

    @abstractmethod
    def _score_pairs(self, references: list[str], candidates: list[str]) -> np.ndarray:
        """(precision, recall, F) of each candidate against the reference at the same position."""


class Rouge(_MultiReference):
    """ROUGE-1, ROUGE-2 (n-gram overlap) or ROUGE-L (longest common subsequence) by rouge-score;
    ``kind`` picks which."""

    signature_via = {"kind": "name"}

    def __init__(self, kind: str = "rouge-2", measure: str = "recall", stem: bool = True, multi_ref: str = "max",
                 lang: str = "en"):
        self.kind = kind
        self.measure = measure
        self.stem = stem
        self.multi_ref = multi_ref
        self.lang = lang

    def validate(self) -> None:
        if self.kind not in ROUGE_TYPES:
            raise ValueError(f"unknown ROUGE type {self.kind!r}; choose from {sorted(ROUGE_TYPES)}")
        super().validate()

    def _score_pairs(self, references: list[str], candidates: list[str]) -> np.ndarray:
        key = ROUGE_TYPES[self.kind]
        if self.lang != "en":
            results = _language_scorer(key, self.lang, self.stem).score_batch(references, candidates)
            return np.array([(s.precision, s.recall, s.fmeasure) for s in (r[key] for r in results)], dtype=float)
        texts = {t: _pretokenised(t, self.stem) for t in dict.fromkeys(references + candidates)}
        results = _scorer(key).score_batch([texts[r] for r in references], [texts[c] for c in candidates])
        return np.array([(s.precision, s.recall, s.fmeasure) for s in (r[key] for r in results)], dtype=float)


class RougeSU(_MultiReference):
    """ROUGE-SU4 as ROUGE-1.5.5 ``-2 4 -u`` computes it.

    Skip-bigrams with at most ``max_gap`` words between the two (j - i <= max_gap + 1) plus
    unigrams. ROUGE-1.5.5 adds the unigram of every token *except the last* (its loop stops one
    short); this is reproduced so that numbers match the Perl script's.
    """

    signature_keys: ClassVar[dict[str, str]] = {"max_gap": "skip", "multi_ref": "refs"}

    def __init__(self, max_gap: int = 4, measure: str = "recall", stem: bool = True, multi_ref: str = "max",
                 lang: str = "en"):
        self.max_gap = max_gap
        self.measure = measure
        self.stem = stem
        self.multi_ref = multi_ref
        self.lang = lang

    def validate(self) -> None:
        if isinstance(self.max_gap, bool) or not isinstance(self.max_gap, numbers.Integral) or self.max_gap < 0:
            raise ValueError(f"max_gap must be a whole number >= 0, got {self.max_gap!r}")
        super().validate()

    def _signature_fields(self) -> dict[str, object]:
        return {"skip": self.max_gap, "unigrams": "1.5.5", **super()._signature_fields()}

    def _score_pairs(self, references: list[str], candidates: list[str]) -> np.ndarray:
        texts = dict.fromkeys(candidates + references)
        texts.update(zip(texts, range(len(texts))))
        bags = su_bags(list(texts), self.max_gap, self.stem, self.lang)
        cand_idx = np.fromiter(map(texts.__getitem__, candidates), dtype=np.int64, count=len(candidates))
        ref_idx = np.fromiter(map(texts.__getitem__, references), dtype=np.int64, count=len(references))
        totals, hits = bags.totals(), bags.overlaps(cand_idx, ref_idx[:, None])[:, 0]
        c_total, r_total = totals[cand_idx], totals[ref_idx]  # counts: sums exact whatever their order
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(c_total > 0, hits / c_total, 0.0)
            r = np.where(r_total > 0, hits / r_total, 0.0)
            f = np.where(hits > 0, 2 * p * r / (p + r), 0.0)
        return np.stack([p, r, f], axis=1)


def su_bags(texts: Sequence[str], max_gap: int, stem: bool, lang: str = "en") -> BagSet:
    """ROUGE-SU bags (the unigrams of every token but the last, then the skip-bigrams; bag ``t``
    is text ``t``'s) on rouge-score's tokens (``lang``'s tokens for another language), as one
    :class:`BagSet`."""
    token_lists = [tokens(t, stem, lang) for t in texts]
    ids = token_ids([t for toks in token_lists for t in toks])
    lengths = np.array([len(toks) for toks in token_lists], dtype=np.int64)
    return BagSet.of_texts(ids, np.ones(len(ids)), lengths, max_gap, last_unigram=False, merged=True)
