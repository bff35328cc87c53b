"""TESLA-S (Lin, Liu, Ng, Kan 2012, section 3): content coverage of a summary as the mean of two
TESLA F-measures, one over unigrams and one over skip-bigrams (at most 4 words apart), with
function words discounted by 0.1 and alpha = 0.8 (recall-weighted).

Similarity is exact surface match, so the matching LP has the closed form of
:mod:`evalcore.matching.closed_form`; the batch path evaluates it for all (candidate, reference)
pairs at once as row-wise minima of sparse bag matrices.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

from evalcore.ngrams import Bag, ngram_bag, skip_bigram_bag
from evalcore.text import Preprocessor
from summeval.metrics.base import Metric, Score
from summeval.metrics.multiref import MULTI_REF_MODES, combine


@functools.lru_cache(maxsize=None)
def preprocessor(stem: bool, function_words: str) -> Preprocessor:
    """The process's one preprocessor per setting (its per-text cache is shared too)."""
    return Preprocessor(lowercase=True, stem=stem, function_words=function_words)


@functools.lru_cache(maxsize=65536)
def text_bags(text: str, stem: bool, function_words: str, max_gap: int, discount: float | None) -> tuple[Bag, Bag]:
    """(unigram bag, skip-bigram bag) of a text under one setting, cached for the whole process so
    every TESLA-S in it (the metric and the three CREMERs of ``--metric all``) preprocesses a
    text once. :func:`clear_caches` gives cold caches for timing."""
    doc = preprocessor(stem, function_words)(text)
    return ngram_bag(doc, 1, discount), skip_bigram_bag(doc, max_gap, discount)


def clear_caches() -> None:
    """Forget every cached bag and tokenisation (benchmarks time TESLA-S from cold caches)."""
    text_bags.cache_clear()
    preprocessor.cache_clear()


@dataclass(frozen=True)
class TeslaSScore(Score):
    """TESLA-S of one candidate; ``value`` = ``f`` = mean of the unigram and skip-bigram F."""

    unigram_f: float
    skip_bigram_f: float


class TeslaS(Metric):
    name = "tesla-s"

    def __init__(self, alpha: float = 0.8, discount: float = 0.1, max_gap: int = 4,
                 multi_ref: str = "max", stem: bool = False, function_words: str = "list"):
        if multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"multi_ref must be one of {MULTI_REF_MODES}, got {multi_ref!r}")
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be within (0, 1), got {alpha}")
        self.alpha = alpha
        self.discount = discount
        self.max_gap = max_gap
        self.multi_ref = multi_ref
        self.preprocessor = preprocessor(stem, function_words)

    def signature_fields(self) -> str:
        fw = "none" if self.preprocessor.function_words == "none" else f"{self.discount:g}"
        return (f"ngrams:1+sb{self.max_gap}|fw:{fw}|alpha:{self.alpha:g}|refs:{self.multi_ref}|"
                f"{self.preprocessor.signature()}")

    def bags(self, text: str) -> tuple[Bag, Bag]:
        """(unigram bag, skip-bigram bag) of a text under this metric's settings (cached)."""
        pre = self.preprocessor
        discount = None if pre.function_words == "none" else self.discount
        return text_bags(text, pre.stem, pre.function_words, self.max_gap, discount)

    def score_batch(self, items: Sequence[tuple[Sequence[str], str]]) -> list[TeslaSScore]:
        texts: dict[str, int] = {}
        pairs: list[tuple[int, int]] = []  # (candidate text id, reference text id)
        owners: list[int] = []
        for k, (refs, cand) in enumerate(items):
            c = texts.setdefault(cand, len(texts))
            for ref in refs:
                pairs.append((c, texts.setdefault(ref, len(texts))))
                owners.append(k)
        if not pairs:
            raise ValueError("every item needs at least one reference summary")
        bags = [self.bags(t) for t in texts]
        cand_idx, ref_idx = (np.array(a) for a in zip(*pairs))
        per_pair = [self._pair_prf([b[part] for b in bags], cand_idx, ref_idx) for part in (0, 1)]
        headline = (per_pair[0][2] + per_pair[1][2]) / 2
        return self._per_item(len(items), np.array(owners), per_pair, headline)

    def _pair_prf(self, bags: list[Bag], cand_idx: np.ndarray, ref_idx: np.ndarray):
        """Precision, recall and F for every (candidate, reference) pair of one n-gram kind."""
        matrix = _bag_matrix(bags)
        totals = np.asarray(matrix.sum(axis=1)).ravel()
        overlap = np.asarray(matrix[cand_idx].minimum(matrix[ref_idx]).sum(axis=1)).ravel()
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(totals[cand_idx] > 0, overlap / totals[cand_idx], 0.0)
            r = np.where(totals[ref_idx] > 0, overlap / totals[ref_idx], 0.0)
            f = np.where(overlap > 0, p * r / (self.alpha * p + (1 - self.alpha) * r), 0.0)
        return p, r, f

    def _per_item(self, n_items: int, owners: np.ndarray, per_pair, headline: np.ndarray) -> list[TeslaSScore]:
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
            out.append(TeslaSScore(precision=(pick(up) + pick(bp)) / 2, recall=(pick(ur) + pick(br)) / 2,
                                   f=f, value=f, unigram_f=pick(uf), skip_bigram_f=pick(bf)))
        return out


def _bag_matrix(bags: list[Bag]) -> csr_matrix:
    """Rows = bags, columns = n-grams, values = weights (one shared vocabulary)."""
    vocab: dict[tuple[str, ...], int] = {}
    indptr, indices, data = [0], [], []
    for bag in bags:
        for gram, weight in bag.items():
            indices.append(vocab.setdefault(gram, len(vocab)))
            data.append(weight)
        indptr.append(len(indices))
    return csr_matrix((np.array(data, dtype=float), np.array(indices, dtype=np.int64), np.array(indptr)),
                      shape=(len(bags), max(len(vocab), 1)))
