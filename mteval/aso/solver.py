"""Many binary linear problems at once under the modified Huber loss (Liu & Ng 2007, eq. 1-2), with
an L2 penalty on a chosen subset of coefficients only: the solver both the plain linear classifier
and ASO's structured problems (u = w + Theta^T v, only w penalised) need.

Why not scikit-learn's ``SGDClassifier(loss="modified_huber")``: it has the same loss, but it
penalises every coefficient alike, while ASO's step 4 (eq. 5) must leave v unpenalised, and it
is stochastic (its answer depends on the epoch count and the seed). The objective here is convex
with a Lipschitz gradient, so the problems are solved together, vectorised over problems (one
sparse product per evaluation), by scipy's L-BFGS from zero: deterministic, no seed needed.
BLAS runs single-threaded inside: L-BFGS-B's many tiny dense steps were ~20x slower with
OpenBLAS threads on a loaded 2-core machine, and one thread keeps the results bit-identical.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits


def modified_huber(margin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Loss L and its derivative dL/dz at z = p * y (eq. 2): -4z for z < -1, (1 - z)^2 for
    -1 <= z < 1, 0 from 1 on."""
    z = np.asarray(margin, dtype=float)
    quadratic = (z >= -1.0) & (z < 1.0)
    loss = np.where(z < -1.0, -4.0 * z, np.where(quadratic, (1.0 - z) ** 2, 0.0))
    slope = np.where(z < -1.0, -4.0, np.where(quadratic, -2.0 * (1.0 - z), 0.0))
    return loss, slope


@dataclass(frozen=True)
class LinearFit:
    """Solution of :func:`fit_problems`: ``coef`` (features x problems), ``intercept`` (problems),
    whether L-BFGS converged, its iteration count and the final objective."""

    coef: np.ndarray
    intercept: np.ndarray
    converged: bool
    n_iter: int
    objective: float


def objective(X, Y: np.ndarray, alpha: float, penalised: np.ndarray | None = None,
              fit_intercept: bool = True) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """The summed objective of every column l of ``Y`` (labels in {-1, +1}; 0 = the row is not an
    example of problem l): (1/n_l) sum_i L(x_i . u_l + b_l, y_il) + alpha * |u_l on penalised|^2,
    as a function of the flattened (features + 1) x problems parameters (intercepts last) that
    returns value and gradient. ``penalised`` masks the features (None: all); the intercept is
    never penalised."""
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2 or Y.shape[0] != X.shape[0]:
        raise ValueError(f"Y must be (samples x problems) with {X.shape[0]} rows, got shape {Y.shape}")
    if not np.isin(Y, (-1.0, 0.0, 1.0)).all():
        raise ValueError("labels must be -1, +1 or 0 (not an example of that problem)")
    n_examples = (Y != 0).sum(axis=0)
    if (n_examples == 0).any():
        raise ValueError(f"problem {int(np.flatnonzero(n_examples == 0)[0])} has no examples")
    if alpha < 0:
        raise ValueError(f"alpha must be >= 0, got {alpha}")
    X = X.tocsr() if sp.issparse(X) else np.asarray(X, dtype=float)
    n_features, n_problems = X.shape[1], Y.shape[1]
    penalty = alpha * (np.ones(n_features) if penalised is None else np.asarray(penalised, dtype=float))
    weight = (Y != 0) / n_examples  # the 1/n_l of each problem, 0 where a row is not its example
    XT = X.T.tocsr() if sp.issparse(X) else X.T

    def value_and_gradient(flat: np.ndarray) -> tuple[float, np.ndarray]:
        params = flat.reshape(n_features + 1, n_problems)
        coef, intercept = params[:-1], params[-1] if fit_intercept else 0.0
        loss, slope = modified_huber((X @ coef + intercept) * Y)
        g = weight * slope * Y
        grad = np.empty_like(params)
        grad[:-1] = XT @ g + 2.0 * penalty[:, None] * coef
        grad[-1] = g.sum(axis=0) if fit_intercept else 0.0
        value = float((weight * loss).sum() + (penalty[:, None] * coef * coef).sum())
        return value, grad.ravel()

    return value_and_gradient


def fit_problems(X, Y: np.ndarray, alpha: float, penalised: np.ndarray | None = None,
                 fit_intercept: bool = True, max_iter: int = 2000, tol: float = 1e-6) -> LinearFit:
    """Minimise :func:`objective` for every problem of ``Y`` on ``X`` (dense or scipy-sparse,
    n x p) from zero; returns a :class:`LinearFit`."""
    function = objective(X, Y, alpha, penalised, fit_intercept)
    n_features, n_problems = X.shape[1], np.shape(Y)[1]
    start = np.zeros((n_features + 1) * n_problems)
    with threadpool_limits(limits=1, user_api="blas"):  # see the module docstring
        result = minimize(function, start, jac=True, method="L-BFGS-B",
                          options={"maxiter": max_iter, "gtol": tol, "ftol": 1e-12, "maxcor": 20})
    params = result.x.reshape(n_features + 1, n_problems)
    return LinearFit(params[:-1].copy(), params[-1].copy(), bool(result.success), int(result.nit), float(result.fun))
