"""ASO (Alternating Structure Optimization, Ando & Zhang 2005) as Liu & Ng (ACL 2007, section 3)
use it, as a scikit-learn classifier: learn the auxiliary problems' linear predictors, take the
SVD of their stacked weights U = V1 D V2^T, keep the first h left singular vectors as the rows
of the shared structure Theta, then learn every target problem as u = w + Theta^T v on the
features [x, Theta x], penalising only w (eq. 5-6).

Loss and penalty are the paper's: the modified Huber loss, lambda |w|^2 with lambda = 1e-4
(``alpha``; ``"cv"`` chooses it from :data:`ALPHA_GRID` by an inner cross-validation, as h can be).
Problems are one-vs-all; the solver is :func:`benchmarks.mteval.aso.solver.fit_problems`
(deterministic Newton-CG, so no ``random_state``: see that module for why not ``SGDClassifier``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from benchmarks.mteval.aso.solver import Design, LinearFit, fit_problems, one_blas_thread


def _augment(X, theta: np.ndarray):
    """[X, X Theta^T] (sparse stays sparse) and the penalty mask that frees the Theta columns."""
    projected = np.asarray(X @ theta.T)
    Z: Design
    if sp.issparse(X):
        blocks = [X, sp.csr_matrix(projected)]
        Z = sp.hstack(blocks).tocsr()  # type: ignore[arg-type]  # stubs: issparse gives SparseABC, no methods
    else:
        Z = np.hstack([X, projected])
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


def auxiliary_weights(X, Y: np.ndarray, alpha: float = 1e-4, **solver) -> np.ndarray:
    """Step 1-2 of the paper's section 3.2: U = [u_1 ... u_m] (features x problems), each u_l
    learnt by eq. (1) on the rows that are its examples (``Y`` in {-1, 0, +1}, 0 = not an example).
    The problems are independent, so U of a stack of problem sets is the stack of their U's."""
    return fit_problems(X, Y, alpha, **solver).coef


@one_blas_thread
def structure_from(U: np.ndarray, n_components: int) -> tuple[np.ndarray, np.ndarray]:
    """Step 3: Theta = the first ``n_components`` left singular vectors of U as rows (orthonormal),
    and U's singular values."""
    left, singular, _ = np.linalg.svd(U, full_matrices=False)
    return left[:, :n_components].T.copy(), singular


def learn_structure(X, Y: np.ndarray, n_components: int, alpha: float = 1e-4, n_iter: int = 1,
                    **solver) -> tuple[np.ndarray, np.ndarray]:
    """Theta (n_components x features, orthonormal rows) and the singular values of U from the
    auxiliary problems ``Y`` (columns in {-1, 0, +1}, 0 = not an example) on ``X``.

    ``n_iter = 1`` is the paper's one-round approximation (section 3.2 steps 1-3); each further
    round is Ando & Zhang's alternation: refit the auxiliary problems as w + Theta^T v with this
    Theta, and take Theta again from the SVD of their u = w + Theta^T v."""
    if n_iter < 1:
        raise ValueError(f"n_iter must be at least 1, got {n_iter}")
    theta, singular = structure_from(auxiliary_weights(X, Y, alpha, **solver), n_components)
    for _ in range(n_iter - 1):
        theta, singular = structure_from(_structured_fit(X, Y, theta, alpha, **solver).coef, n_components)
    return theta, singular


def _labels(y_index: np.ndarray, n_classes: int) -> np.ndarray:
    """One-vs-all labels in {-1, +1}: one column for a binary target, one per class otherwise."""
    if n_classes == 2:
        return np.where(y_index == 1, 1.0, -1.0)[:, None]
    return np.where(y_index[:, None] == np.arange(n_classes)[None, :], 1.0, -1.0)


