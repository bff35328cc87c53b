"""RBF SVR prediction compiled (numba), equal to scikit-learn's libsvm ``predict`` within
:data:`RTOL` relative (and :data:`ATOL` absolute) difference.

Why: libsvm evaluates the kernel of every support vector for every row through a generic kernel
call (a BLAS dot and a temporary per evaluation); PEM's shipped model has 5,702 support vectors,
so prediction cost ~0.2 ms a pair. This loop does the same operations (squared distance summed
over the features, ``exp(-gamma * d2)``, terms added support vector by support vector, then the
intercept) without that overhead, and without fastmath. It is not bit for bit libsvm's on every
machine: the ``exp`` (LLVM's or the C library's, vectorised or not) and the compilers' choices
differ between CPUs and versions by a few units in the last place, ~1e-14 on values of order 1
(measured: up to 1.2e-14 absolute on an x86-64 with AVX-512, numba 0.68, scikit-learn 1.9);
tests check the stated tolerance against ``SVR.predict``. On one machine the result is the same
from run to run.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: agreement with ``SVR.predict`` that the tests check: |compiled - libsvm| <= ATOL + RTOL * |libsvm|
RTOL = 1e-12
ATOL = 1e-12


@njit(cache=True, nogil=True)
def _rbf_decision(X, support, coef, gamma, intercept):
    out = np.empty(X.shape[0])
    for r in range(X.shape[0]):
        s = 0.0
        for i in range(support.shape[0]):
            d2 = 0.0
            for j in range(X.shape[1]):
                d = X[r, j] - support[i, j]
                d2 += d * d
            s += coef[i] * math.exp(-gamma * d2)
        out[r] = s + intercept  # libsvm subtracts rho; intercept_ is -rho, so the same rounding
    return out


def supports(pipeline) -> bool:
    """Whether :func:`predict` reproduces ``pipeline.predict``: transforms then a dense RBF SVR."""
    from sklearn.svm import SVR

    svr = pipeline.steps[-1][1]
    return (isinstance(svr, SVR) and svr.kernel == "rbf" and not getattr(svr, "_sparse", True)
            and svr.dual_coef_.shape[0] == 1)


def predict(pipeline, X: np.ndarray) -> np.ndarray:
    """``pipeline.predict(X)`` for a pipeline :func:`supports` accepts."""
    svr = pipeline.steps[-1][1]
    Xt = pipeline[:-1].transform(X) if len(pipeline.steps) > 1 else X
    Xt = np.ascontiguousarray(Xt, dtype=np.float64)
    support = np.ascontiguousarray(svr.support_vectors_, dtype=np.float64)
    coef = np.ascontiguousarray(svr.dual_coef_[0], dtype=np.float64)
    return _rbf_decision(Xt, support, coef, float(svr._gamma), float(svr.intercept_[0]))
