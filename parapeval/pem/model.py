"""The PEM regressor: a scikit-learn Pipeline (standard scaling + SVR, RBF kernel by default)
over the three features, with hyper-parameters chosen by grouped cross-validation on the
training data only; the paper's artificial control paraphrases; the neutral point; saving and
loading as a model file (:mod:`evalcore.io.models`: data only, header with its SHA-256)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.model_selection import GridSearchCV, GroupKFold, KFold
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from evalcore.io import models
from evalcore.io.persist import ModelFileError
from evalcore.resources.registry import ResourceError

#: the regressor's inputs, in column order (target_ngram_f1 is a similarity of wording: 1 for a copy)
FEATURES = ("adequacy", "fluency", "target_ngram_f1")
MODEL_FORMAT = "pem-model/2"


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

    def fit(self, X, y, groups=None) -> PEMRegressor:
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        pipeline = Pipeline([("scale", StandardScaler()), ("svr", SVR(kernel=self.kernel))])
        grid = {"svr__C": list(self.C_grid), "svr__epsilon": list(self.epsilon_grid)}
        if self.kernel != "linear":
            grid["svr__gamma"] = list(self.gamma_grid)
        splitter = (GroupKFold(self.cv) if groups is not None
                    else KFold(self.cv, shuffle=True, random_state=self.random_state))
        search = GridSearchCV(pipeline, grid, cv=splitter, scoring="neg_mean_squared_error")
        search.fit(X, y, groups=groups)
        self.pipeline_ = search.best_estimator_
        self.best_params_ = search.best_params_
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X) -> np.ndarray:
        """The pipeline's predictions; an RBF SVR's by the compiled loop of :mod:`parapeval.pem.rbf_svr`
        (libsvm's values within ``rbf_svr.RTOL``, several times faster) for every batch, however
        small: the two differ in the last digits, so a path chosen by batch size would make a value
        depend on how the items were split between workers (``--jobs``, ``--scheduler``)."""
        from parapeval.pem import rbf_svr

        X = np.asarray(X, dtype=float)
        if rbf_svr.supports(self.pipeline_):
            return rbf_svr.predict(self.pipeline_, X)
        return self.pipeline_.predict(X)


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


def neutral_point(model: PEMRegressor, X: np.ndarray) -> dict:
    """PEM's neutral value (given to text it cannot judge): the model's prediction at the median of
    each training feature, with that point; stored in the model file's header."""
    median = np.median(np.asarray(X, dtype=float), axis=0)
    return {"value": float(model.predict(median[None, :])[0]),
            "features": {name: float(v) for name, v in zip(FEATURES, median)},
            "definition": "prediction at the median of each training feature"}


def save_pem(model: PEMRegressor, path: str | Path, info: dict) -> Path:
    """Write a fitted regressor as a model file (:mod:`evalcore.io.models`); ``info`` names the
    signature, training data, licence, pivots, discount and the neutral point."""
    missing = [k for k in ("pivots", "neutral") if k not in info]
    if missing:
        raise ValueError(f"PEM model info for {path} lacks {', '.join(missing)}")
    header = {**info, "metric": "pem", "model_format": MODEL_FORMAT, "feature_names": list(FEATURES)}
    return models.save_model(model, path, header, classes=(PEMRegressor,))


def model_info(path: str | Path) -> dict:
    """The header of a PEM model file (cheap: the model itself is not loaded)."""
    path = Path(path)
    if not path.is_file():
        raise ResourceError(f"PEM model {path} not found: train one with `parapeval train`")
    info = models.read_header(path)
    if info.get("model_format") != MODEL_FORMAT or info.get("feature_names") != list(FEATURES):
        raise ModelFileError(f"{path} is not a {MODEL_FORMAT} model over features {', '.join(FEATURES)} "
                             f"(its header says {info.get('model_format')!r}, {info.get('feature_names')!r}): "
                             "retrain it with `parapeval train`")
    for key in ("pivots", "neutral"):
        if key not in info:
            raise ModelFileError(f"{path}'s header lacks {key!r}: retrain with `parapeval train`")
    return info


def load_pem(path: str | Path) -> tuple[PEMRegressor, dict]:
    """(regressor, header) of a file written by :func:`save_pem`, hash-checked."""
    model_info(path)
    model, info = models.load_model(path, classes=(PEMRegressor,))
    if not isinstance(model, PEMRegressor):
        raise ModelFileError(f"{path} holds a {type(model).__name__}, not a PEMRegressor")
    return model, info