#: the h tried by ``n_components="cv"``; None is all of them (the paper's choice, h = m)
H_GRID = (2, 4, 8, 16, None)
#: the lambda tried by ``alpha="cv"``: the paper's 1e-4 and three decades stronger (the loss is a
#: mean over examples, so 1e-1 already outweighs it for most weights)
ALPHA_GRID = (1e-4, 1e-3, 1e-2, 1e-1)
#: Newton-CG step tolerance of the inner fits: only their argmax is used, and with a part of U's
#: span unpenalised (h < m) a tolerance of 1e-8 took up to 100x longer (90 s for one fit)
INNER_TOL = 1e-5


def _stack(blocks: list) -> tuple[Any, np.ndarray]:
    """Rows of several (X, Y) problem sets as one set, each set's problems in its own columns
    (0 = not an example elsewhere)."""
    if any(sp.issparse(b[0]) for b in blocks):
        Xs = sp.vstack([b[0] for b in blocks]).tocsr()
    else:
        Xs = np.vstack([b[0] for b in blocks])
    Ys = np.zeros((Xs.shape[0], sum(b[1].shape[1] for b in blocks)))
    r = c = 0
    for bx, by in blocks:
        Ys[r:r + bx.shape[0], c:c + by.shape[1]] = by
        r, c = r + bx.shape[0], c + by.shape[1]
    return Xs, Ys


