"""Learning a metric from human rankings, shared by TESLA-F (RankSVM) and BEER (logistic
regression): cross-validation with folds grouped by segment, the pairwise-difference data set
of the rankings, and BEER's logistic-regression ranker.

Folds group by segment (``srcIndex``): newstest2012 is multi-parallel, so a segment shares its
English reference across pairs, and no reference is seen in both a training and a test fold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from mteval.data.wmt12 import Ranking
from mteval.learn.model import LinearModel

HypKey = tuple[str, int, str]  # (pair, 1-based segment, system)


class Scorer(Protocol):
    def raw(self, X: np.ndarray) -> np.ndarray: ...


def segment_folds(keys: Sequence[HypKey], folds: int, seed: int) -> dict[int, int]:
    """Segment -> fold: a seeded permutation of the sorted segments dealt round-robin."""
    segments = sorted({k[1] for k in keys})
    order = np.random.default_rng(seed).permutation(len(segments))
    return {segments[i]: k % folds for k, i in enumerate(order)}


def cross_validated(X: np.ndarray, keys: Sequence[HypKey], rankings: Sequence[Ranking],
                    fit: Callable[[Sequence[Ranking]], Scorer], folds: int = 5, seed: int = 0) -> np.ndarray:
    """Out-of-fold raw scores of every output (rows of ``X``, named by ``keys``): each fold's
    outputs are scored by ``fit`` (a model) on the rankings of the other folds' segments."""
    fold_of = segment_folds(keys, folds, seed)
    key_fold = np.array([fold_of[k[1]] for k in keys])
    out = np.full(len(keys), np.nan)
    for f in range(folds):
        model = fit([r for r in rankings if fold_of[r.segment] != f])
        test = key_fold == f
        out[test] = model.raw(X[test])
    return out


def preference_pairs(rankings: Sequence[Ranking], index: dict[HypKey, int]) -> tuple[np.ndarray, np.ndarray]:
    """(better rows, worse rows): every pair of outputs one ranking orders (ties left out)."""
    better, worse = [], []
    for r in rankings:
        rows = [index[(r.pair, r.segment, s)] for s in r.systems]
        for a in range(len(rows)):
            for b in range(len(rows)):
                if r.ranks[a] < r.ranks[b]:  # rank 1 is best
                    better.append(rows[a])
                    worse.append(rows[b])
    return np.array(better, dtype=int), np.array(worse, dtype=int)


def fit_logistic(X: np.ndarray, rankings: Sequence[Ranking], index: dict[HypKey, int], names: Sequence[str],
                 C: float = 1.0, seed: int = 0) -> LinearModel:
    """BEER's learner (paper §2): x_good - x_bad is a positive, x_bad - x_good a negative example
    of a logistic regression without intercept (scikit-learn; the paper used Weka's); features
    are scaled by the spread of the differences and the scaling folded back into the weights."""
    from sklearn.linear_model import LogisticRegression

    better, worse = preference_pairs(rankings, index)
    if not len(better):
        raise ValueError("no ranking orders two outputs: nothing to learn from")
    diff = X[better] - X[worse]
    scale = np.sqrt((diff ** 2).mean(axis=0))
    scale = np.where(scale > 0, scale, 1.0)
    D = np.vstack([diff, -diff]) / scale
    y = np.concatenate([np.ones(len(diff)), np.zeros(len(diff))])
    clf = LogisticRegression(C=C, fit_intercept=False, max_iter=2000, random_state=seed).fit(D, y)
    return LinearModel(tuple(names), clf.coef_[0] / scale, 0.0)
