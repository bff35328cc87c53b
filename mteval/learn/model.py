"""TESLA-F's learned layer: a linear model over named features, fitted as a pairwise ranker on
human rankings (the suite's RankSVM, :mod:`evalcore.learn.ranking`, the ranker DICOMER uses), with the
paper's optional [0, 1] scaling (WMT 2011 §4.1) and persistence as a model file (:mod:`evalcore.io.models`).

Features are standardised before the SVM (F-measures and LM scores differ in scale) and the
scaler is folded back, so the model is plain weights ``v`` and a bias ``b`` on raw features.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.io.models import ModelFileError, load_model, save_model

#: the paper's assumed range of a normalised LM score (1/n) log P (WMT 2011 §4.1)
LM_RANGE = (-15.0, 0.0)
#: every F-measure lies in [0, 1]
F_RANGE = (0.0, 1.0)


def feature_range(name: str) -> tuple[float, float]:
    """(lo, hi) of a feature for the scaling: LM features ``lm_*`` in [-15, 0], F-measures in [0, 1]."""
    return LM_RANGE if name.startswith("lm_") else F_RANGE


def row_dot(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``X @ w`` summed column by column in a fixed order, so a row's value depends on that row
    alone: BLAS's matrix-vector product rounds a row differently by its place in the batch
    (about 1e-15), and identical inputs must give identical scores."""
    out = np.zeros(X.shape[0])
    for k in range(X.shape[1]):
        out += X[:, k] * w[k]
    return out


@dataclass(frozen=True)
class LinearModel:
    """score = b + v . x over features ``names``; ``scaled`` maps [min, max] onto [0, 1]."""

    names: tuple[str, ...]
    weights: np.ndarray
    bias: float = 0.0

    def __post_init__(self):
        if len(self.names) != len(self.weights):
            raise ValueError(f"{len(self.names)} feature names but {len(self.weights)} weights")

    def raw(self, X: np.ndarray) -> np.ndarray:
        """b + v . x of every row of ``X`` (columns in ``names`` order)."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        if X.shape[1] != len(self.names):
            raise ValueError(f"{X.shape[1]} feature columns, the model has {len(self.names)}")
        return self.bias + row_dot(X, self.weights)

    def bounds(self) -> tuple[float, float]:
        """(min, max) of the raw score over the features' ranges: b + sum_k min/max(v_k lo_k, v_k hi_k)."""
        lo, hi = np.array([feature_range(n) for n in self.names]).T
        a, c = self.weights * lo, self.weights * hi
        return float(self.bias + np.minimum(a, c).sum()), float(self.bias + np.maximum(a, c).sum())

    def rescale(self, raw: np.ndarray) -> np.ndarray:
        """(raw - min) / (max - min): rank-invariant, 0..1 while LM features stay in [-15, 0]."""
        lo, hi = self.bounds()
        if hi <= lo:
            raise ValueError("a model with all-zero weights cannot be scaled")
        return (np.asarray(raw, dtype=float) - lo) / (hi - lo)

    def scaled(self, X: np.ndarray) -> np.ndarray:
        """The scaled score of every row of ``X``."""
        return self.rescale(self.raw(X))


def fit_ranker(X: np.ndarray, y: Sequence[float] | np.ndarray, groups: Sequence | np.ndarray, names: Sequence[str],
               C: float | str = "svmlight", seed: int = 0) -> LinearModel:
    """Fit RankSVM on standardised features (higher ``y`` = better within a group) and fold the
    standardisation into raw weights and a bias."""
    from evalcore.learn.ranking import RankSVM

    X = np.asarray(X, dtype=float)
    mean, std = X.mean(axis=0), X.std(axis=0)
    std = np.where(std > 0, std, 1.0)
    ranker = RankSVM(C=C, seed=seed).fit((X - mean) / std, y, groups)
    weights = ranker.coef_ / std
    return LinearModel(tuple(names), weights, float(-(weights * mean).sum()))


def save_linear_model(model: LinearModel, path: str | Path, info: dict, metric: str) -> Path:
    """Write the model of ``metric`` as a model file (:mod:`evalcore.io.models`; plain lists,
    readable without this class), ``info`` in its header."""
    payload = {"names": list(model.names), "weights": [float(w) for w in model.weights], "bias": model.bias}
    return save_model(payload, path, {**info, "metric": metric, "features": list(model.names)})


def load_linear_model(path: str | Path) -> tuple[LinearModel, dict]:
    """(model, header) of a file written by :func:`save_linear_model`; a clear error otherwise."""
    payload, info = load_model(path)
    try:
        return LinearModel(tuple(payload["names"]), np.asarray(payload["weights"], dtype=float),
                           float(payload["bias"])), info
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelFileError(f"{path}: not a TESLA-F model ({exc})") from None
