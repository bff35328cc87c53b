"""RBF SVR prediction compiled (numba), equal bit for bit to scikit-learn's libsvm ``predict``.

Why: libsvm evaluates the kernel of every support vector for every row through a generic kernel
call (a BLAS dot and a temporary per evaluation); PEM's shipped model has 5,702 support vectors,
so prediction cost ~0.2 ms a pair. This loop does the same operations in the same order (squared
distance summed over the features, ``exp(-gamma * d2)`` from the C library, terms added support
vector by support vector, then the intercept) without that overhead, and without fastmath, so
the sums are libsvm's; tests check it against ``SVR.predict``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


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
