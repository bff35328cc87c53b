"""Many binary linear problems at once under the modified Huber loss (Liu & Ng 2007, eq. 1-2), with
an L2 penalty on a chosen subset of coefficients only: the solver both the plain linear classifier
and ASO's structured problems (u = w + Theta^T v, only w penalised) need.

Why not scikit-learn's ``SGDClassifier(loss="modified_huber")``: it has the same loss, but it
penalises every coefficient alike, while ASO's step 4 (eq. 5) must leave v unpenalised, and it
is stochastic (its answer depends on the epoch count and the seed). The objective here is convex
and twice differentiable almost everywhere (L'' = 2 on the quadratic piece, 0 elsewhere), so the
problems are solved together, vectorised over problems (sparse products of X with a
features x problems matrix), by scipy's Newton-CG with Hessian-vector products from zero, as
liblinear solves the squared hinge: deterministic, no seed needed. On the noun-predicate data
(830 x 3,400 sparse, 24 problems) it took a third of the CPU time of L-BFGS-B, whose own
bookkeeping dominated at 80,000 variables. BLAS runs single-threaded (:func:`one_blas_thread`):
the many small dense steps were ~20x slower with OpenBLAS threads on a loaded 2-core machine, and
a threaded BLAS sums in an order that follows the machine's core count, which flips near-tied
arguments between machines.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

#: the X the solver works on: an array, or CSR (the format ``validate_data(accept_sparse="csr")`` gives)
Design: TypeAlias = np.ndarray | sp.csr_matrix | sp.csr_array

F = TypeVar("F", bound=Callable[..., Any])


def one_blas_thread(func: F) -> F:
    """Run ``func`` with BLAS limited to one thread, so its floats are the same on every core count."""

    @functools.wraps(func)
    def single_threaded(*args: Any, **kwargs: Any) -> Any:
        with threadpool_limits(limits=1, user_api="blas"):
            return func(*args, **kwargs)

    return single_threaded  # type: ignore[return-value]  # same signature, by functools.wraps


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
    whether Newton-CG converged, its iteration count and the final objective."""

    coef: np.ndarray
    intercept: np.ndarray
    converged: bool
    n_iter: int
    objective: float


class Objective:
    """The summed objective of every column l of ``Y`` (labels in {-1, +1}; 0 = the row is not an
    example of problem l): (1/n_l) sum_i L(x_i . u_l + b_l, y_il) + alpha * |u_l on penalised|^2,
    over the flattened (features + 1) x problems parameters (intercepts last). Calling it gives
    value and gradient; :meth:`hessp` the (generalised) Hessian times a vector, for Newton steps.
    ``penalised`` masks the features (None: all); the intercept is never penalised."""

    def __init__(self, X, Y: np.ndarray, alpha: float, penalised: np.ndarray | None = None,
                 fit_intercept: bool = True):
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
        self.X: Design
        self.XT: Design
        if sp.issparse(X):
            rows = X.tocsr()  # type: ignore[attr-defined]  # stubs: issparse gives SparseABC, no methods
            self.X, self.XT = rows, rows.T.tocsr()
        else:
            self.X = np.asarray(X, dtype=float)
            self.XT = self.X.T
        self.Y = Y
        self.shape = (X.shape[1] + 1, Y.shape[1])
        self.penalty = alpha * (np.ones(X.shape[1]) if penalised is None else np.asarray(penalised, dtype=float))
        self.weight = (Y != 0) / n_examples  # the 1/n_l of each problem, 0 where a row is not its example
        self.fit_intercept = fit_intercept
        self._at: tuple[np.ndarray, np.ndarray] | None = None  # (last point, its weighted L'')

    def _outputs(self, params: np.ndarray) -> np.ndarray:
        """x_i . u_l + b_l for every row and problem."""
        return self.X @ params[:-1] + (params[-1] if self.fit_intercept else 0.0)

    def _gradient(self, params: np.ndarray, g: np.ndarray, curvature: float) -> np.ndarray:
        """X^T g plus the penalty term (times ``curvature``: 2 for the gradient, 2 for H v too)."""
        grad = np.empty_like(params)
        grad[:-1] = self.XT @ g + curvature * self.penalty[:, None] * params[:-1]
        grad[-1] = g.sum(axis=0) if self.fit_intercept else 0.0
        return grad

    def __call__(self, flat: np.ndarray) -> tuple[float, np.ndarray]:
        params = flat.reshape(self.shape)
        loss, slope = modified_huber(self._outputs(params) * self.Y)
        coef = params[:-1]
        value = float((self.weight * loss).sum() + (self.penalty[:, None] * coef * coef).sum())
        return value, self._gradient(params, self.weight * slope * self.Y, 2.0).ravel()

    def hessp(self, flat: np.ndarray, vector: np.ndarray) -> np.ndarray:
        """H(flat) @ vector: L'' is 2 where -1 <= z < 1 and 0 elsewhere (y^2 = 1); the curvature
        of the last point is kept, as the conjugate-gradient steps of one Newton step share it."""
        if self._at is None or not np.array_equal(self._at[0], flat):
            z = self._outputs(flat.reshape(self.shape)) * self.Y
            self._at = (flat.copy(), np.where((z >= -1.0) & (z < 1.0), 2.0, 0.0) * self.weight)
        second = self._at[1]
        direction = vector.reshape(self.shape)
        return self._gradient(direction, second * self._outputs(direction), 2.0).ravel()


@one_blas_thread
def fit_problems(X, Y: np.ndarray, alpha: float, penalised: np.ndarray | None = None,
                 fit_intercept: bool = True, max_iter: int = 200, tol: float = 1e-8) -> LinearFit:
    """Minimise :class:`Objective` for every problem of ``Y`` on ``X`` (dense or scipy-sparse,
    n x p) from zero by Newton-CG; returns a :class:`LinearFit`."""
    function = Objective(X, Y, alpha, penalised, fit_intercept)
    start = np.zeros(function.shape[0] * function.shape[1])
    result = minimize(function, start, jac=True, hessp=function.hessp, method="Newton-CG",
                      options={"maxiter": max_iter, "xtol": tol})
    params = result.x.reshape(function.shape)
    return LinearFit(params[:-1].copy(), params[-1].copy(), bool(result.success), int(result.nit), float(result.fun))
