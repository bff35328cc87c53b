"""The trainable DICOMER model: variant features -> DictVectorizer -> RankSVM -> score.

Two training modes share this estimator (spec 5.2): ``listwise`` (one group per document or
topic, labels = human scores, pairs only between different scores) and ``permutation``
(a group per source text: the original labelled 1, its seeded sentence permutations 0).
The shifted log of the score, log(score - m + eps) with m the minimum training prediction,
is the paper's transform for Pearson. A text with an empty feature vector (empty, or no transitions
and no one-sentence indicator) has no evidence either way and scores the median training
prediction, not w . 0 = 0.0, which ranks above most real texts. Variants with ``neutral`` leave
such texts out of training too (they carry no evidence; as zero vectors they would pull the ranker).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_extraction import DictVectorizer
from sklearn.utils.validation import check_is_fitted

from coherence.dicomer.analysis import Analysis
from coherence.dicomer.config import variant_config
from coherence.dicomer.features import batch_features
from coherence.parser.vectors import rows
from evalcore.learn.ranking import RankSVM

LOG_EPS_FRACTION = 1e-3  # eps of the shifted log, as a share of the training score range


class DicomerModel(BaseEstimator):
    """Ranker over the features of a named variant (``LIN``, ``LIN+C``, ``LIN+E``, ``DICOMER``,
    ablations, ``EGRID``); ``fit`` and ``decision_function`` take :class:`Analysis` objects."""

    def __init__(self, variant: str = "DICOMER", C="svmlight", seed: int = 0):
        self.variant = variant
        self.C = C
        self.seed = seed

    def features(self, analyses: Sequence[Analysis]) -> list[dict[str, float]]:
        """The variant's feature dict of each analysed text (the batch counted in one pass)."""
        return batch_features(analyses, variant_config(self.variant))

    def fit(self, analyses: Sequence[Analysis], y, groups, features: Sequence[dict] | None = None):
        """Train on analysed texts with labels ``y`` within ``groups``; ``features`` may pass
        precomputed :meth:`features` output to avoid recomputing it."""
        feats = list(features) if features is not None else self.features(analyses)
        y, groups = np.asarray(y), np.asarray(groups)
        if variant_config(self.variant).neutral:
            keep = np.array([bool(f) for f in feats], bool)
            if not keep.any():
                raise ValueError("no training text has discourse structure to judge (all have fewer than "
                                 "two sentences or no relation)")
            feats, y, groups = [f for f, k in zip(feats, keep) if k], y[keep], groups[keep]
        self.vectorizer_ = DictVectorizer(sort=True)
        X = self.vectorizer_.fit_transform(feats)
        self.ranker_ = RankSVM(C=self.C, seed=self.seed).fit(X, y, groups)
        train = self.ranker_.decision_function(X)
        self.shift_ = float(train.min())
        self.neutral_score_ = float(np.median(train))
        self.eps_ = float(max(train.max() - train.min(), 1e-12) * LOG_EPS_FRACTION)
        return self

    def decision_function(self, analyses: Sequence[Analysis] = (),
                          features: Sequence[dict] | None = None) -> np.ndarray:
        """Ranking score w . x of each text; texts without features get ``neutral_score_``."""
        check_is_fitted(self, "ranker_")
        feats = list(features) if features is not None else self.features(analyses)
        if not feats:
            return np.zeros(0)
        scores = self.ranker_.decision_function(rows(self.vectorizer_, feats))  # DictVectorizer's matrix
        return np.where([not f for f in feats], self.neutral_score_, scores)

    def log_score(self, scores) -> np.ndarray:
        """log(score - m + eps), clipped below at log(eps): the paper's transform for Pearson."""
        check_is_fitted(self, "shift_")
        return np.log(np.maximum(np.asarray(scores, dtype=float) - self.shift_ + self.eps_, self.eps_))


def permutation_training_set(originals: Sequence[Analysis], permuted: Sequence[Sequence[Analysis]]
                             ) -> tuple[list[Analysis], np.ndarray, np.ndarray]:
    """Flatten originals (label 1) and their permutations (label 0), one group per original;
    texts without permutations (fewer than two sentences) are left out."""
    texts, labels, groups = [], [], []
    for g, (orig, perms) in enumerate(zip(originals, permuted)):
        if not perms:
            continue
        texts.extend([orig, *perms])
        labels.extend([1.0] + [0.0] * len(perms))
        groups.extend([g] * (len(perms) + 1))
    return texts, np.asarray(labels), np.asarray(groups)