class ASOClassifier(ClassifierMixin, BaseEstimator):
    """One-vs-all linear classifier with ASO's shared structure Theta.

    Parameters: ``n_components`` h (None: as many as auxiliary problems, the paper's h = 20 of 20;
    0: no structure, i.e. the plain linear classifier of eq. 1; ``"cv"``: the h of ``h_grid``
    with the best accuracy in a ``cv``-fold cross-validation inside the training data, grouped
    by ``fit``'s ``groups``), ``alpha`` lambda (``"cv"``: the lambda of ``alpha_grid`` with the best
    accuracy in the same kind of inner cross-validation, for a fixed h), ``n_iter`` ASO rounds, ``target_auxiliary``
    whether the target problems are also auxiliary problems (the paper's "unobservable" choice),
    ``fit_intercept`` (an unpenalised bias; the paper has none), ``max_iter``/``tol`` (relative
    step) of Newton-CG. ``fit(X, y, groups=None, auxiliary_X=None, auxiliary_Y=None)`` takes
    further auxiliary problems on their own examples (``auxiliary_Y`` in {-1, 0, +1}, 0 = not an
    example).

    Learned: ``classes_``, ``coef_`` (problems x features, u = w + Theta^T v), ``intercept_``,
    ``theta_`` (h x features), ``singular_values_`` of U, ``n_components_``, ``n_auxiliary_``,
    ``cv_scores_`` (h -> inner cross-validated accuracy; empty unless ``"cv"``), ``alpha_`` (lambda
    used), ``alpha_cv_scores_`` (lambda -> inner accuracy; empty unless ``alpha="cv"``), ``converged_``,
    ``n_iter_`` (Newton iterations of the target fit), ``n_features_in_``."""

    def __init__(self, n_components: int | str | None = None, alpha: float | str = 1e-4, n_iter: int = 1,
                 target_auxiliary: bool = True, fit_intercept: bool = True, max_iter: int = 200,
                 tol: float = 1e-8, h_grid: tuple = H_GRID, cv: int = 3, alpha_grid: tuple = ALPHA_GRID):
        self.n_components = n_components
        self.alpha = alpha
        self.n_iter = n_iter
        self.target_auxiliary = target_auxiliary
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.h_grid = h_grid
        self.cv = cv
        self.alpha_grid = alpha_grid

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _external(self, auxiliary_X, auxiliary_Y):
        """The further auxiliary problems as (X, Y), or None."""
        if auxiliary_Y is None:
            return None
        if auxiliary_X is None:
            raise ValueError("auxiliary_Y needs auxiliary_X (the auxiliary problems' examples)")
        aux_X = validate_data(self, auxiliary_X, accept_sparse="csr", reset=False)
        aux_Y = np.asarray(auxiliary_Y, dtype=float)
        aux_Y = aux_Y[:, None] if aux_Y.ndim == 1 else aux_Y
        if aux_Y.shape[0] != aux_X.shape[0]:
            raise ValueError(f"auxiliary_X has {aux_X.shape[0]} rows, auxiliary_Y {aux_Y.shape[0]}")
        return aux_X, aux_Y

    def _structure(self, X, Y: np.ndarray, external, external_U, h: int, solver: dict, alpha: float):
        """Theta and U's singular values from the target problems on (X, Y) when they are
        auxiliary and the external problems (whose one-round U, ``external_U``, is learnt once)."""
        if h == 0:
            return np.zeros((0, X.shape[1])), np.zeros(0)
        if self.n_iter == 1:
            blocks = [auxiliary_weights(X, Y, alpha, **solver)] if self.target_auxiliary else []
            return structure_from(np.hstack(blocks + ([external_U] if external_U is not None else [])), h)
        blocks = ([(X, Y)] if self.target_auxiliary else []) + ([external] if external is not None else [])
        return learn_structure(*_stack(blocks), h, alpha, self.n_iter, **solver)

    def _external_weights(self, external, structured: bool, alpha: float, solver: dict):
        """The one-round U of the further auxiliary problems, learnt once for ``alpha`` when a
        one-round Theta needs it (else None: :meth:`_structure` learns them with the targets)."""
        if not structured or external is None or self.n_iter != 1:
            return None
        external_X, external_Y = external
        return auxiliary_weights(external_X, external_Y, alpha, **solver)

    def _inner_splits(self, X, groups) -> list:
        """The ``cv`` inner (train, held-out) splits of the training data, grouped by ``groups``
        when given; none when there are too few rows or groups."""
        from sklearn.model_selection import GroupKFold, KFold

        if groups is None:
            n_splits = min(self.cv, X.shape[0])
            return list(KFold(n_splits=n_splits).split(X)) if n_splits >= 2 else []
        n_splits = min(self.cv, len(np.unique(groups)))
        return list(GroupKFold(n_splits=n_splits).split(X, groups=groups)) if n_splits >= 2 else []

    @staticmethod
    def _correct(X_held, Y_held: np.ndarray, fit: LinearFit) -> int:
        """How many held-out rows the fitted problems classify right."""
        scores = np.asarray(X_held @ fit.coef) + fit.intercept
        if Y_held.shape[1] > 1:
            return int((scores.argmax(axis=1) == Y_held.argmax(axis=1)).sum())
        return int(((scores[:, 0] > 0) == (Y_held[:, 0] > 0)).sum())

    def _choose_alpha(self, X, Y: np.ndarray, groups, external, h_limit, limit: int,
                      solver: dict) -> dict[float, float]:
        """Inner cross-validated accuracy of every lambda of ``alpha_grid`` with the requested h
        (``h_limit``: None = all, clipped to ``limit``): each inner split learns Theta and the target
        problems with that lambda on its training part only (to ``INNER_TOL``), scored on its held-out part."""
        grid = [float(a) for a in self.alpha_grid]
        if not grid or any(a <= 0 for a in grid):
            raise ValueError(f"alpha_grid must hold positive numbers, got {self.alpha_grid}")
        splits = self._inner_splits(X, groups)
        if not splits:
            return {}
        h = limit if h_limit is None else min(int(h_limit), limit)
        solver = {**solver, "tol": max(solver["tol"], INNER_TOL)}
        correct = np.zeros(len(grid))
        for j, alpha in enumerate(grid):
            external_U = self._external_weights(external, h > 0, alpha, solver)
            for train, held in splits:
                theta, _ = self._structure(X[train], Y[train], external, external_U, h, solver, alpha)
                fit = _structured_fit(X[train], Y[train], theta, alpha, **solver)
                correct[j] += self._correct(X[held], Y[held], fit)
        return {a: float(c / X.shape[0]) for a, c in zip(grid, correct)}

    def _choose_components(self, X, Y: np.ndarray, groups, external, external_U, limit: int,
                           solver: dict) -> dict[int, float]:
        """Inner cross-validated accuracy of every h of ``h_grid`` (clipped to ``limit``): each
        inner split learns Theta (for the largest h; smaller h take its first rows) and the
        target problems on its training part only (to ``INNER_TOL``), and is scored on its held-out part."""
        candidates = sorted({limit if h is None else min(int(h), limit) for h in self.h_grid} - {0})
        if any(h < 0 for h in candidates):
            raise ValueError(f"h_grid must hold positive numbers or None, got {self.h_grid}")
        splits = self._inner_splits(X, groups)
        if not splits or not candidates:
            return {}
        correct = np.zeros(len(candidates))
        solver = {**solver, "tol": max(solver["tol"], INNER_TOL)}
        for train, held in splits:
            theta, _ = self._structure(X[train], Y[train], external, external_U, candidates[-1], solver, self.alpha_)
            for j, h in enumerate(candidates):
                fit = _structured_fit(X[train], Y[train], theta[:h], self.alpha_, **solver)
                correct[j] += self._correct(X[held], Y[held], fit)
        return {h: float(c / X.shape[0]) for h, c in zip(candidates, correct)}

    @one_blas_thread
    def fit(self, X, y, groups=None, auxiliary_X=None, auxiliary_Y=None):
        """Learn Theta from the auxiliary problems, then the target problems on [x, Theta x]."""
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"ASOClassifier needs samples of at least 2 classes, got 1 class: {self.classes_[0]!r}")
        if self.n_components is not None and self.n_components != "cv" and int(self.n_components) < 0:
            raise ValueError(f"n_components must be >= 0, None or 'cv', got {self.n_components}")
        if self.alpha == "cv" and self.n_components == "cv":
            raise ValueError("choose lambda or h by cross-validation, not both (alpha='cv' needs a fixed n_components)")
        if self.alpha != "cv" and not float(self.alpha) > 0:
            raise ValueError(f"alpha must be a positive number or 'cv', got {self.alpha}")
        if groups is not None and len(groups) != X.shape[0]:
            raise ValueError(f"groups has {len(groups)} entries, X {X.shape[0]} rows")
        Y = _labels(y_index, len(self.classes_))
        solver = {"fit_intercept": self.fit_intercept, "max_iter": self.max_iter, "tol": self.tol}
        external = self._external(auxiliary_X, auxiliary_Y)
        self.n_auxiliary_ = ((Y.shape[1] if self.target_auxiliary else 0)
                             + (0 if external is None else external[1].shape[1]))
        limit = min(self.n_auxiliary_, X.shape[1])
        structured = limit > 0 and self.n_components != 0
        self.alpha_cv_scores_ = {}
        if self.alpha == "cv":
            self.alpha_cv_scores_ = self._choose_alpha(X, Y, groups, external, self.n_components if structured else 0,
                                                       limit, solver)
            # ties: the stronger penalty (the simpler model)
            self.alpha_ = (max(self.alpha_cv_scores_, key=lambda a: (self.alpha_cv_scores_[a], a))
                           if self.alpha_cv_scores_ else float(self.alpha_grid[0]))
        else:
            self.alpha_ = float(self.alpha)
        external_U = self._external_weights(external, structured, self.alpha_, solver)
        self.cv_scores_ = {}
        if not structured:
            h = 0
        elif self.n_components is None:
            h = limit
        elif self.n_components == "cv":
            self.cv_scores_ = self._choose_components(X, Y, groups, external, external_U, limit, solver)
            h = max(self.cv_scores_, key=lambda k: (self.cv_scores_[k], -k)) if self.cv_scores_ else limit
        else:
            h = min(int(self.n_components), limit)
        self.theta_, self.singular_values_ = self._structure(X, Y, external, external_U, h, solver, self.alpha_)
        self.n_components_ = int(self.theta_.shape[0])
        fit = _structured_fit(X, Y, self.theta_, self.alpha_, **solver)
        self.coef_, self.intercept_ = fit.coef.T.copy(), fit.intercept.copy()
        self.converged_, self.n_iter_ = fit.converged, fit.n_iter
        return self

    @one_blas_thread
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
