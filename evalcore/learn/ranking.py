"""Pairwise preference ranking (RankSVM) as a scikit-learn estimator (spec 5.2).

For every pair of items in the same group with different labels, d = x_better - x_worse; a
seeded random half of the pairs is flipped (label -1) and a linear hinge-loss SVM without
intercept is trained on them: the objective of SVMlight's preference-ranking mode. The score of
an item is w . x. SVMlight's default C is 1 / mean(d . d) over the training pairs.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted


def preference_pairs(y, groups) -> tuple[np.ndarray, np.ndarray]:
    """Indices (better, worse) of all within-group pairs with different labels."""
    y = np.asarray(y, dtype=float)
    groups = np.asarray(groups)
    better, worse = [], []
    for g in dict.fromkeys(groups.tolist()):
        idx = np.flatnonzero(groups == g)
        i, j = np.triu_indices(len(idx), k=1)
        a, b = idx[i], idx[j]
        diff = y[a] - y[b]
        keep = diff != 0
        a, b, diff = a[keep], b[keep], diff[keep]
        better.append(np.where(diff > 0, a, b))
        worse.append(np.where(diff > 0, b, a))
    if not better:
        return np.zeros(0, dtype=int), np.zeros(0, dtype=int)
    return np.concatenate(better).astype(int), np.concatenate(worse).astype(int)


def _squared_norms(d: np.ndarray | sp.csr_matrix) -> np.ndarray:
    return np.asarray(d.multiply(d).sum(axis=1)).ravel() if sp.issparse(d) else (d * d).sum(axis=1)


def _rows(X) -> np.ndarray | sp.csr_matrix:
    """``X`` as a float array, or as CSR when it is sparse, for taking rows by index."""
    if sp.issparse(X):
        return sp.csr_matrix(X)  # type: ignore[call-overload]  # stubs: issparse gives SparseABC, no methods
    return np.asarray(X, dtype=float)


class RankSVM(BaseEstimator):
    """Linear pairwise ranker; ``C="svmlight"`` uses SVMlight's default 1 / mean(d . d)."""

    def __init__(self, C="svmlight", seed: int = 0, max_iter: int = 20000, tol: float = 1e-4):
        self.C = C
        self.seed = seed
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X, y, groups):
        """Learn w from the preference pairs of (X, y) within ``groups``; returns self."""
        A = _rows(X)
        if A.shape[0] != len(y) or len(y) != len(groups):
            raise ValueError(f"X has {A.shape[0]} rows, y {len(y)}, groups {len(groups)}")
        better, worse = preference_pairs(y, groups)
        if len(better) == 0:
            raise ValueError("no training pairs: every group has a single label value")
        d: np.ndarray | sp.csr_matrix = A[better] - A[worse]
        norms = _squared_norms(d)
        if self.C == "svmlight":
            mean = float(norms.mean())
            self.C_ = 1.0 / mean if mean > 0 else 1.0
        else:
            self.C_ = float(self.C)
        rng = np.random.default_rng(self.seed)
        sign = np.where(rng.random(len(better)) < 0.5, -1.0, 1.0)
        d = (sp.diags(sign) @ d).tocsr() if sp.issparse(d) else d * sign[:, None]
        if np.all(sign == sign[0]):
            # one class only (e.g. a single pair): add the mirrored pair, an identical hinge term
            d = sp.vstack([d, -d[:1]]).tocsr() if sp.issparse(d) else np.vstack([d, -d[:1]])
            sign = np.append(sign, -sign[0])
        svm = LinearSVC(loss="hinge", fit_intercept=False, C=self.C_, dual=True,
                        max_iter=self.max_iter, tol=self.tol, random_state=self.seed)
        svm.fit(d, sign)
        self.coef_ = svm.coef_.ravel().copy()
        self.n_pairs_ = int(len(better))
        self.n_features_in_ = int(A.shape[1])
        self.converged_ = bool(svm.n_iter_ < self.max_iter)
        return self

    def decision_function(self, X) -> np.ndarray:
        """Ranking score w . x of every row."""
        check_is_fitted(self, "coef_")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, the model {self.n_features_in_}")
        return np.asarray(X @ self.coef_).ravel()

    def score(self, X, y, groups) -> float:
        """Pairwise accuracy: share of within-group preference pairs ordered correctly (ties = 0.5)."""
        better, worse = preference_pairs(y, groups)
        s = self.decision_function(X)
        diff = s[better] - s[worse]
        return float(np.mean((diff > 0) + 0.5 * (diff == 0))) if len(diff) else float("nan")
