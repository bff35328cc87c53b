"""The readability model: standardised features -> a linear pairwise ranker.

People judge the summaries of one input against each other, and the judged sets differ in scale
and genre, so the model learns from preferences inside each input (pairs of texts of the same
input whose human scores differ by at least ``min_gap`` standard deviations): a logistic
regression without intercept on the feature differences (scikit-learn), every judged set weighted
equally. Features are standardised with the training mean and standard deviation; a missing
feature (NaN: a transition in a one-sentence text) is read as the training mean (0 once
standardised), and a standardised value is clipped to +-:data:`CLIP` SDs, so one extreme count (a
text of pronouns only) cannot outweigh every other question. The score of a text is w . z, higher = reads better."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from coherence.readability.features import NAMES
from evalcore.learn.groups import z_within
from evalcore.learn.ranking import preference_pairs

#: standardised features are clipped to this many SDs either side of the training mean
CLIP = 3.0


class ReadabilityModel(BaseEstimator):
    """Pairwise ranker over the named ``features`` (a subset of
    :data:`~coherence.readability.features.NAMES`, in that order); ``C``: inverse L2 strength;
    ``min_gap``: the smallest human-score difference (in SDs of its set) a training pair has."""

    def __init__(self, features: Sequence[str] = NAMES, C: float = 1.0, min_gap: float = 0.0, seed: int = 0):
        self.features = tuple(features)
        self.C = C
        self.min_gap = min_gap
        self.seed = seed

    def _columns(self) -> list[int]:
        unknown = [f for f in self.features if f not in NAMES]
        if unknown:
            raise ValueError(f"unknown readability features {unknown}; known: {', '.join(NAMES)}")
        return [NAMES.index(f) for f in self.features]

    def _z_columns(self, X: np.ndarray) -> np.ndarray:
        """:meth:`_z` of rows that hold the model's columns only."""
        z = (X - self.mean_) / self.scale_
        return np.clip(np.where(np.isnan(z), 0.0, z), -CLIP, CLIP)

    def _z(self, X) -> np.ndarray:
        """Standardised, clipped values of the model's features in rows of all of NAMES."""
        return self._z_columns(np.asarray(X, float)[:, self._columns()])

    def fit(self, X, y, groups, sets):
        """Learn from the rows ``X`` (all of NAMES) of texts with human scores ``y`` (standardised
        within each judged set here), grouped by input ``groups`` within judged ``sets``."""
        X = np.asarray(X, float)[:, self._columns()]
        self.mean_ = np.nanmean(X, axis=0)
        scale = np.nanstd(X, axis=0)
        self.scale_ = np.where(scale > 0, scale, 1.0)
        sets = np.asarray(sets)
        z_y = z_within(y, sets)
        keys = np.array([f"{s}\x1f{g}" for s, g in zip(sets, groups)])
        better, worse = preference_pairs(z_y, keys)
        keep = z_y[better] - z_y[worse] >= self.min_gap
        better, worse = better[keep], worse[keep]
        if not len(better):
            raise ValueError("no training pairs: no input has texts whose human scores differ enough")
        z = self._z_columns(X)
        d = z[better] - z[worse]
        rng = np.random.default_rng(self.seed)
        sign = np.where(rng.random(len(d)) < 0.5, -1, 1)
        pair_sets = sets[better]
        weight = np.zeros(len(d))
        for s in np.unique(pair_sets):  # every judged set weighs the same, whatever its number of pairs
            m = pair_sets == s
            weight[m] = len(d) / (m.sum() * len(np.unique(pair_sets)))
        ranker = LogisticRegression(C=self.C, fit_intercept=False, max_iter=5000)
        ranker.fit(d * sign[:, None], sign, sample_weight=weight)
        self.coef_ = ranker.coef_.ravel().copy()
        self.n_pairs_ = int(len(d))
        return self

    def decision_function(self, X) -> np.ndarray:
        """The readability score w . z of each row of ``X`` (all of NAMES)."""
        check_is_fitted(self, "coef_")
        return self._z(X) @ self.coef_

    def worst(self) -> np.ndarray:
        """Each feature's share of the lowest score the model can give (every standardised feature
        at the clip on its bad side): what a text with nothing to read gets."""
        check_is_fitted(self, "coef_")
        return -CLIP * np.abs(self.coef_)

    def weights(self) -> dict[str, float]:
        """Feature name -> weight on its standardised value (what the model leans on)."""
        check_is_fitted(self, "coef_")
        return dict(zip(self.features, self.coef_.tolist()))
