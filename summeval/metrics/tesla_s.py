"""TESLA-S (Lin, Liu, Ng, Kan 2012, section 3): content coverage of a summary as the mean of two
TESLA F-measures, one over unigrams and one over skip-bigrams (at most 4 words apart), with
function words discounted by 0.1 and alpha = 0.8 (recall-weighted).

Similarity is exact surface match, so the matching LP has the closed form of
:mod:`evalcore.matching.closed_form`: the summed minimum of two bags' weights. Tokens are integer
ids and the bags of all new texts are built in one numpy pass (:func:`evalcore.ngrams.id_bags`);
overlaps of all (candidate, reference) pairs come from :class:`evalcore.ngrams.BagRows`, which
adds the same floats in the same order as the sparse-matrix code of 0.1.0, so scores are
unchanged to the last bit. No compiled kernel: with numpy the time left is mostly tokenisation
(one regex per text), the contract's per-item work and two sorts (``summeval bench speed``).
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence
from itertools import chain
from typing import ClassVar

import numpy as np

from evalcore import __version__
from evalcore.metric import Item, ReferenceMetric, Score, Signature
from evalcore.ngrams import BagRows, IdBag, id_bags, token_id, token_ids
from evalcore.text import FUNCTION_WORD_MODES, Preprocessor, tokenize
from summeval.metrics.multiref import MULTI_REF_MODES, combine


@functools.lru_cache(maxsize=None)
def preprocessor(stem: bool, function_words: str) -> Preprocessor:
    """The process's one preprocessor per setting (its per-text cache is shared too)."""
    return Preprocessor(lowercase=True, stem=stem, function_words=function_words)


#: a unigram's key among skip-bigram keys: bit 31 is never set in those (token ids < 2**31)
_UNIGRAM_FLAG = 1 << 31
#: (setting, text) -> (unigram bag, skip-bigram bag); emptied when it reaches this many texts
_BAGS: dict[tuple, tuple[IdBag, IdBag]] = {}
CACHE_TEXTS = 65536
#: distinct raw tokens remembered per setting (emptied when exceeded)
CACHE_TOKENS = 1_000_000


def texts_bags(texts: Sequence[str], stem: bool, function_words: str, max_gap: int,
               discount: float | None) -> list[tuple[IdBag, IdBag]]:
    """(unigram bag, skip-bigram bag) of each text under one setting, as integer-id bags. Texts not
    seen before are bagged together in one vectorised pass; results are cached for the whole
    process so every TESLA-S in it (the metric and the three CREMERs of ``--metric all``)
    preprocesses a text once. :func:`clear_caches` gives cold caches for timing."""
    setting = (stem, function_words, max_gap, discount)
    missing = list(dict.fromkeys(t for t in texts if (setting, t) not in _BAGS))
    if missing:
        if len(_BAGS) + len(missing) > CACHE_TEXTS:
            _BAGS.clear()
        ids, function, lengths = _ids_and_flags(missing, stem, function_words)
        weights = np.ones(len(ids)) if discount is None else np.where(function, discount, 1.0)
        for text, unigrams, skips in zip(missing, *id_bags(ids, weights, lengths, max_gap)):
            _BAGS[setting, text] = (unigrams, skips)
    return [_BAGS[setting, t] for t in texts]


#: (stem, function_words) -> raw token -> 2 * token id + function-word flag ("list" and "none")
_CODES: dict[tuple[bool, str], dict[str, int]] = {}


