"""The PEM regressor: a scikit-learn Pipeline (standard scaling + SVR, RBF kernel by default)
over the three features, with hyper-parameters chosen by grouped cross-validation on the
training data only; plus the paper's artificial control paraphrases."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.model_selection import GridSearchCV, GroupKFold, KFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from evalcore.resources import ResourceError

FEATURES = ("adequacy", "fluency", "dissimilarity")
MODEL_FORMAT = "pem-model/1"


class PEMRegressor(BaseEstimator, RegressorMixin):
    """Scaling + SVR; ``C``/``gamma``/``epsilon`` grids searched by ``cv``-fold CV (grouped by
    original when ``groups`` are given to :meth:`fit`)."""

    def __init__(self, kernel: str = "rbf", C_grid: Sequence[float] = (0.3, 1.0, 3.0),
                 gamma_grid: Sequence = ("scale",), epsilon_grid: Sequence[float] = (0.1,),
                 cv: int = 3, random_state: int = 0):
        self.kernel = kernel
        self.C_grid = C_grid
        self.gamma_grid = gamma_grid
        self.epsilon_grid = epsilon_grid
        self.cv = cv
        self.random_state = random_state

    def fit(self, X, y, groups=None) -> "PEMRegressor":
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        pipeline = Pipeline([("scale", StandardScaler()), ("svr", SVR(kernel=self.kernel))])
        grid = {"svr__C": list(self.C_grid), "svr__epsilon": list(self.epsilon_grid)}
        if self.kernel != "linear":
            grid["svr__gamma"] = list(self.gamma_grid)
        splitter = GroupKFold(self.cv) if groups is not None else KFold(self.cv, shuffle=True, random_state=self.random_state)
        search = GridSearchCV(pipeline, grid, cv=splitter, scoring="neg_mean_squared_error")
        search.fit(X, y, groups=groups)
        self.pipeline_ = search.best_estimator_
        self.best_params_ = search.best_params_
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X) -> np.ndarray:
        return self.pipeline_.predict(np.asarray(X, dtype=float))


def control_pairs(originals: Sequence[str], domain_sentences: Sequence[str], y_min: float, y_max: float,
                  seed: int = 0) -> list[tuple[str, str, float]]:
    """The paper's three controls per original, with overall scores on its 1-5 scale rescaled
    to [y_min, y_max]: the original itself (2), a random in-domain sentence (1) and a sentence
    sampled from a unigram LM of the domain (1)."""
    rng = np.random.default_rng(seed)
    words = [w for s in domain_sentences for w in s.split()]
    lengths = [len(s.split()) for s in domain_sentences if s.split()]
    if not words or not lengths:
        raise ValueError("controls need non-empty in-domain sentences")
    vocab, counts = np.unique(np.array(words, dtype=object), return_counts=True)
    probs = counts / counts.sum()

    def scaled(score: float) -> float:
        return y_min + (score - 1.0) / 4.0 * (y_max - y_min)

    out: list[tuple[str, str, float]] = []
    for original in originals:
        out.append((original, original, scaled(2.0)))
        out.append((original, domain_sentences[int(rng.integers(len(domain_sentences)))], scaled(1.0)))
        n = int(lengths[int(rng.integers(len(lengths)))])
        out.append((original, " ".join(rng.choice(vocab, size=n, p=probs)), scaled(1.0)))
    return out


def save_model(model: PEMRegressor, path: str | Path, meta: dict) -> Path:
    """Pickle a fitted regressor with the signature and training facts in ``meta``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    import sklearn

    with path.open("wb") as fh:
        pickle.dump({"format": MODEL_FORMAT, "sklearn": sklearn.__version__, "meta": meta, "model": model}, fh)
    return path


def load_model(path: str | Path) -> tuple[PEMRegressor, dict]:
    """(regressor, meta) from a file written by :func:`save_model`."""
    path = Path(path)
    if not path.is_file():
        raise ResourceError(f"PEM model {path} not found: train one with `parapeval train`")
    with path.open("rb") as fh:
        payload = pickle.load(fh)
    if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT:
        raise ResourceError(f"{path} is not a PEM model file ({MODEL_FORMAT})")
    return payload["model"], payload["meta"]
