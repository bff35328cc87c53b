"""ASO (Alternating Structure Optimization, Ando & Zhang 2005) as Liu & Ng (ACL 2007, section 3)
use it, as a scikit-learn classifier: learn the auxiliary problems' linear predictors, take the
SVD of their stacked weights U = V1 D V2^T, keep the first h left singular vectors as the rows
of the shared structure Theta, then learn every target problem as u = w + Theta^T v on the
features [x, Theta x], penalising only w (eq. 5-6).

Loss and penalty are the paper's: the modified Huber loss, lambda |w|^2 with lambda = 1e-4
(``alpha``). Problems are one-vs-all; the solver is :func:`mteval.aso.solver.fit_problems`
(deterministic Newton-CG, so no ``random_state``: see that module for why not ``SGDClassifier``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from mteval.aso.solver import LinearFit, fit_problems


def _augment(X, theta: np.ndarray):
    """[X, X Theta^T] (sparse stays sparse) and the penalty mask that frees the Theta columns."""
    projected = np.asarray(X @ theta.T)
    Z = sp.hstack([X, sp.csr_matrix(projected)]).tocsr() if sp.issparse(X) else np.hstack([X, projected])
    mask = np.concatenate([np.ones(X.shape[1], dtype=bool), np.zeros(theta.shape[0], dtype=bool)])
    return Z, mask


def _structured_fit(X, Y: np.ndarray, theta: np.ndarray, alpha: float, **solver) -> LinearFit:
    """Eq. (5): every problem of Y as u = w + Theta^T v, only w penalised; returns u (eq. 6)."""
    if theta.shape[0] == 0:
        return fit_problems(X, Y, alpha, **solver)
    Z, mask = _augment(X, theta)
    fit = fit_problems(Z, Y, alpha, penalised=mask, **solver)
    p = X.shape[1]
    coef = fit.coef[:p] + theta.T @ fit.coef[p:]
    return LinearFit(coef, fit.intercept, fit.converged, fit.n_iter, fit.objective)


def learn_structure(X, Y: np.ndarray, n_components: int, alpha: float = 1e-4, n_iter: int = 1,
                    **solver) -> tuple[np.ndarray, np.ndarray]:
    """Theta (n_components x features, orthonormal rows) and the singular values of U from the
    auxiliary problems ``Y`` (columns in {-1, 0, +1}, 0 = not an example) on ``X``.

    ``n_iter = 1`` is the paper's one-round approximation (section 3.2 steps 1-3); each further
    round is Ando & Zhang's alternation: refit the auxiliary problems as w + Theta^T v with this
    Theta, and take Theta again from the SVD of their u = w + Theta^T v."""
    if n_iter < 1:
        raise ValueError(f"n_iter must be at least 1, got {n_iter}")
    theta = np.zeros((0, X.shape[1]))
    singular = np.zeros(0)
    for _ in range(n_iter):
        U = _structured_fit(X, Y, theta, alpha, **solver).coef
        left, singular, _ = np.linalg.svd(U, full_matrices=False)
        theta = left[:, :n_components].T.copy()
    return theta, singular


def _labels(y_index: np.ndarray, n_classes: int) -> np.ndarray:
    """One-vs-all labels in {-1, +1}: one column for a binary target, one per class otherwise."""
    if n_classes == 2:
        return np.where(y_index == 1, 1.0, -1.0)[:, None]
    return np.where(y_index[:, None] == np.arange(n_classes)[None, :], 1.0, -1.0)


class ASOClassifier(ClassifierMixin, BaseEstimator):
    """One-vs-all linear classifier with ASO's shared structure Theta.

    Parameters: ``n_components`` h (None: as many as auxiliary problems, the paper's h = 20 of 20;
    0: no structure, i.e. the plain linear classifier of eq. 1), ``alpha`` lambda, ``n_iter`` ASO
    rounds, ``target_auxiliary`` whether the target problems are also auxiliary problems (the
    paper's "unobservable" choice), ``fit_intercept`` (an unpenalised bias; the paper has none),
    ``max_iter``/``tol`` (relative step) of Newton-CG. ``fit(X, y, auxiliary_X=None, auxiliary_Y=None)`` takes further
    auxiliary problems on their own examples (``auxiliary_Y`` in {-1, 0, +1}, 0 = not an example).

    Learned: ``classes_``, ``coef_`` (problems x features, u = w + Theta^T v), ``intercept_``,
    ``theta_`` (h x features), ``singular_values_`` of U, ``n_components_``, ``n_auxiliary_``,
    ``converged_``, ``n_iter_`` (Newton iterations of the target fit), ``n_features_in_``."""

    def __init__(self, n_components: int | None = None, alpha: float = 1e-4, n_iter: int = 1,
                 target_auxiliary: bool = True, fit_intercept: bool = True, max_iter: int = 200,
                 tol: float = 1e-8):
        self.n_components = n_components
        self.alpha = alpha
        self.n_iter = n_iter
        self.target_auxiliary = target_auxiliary
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _auxiliary(self, X, Y_target: np.ndarray, auxiliary_X, auxiliary_Y):
        """The auxiliary problems' examples and labels, target problems first when they are used."""
        blocks = []
        if self.target_auxiliary:
            blocks.append((X, Y_target))
        if auxiliary_Y is not None:
            if auxiliary_X is None:
                raise ValueError("auxiliary_Y needs auxiliary_X (the auxiliary problems' examples)")
            aux_X = validate_data(self, auxiliary_X, accept_sparse="csr", reset=False)
            aux_Y = np.asarray(auxiliary_Y, dtype=float)
            aux_Y = aux_Y[:, None] if aux_Y.ndim == 1 else aux_Y
            if aux_Y.shape[0] != aux_X.shape[0]:
                raise ValueError(f"auxiliary_X has {aux_X.shape[0]} rows, auxiliary_Y {aux_Y.shape[0]}")
            blocks.append((aux_X, aux_Y))
        if not blocks:
            return None, None
        rows = sp.vstack if any(sp.issparse(b[0]) for b in blocks) else np.vstack
        Xs = rows([b[0] for b in blocks])
        Ys = np.zeros((Xs.shape[0], sum(b[1].shape[1] for b in blocks)))
        r = c = 0
        for bx, by in blocks:
            Ys[r:r + bx.shape[0], c:c + by.shape[1]] = by
            r, c = r + bx.shape[0], c + by.shape[1]
        return (Xs.tocsr() if sp.issparse(Xs) else Xs), Ys

    def fit(self, X, y, auxiliary_X=None, auxiliary_Y=None):
        """Learn Theta from the auxiliary problems, then the target problems on [x, Theta x]."""
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"ASOClassifier needs samples of at least 2 classes, got 1 class: {self.classes_[0]!r}")
        Y = _labels(y_index, len(self.classes_))
        solver = {"fit_intercept": self.fit_intercept, "max_iter": self.max_iter, "tol": self.tol}
        aux_X, aux_Y = self._auxiliary(X, Y, auxiliary_X, auxiliary_Y)
        self.n_auxiliary_ = 0 if aux_Y is None else int(aux_Y.shape[1])
        limit = min(self.n_auxiliary_, X.shape[1])
        h = limit if self.n_components is None else min(int(self.n_components), limit)
        if h < 0:
            raise ValueError(f"n_components must be >= 0 or None, got {self.n_components}")
        if h > 0:
            self.theta_, self.singular_values_ = learn_structure(aux_X, aux_Y, h, self.alpha, self.n_iter, **solver)
        else:
            self.theta_, self.singular_values_ = np.zeros((0, X.shape[1])), np.zeros(0)
        self.n_components_ = int(self.theta_.shape[0])
        fit = _structured_fit(X, Y, self.theta_, self.alpha, **solver)
        self.coef_, self.intercept_ = fit.coef.T.copy(), fit.intercept.copy()
        self.converged_, self.n_iter_ = fit.converged, fit.n_iter
        return self

    def decision_function(self, X) -> np.ndarray:
        """u . x + b per problem: a vector for a binary target, (samples x classes) otherwise."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse="csr", reset=False)
        scores = np.asarray(X @ self.coef_.T) + self.intercept_
        return scores.ravel() if len(self.classes_) == 2 else scores

    def predict(self, X) -> np.ndarray:
        """The class of the highest one-vs-all score (binary: the sign)."""
        scores = self.decision_function(X)
        index = (scores > 0).astype(int) if scores.ndim == 1 else scores.argmax(axis=1)
        return self.classes_[index]
