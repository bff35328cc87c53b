"""TESLA-S (Lin, Liu, Ng, Kan 2012, section 3): content coverage of a summary as the mean of two
TESLA F-measures, one over unigrams and one over skip-bigrams (at most 4 words apart), with
function words discounted by 0.1 and alpha = 0.8 (recall-weighted).

Similarity is exact surface match, so the matching LP has the closed form of
:mod:`evalcore.matching.closed_form`; the batch path evaluates it for all (candidate, reference)
pairs at once as row-wise minima of sparse bag matrices.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from scipy.sparse import csr_matrix

from evalcore import __version__
from evalcore.metric import Item, ReferenceMetric, Score, Signature
from evalcore.ngrams import IdBag, skip_bigram_id_bag, token_ids, unigram_id_bag
from evalcore.text import FUNCTION_WORD_MODES, Preprocessor
from summeval.metrics.multiref import MULTI_REF_MODES, combine


@functools.lru_cache(maxsize=None)
def preprocessor(stem: bool, function_words: str) -> Preprocessor:
    """The process's one preprocessor per setting (its per-text cache is shared too)."""
    return Preprocessor(lowercase=True, stem=stem, function_words=function_words)


@functools.lru_cache(maxsize=65536)
def text_bags(text: str, stem: bool, function_words: str, max_gap: int, discount: float | None) -> tuple[IdBag, IdBag]:
    """(unigram bag, skip-bigram bag) of a text under one setting, as integer-id bags (built in
    numpy: no Python loop per n-gram), cached for the whole process so every TESLA-S in it (the
    metric and the three CREMERs of ``--metric all``) preprocesses a text once.
    :func:`clear_caches` gives cold caches for timing."""
    doc = preprocessor(stem, function_words)(text)
    ids = token_ids(doc.tokens)
    weights = np.ones(len(ids)) if discount is None else np.where(np.array(doc.function, dtype=bool), discount, 1.0)
    return unigram_id_bag(ids, weights), skip_bigram_id_bag(ids, weights, max_gap)


def clear_caches() -> None:
    """Forget every cached bag and tokenisation (benchmarks time TESLA-S from cold caches)."""
    text_bags.cache_clear()
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
    def bags(self, text: str) -> tuple[IdBag, IdBag]:
        """(unigram bag, skip-bigram bag) of a text under this metric's settings (cached)."""
        discount = None if self.function_words == "none" else self.discount
        return text_bags(text, self.stem, self.function_words, self.max_gap, discount)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        texts: dict[str, int] = {}
        pairs: list[tuple[int, int]] = []  # (candidate text id, reference text id)
        owners: list[int] = []
        for k, item in enumerate(items):
            c = texts.setdefault(item.candidate, len(texts))
            for ref in item.references:
                pairs.append((c, texts.setdefault(ref, len(texts))))
                owners.append(k)
        bags = [self.bags(t) for t in texts]
        cand_idx, ref_idx = (np.array(a) for a in zip(*pairs))
        per_pair = [self._pair_prf([b[part] for b in bags], cand_idx, ref_idx) for part in (0, 1)]
        headline = (per_pair[0][2] + per_pair[1][2]) / 2
        return self._per_item(len(items), np.array(owners), per_pair, headline)

    def _pair_prf(self, bags: list[IdBag], cand_idx: np.ndarray, ref_idx: np.ndarray):
        """Precision, recall and F for every (candidate, reference) pair of one n-gram kind."""
        matrix = _bag_matrix(bags)
        totals = np.asarray(matrix.sum(axis=1)).ravel()
        overlap = np.asarray(matrix[cand_idx].minimum(matrix[ref_idx]).sum(axis=1)).ravel()
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(totals[cand_idx] > 0, overlap / totals[cand_idx], 0.0)
            r = np.where(totals[ref_idx] > 0, overlap / totals[ref_idx], 0.0)
            f = np.where(overlap > 0, p * r / (self.alpha * p + (1 - self.alpha) * r), 0.0)
        return p, r, f

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


def _bag_matrix(bags: list[IdBag]) -> csr_matrix:
    """Rows = bags, columns = n-grams, values = weights (one shared vocabulary). Columns are
    numbered by first occurrence across the bags in order, so the matrix (and every float summed
    from it) is the one the dict bags of 0.1.0 gave."""
    lengths = [len(b.keys) for b in bags]
    indptr = np.zeros(len(bags) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    if not indptr[-1]:
        return csr_matrix((np.zeros(0), np.zeros(0, np.int64), indptr), shape=(len(bags), 1))
    keys = np.concatenate([b.keys for b in bags])
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    column = np.empty(len(uniq), dtype=np.int64)
    column[np.argsort(first, kind="stable")] = np.arange(len(uniq))
    data = np.concatenate([b.weights for b in bags])
    return csr_matrix((data, column[inverse.ravel()], indptr), shape=(len(bags), len(uniq)))