def _ids_and_flags(texts: Sequence[str], stem: bool, function_words: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Token ids and function-word flags of the texts end to end (as :class:`Preprocessor`
    defines them), and each text's length. With word-list (or no) function words a token's form
    and flag do not depend on its context, so each distinct raw token is normalised once and
    later occurrences cost one dict look-up."""
    prep = preprocessor(stem, function_words)
    if function_words == "pos":
        docs = [prep(t) for t in texts]
        lengths = np.array([len(d) for d in docs], dtype=np.int64)
        ids = token_ids([t for d in docs for t in d.tokens])
        return ids, np.array([f for d in docs for f in d.function], dtype=bool), lengths
    codes = _CODES.setdefault((stem, function_words), {})
    if len(codes) > CACHE_TOKENS:
        codes.clear()
    token_lists = [tokenize(t) for t in texts]
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    raw = list(chain.from_iterable(token_lists))
    try:
        code = np.fromiter(map(codes.__getitem__, raw), dtype=np.int64, count=len(raw))
    except KeyError:  # word types not seen before: normalise them once
        for t in dict.fromkeys(raw):  # in text order: ids are given deterministically
            if t in codes:
                continue
            token, function = prep.token(t)
            codes[t] = 2 * token_id(token) + function
        code = np.fromiter(map(codes.__getitem__, raw), dtype=np.int64, count=len(raw))
    return code >> 1, (code & 1).astype(bool), lengths


def clear_caches() -> None:
    """Forget every cached bag and preprocessed text (benchmarks time TESLA-S from cold caches).
    The token table (a word type's id and function-word flag) stays, like the token ids: it is a
    vocabulary, not a text's preprocessing."""
    _BAGS.clear()
    preprocessor.cache_clear()


class TeslaS(ReferenceMetric):
    """TESLA-S of a candidate against its references. ``value`` is the mean of the unigram and
    skip-bigram F; components: ``precision``, ``recall``, ``f`` (= value), ``unigram_f``,
    ``skip_bigram_f`` (of the best reference under ``multi_ref="max"``, else combined the same way).

    ``function_words="pos"`` (spaCy POS tags, the paper's definition) is registered as
    ``tesla-s-pos``; the name follows the parameter so a score always says which it is.
    """

    def __init__(self, alpha: float = 0.8, discount: float = 0.1, max_gap: int = 4,
                 multi_ref: str = "max", stem: bool = False, function_words: str = "list"):
        self.alpha = alpha
        self.discount = discount
        self.max_gap = max_gap
        self.multi_ref = multi_ref
        self.stem = stem
        self.function_words = function_words

    @property
    def name(self) -> str:  # type: ignore[override]
        return "tesla-s-pos" if self.function_words == "pos" else "tesla-s"

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

    # ---- signature: the short form of 0.1.0, recorded in CREMER's sidecars ---------------------
    signature_keys: ClassVar[dict[str, str]] = {"max_gap": "ngrams", "discount": "fw", "multi_ref": "refs",
                                                "function_words": "fwd"}

    def signature(self) -> Signature:
        """``tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:list|v:...``:
        ``fw`` is the function-word discount (``none`` when function words are not detected); the
        tokeniser's fields (``tok``, ``stem``, ``fwd``) are named as :class:`Preprocessor` names them."""
        fw = "none" if self.function_words == "none" else self.discount
        params = {"ngrams": f"1+sb{self.max_gap}", "fw": fw, "alpha": self.alpha, "refs": self.multi_ref,
                  "tok": "ptb-lc", "stem": "porter" if self.stem else "no", "fwd": self.function_words}
        return Signature(self.name, params, {}, __version__)

    # ---- scoring ---------------------------------------------------------------------------------
    def bags(self, texts: Sequence[str]) -> list[tuple[IdBag, IdBag]]:
        """(unigram bag, skip-bigram bag) of each text under this metric's settings (cached)."""
        discount = None if self.function_words == "none" else self.discount
        return texts_bags(texts, self.stem, self.function_words, self.max_gap, discount)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        texts: dict[str, int] = {}
        cand, ref, owners = [], [], []  # per (candidate, reference) pair: text ids and the item
        for k, item in enumerate(items):
            c = texts.setdefault(item.candidate, len(texts))
            for r in item.references:
                cand.append(c)
                ref.append(texts.setdefault(r, len(texts)))
                owners.append(k)
        bags = self.bags(list(texts))
        cand_idx, ref_idx = np.array(cand, dtype=np.int64), np.array(ref, dtype=np.int64)
        per_pair = self._pair_prf(bags, cand_idx, ref_idx)
        headline = (per_pair[0][2] + per_pair[1][2]) / 2
        return self._per_item(len(items), np.array(owners), per_pair, headline)

    def _pair_prf(self, bags: list[tuple[IdBag, IdBag]], cand_idx: np.ndarray, ref_idx: np.ndarray):
        """(precision, recall, F) for every (candidate, reference) pair, for unigrams and for
        skip-bigrams. Both kinds are rows of one :class:`BagRows` (unigram keys made distinct
        from skip-bigram keys), compared as two groups: one pass of numpy calls, not two."""
        n = len(bags)
        rows = BagRows([IdBag((u.keys << 32) | _UNIGRAM_FLAG, u.weights) for u, _ in bags] + [s for _, s in bags])
        both_cand, both_ref = np.concatenate([cand_idx, cand_idx + n]), np.concatenate([ref_idx, ref_idx + n])
        groups = np.repeat(np.arange(2), len(cand_idx))
        totals, overlap = rows.totals(), rows.overlaps(both_cand, both_ref, groups)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(totals[both_cand] > 0, overlap / totals[both_cand], 0.0)
            r = np.where(totals[both_ref] > 0, overlap / totals[both_ref], 0.0)
            f = np.where(overlap > 0, p * r / (self.alpha * p + (1 - self.alpha) * r), 0.0)
        half = len(cand_idx)
        return [(p[:half], r[:half], f[:half]), (p[half:], r[half:], f[half:])]

    def _per_item(self, n_items: int, owners: np.ndarray, per_pair, headline: np.ndarray) -> list[Score]:
        (up, ur, uf), (bp, br, bf) = per_pair
        starts = np.searchsorted(owners, np.arange(n_items + 1))
        out = []
        for k in range(n_items):
            sl = slice(starts[k], starts[k + 1])
            if self.multi_ref == "max":
                best = starts[k] + int(np.argmax(headline[sl]))
                pick = lambda a: float(a[best])  # noqa: E731 - the fields of the best reference
            else:
                pick = lambda a: combine(a[sl], self.multi_ref)  # noqa: E731
            f = combine(headline[sl], self.multi_ref)
            out.append(Score(f, {"precision": (pick(up) + pick(bp)) / 2, "recall": (pick(ur) + pick(br)) / 2,
                                 "f": f, "unigram_f": pick(uf), "skip_bigram_f": pick(bf)}))
        return out
