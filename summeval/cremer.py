"""CREMER (Lin, Liu, Ng, Kan 2012, section 5): overall responsiveness as a support vector
regression over two metric scores, TESLA-S (content) and DICOMER (readability).

The regressor is a scikit-learn Pipeline (standard scaling + SVR) inside a
TransformedTargetRegressor that standardises the human scores, so it composes and pickles like
any estimator and its epsilon and C mean the same on any judgment scale; the kernel picks the
paper's variant: linear (CREMER-LF), polynomial (CREMER-PF) or RBF (CREMER-RBF).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from evalcore.resources import ResourceError, data_dir

KERNELS = {"linear": "CREMER-LF", "poly": "CREMER-PF", "rbf": "CREMER-RBF"}
FEATURES = ("tesla-s", "dicomer")
N_FOLDS = 5
# Searched by fit_cremer; SummEval's 1,600 summaries fit every grid in well under a minute.
# epsilon is in standard deviations of the human scores (the target is standardised).
_SVR = "regressor__svr__"
_EPSILONS = [0.05, 0.1, 0.2, 0.5]
PARAM_GRIDS = {
    "linear": {f"{_SVR}C": [0.1, 1.0, 10.0], f"{_SVR}epsilon": _EPSILONS},
    "poly": {f"{_SVR}C": [0.1, 1.0, 10.0], f"{_SVR}epsilon": _EPSILONS, f"{_SVR}degree": [2, 3]},
    "rbf": {f"{_SVR}C": [0.1, 0.3, 1.0, 3.0, 10.0], f"{_SVR}epsilon": _EPSILONS,
            f"{_SVR}gamma": [0.03, 0.1, 0.3, 1.0]},
}


def make_cremer(kernel: str = "rbf", C: float = 1.0, epsilon: float = 0.1, degree: int = 2,
                gamma: float | str = "scale") -> TransformedTargetRegressor:
    """An unfitted CREMER regressor: features (TESLA-S, DICOMER) -> responsiveness. Features and
    target are standardised, so ``epsilon`` is in standard deviations of the human scores (0.1 on
    TAC's 1-5 scale and on 0-1 crowd scores alike). The polynomial kernel is inhomogeneous,
    (g x.y + 1)^d as in SVMlight: with coef0 = 0 a degree-2 kernel would have no linear term and
    could not tell a high score from a low one."""
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {sorted(KERNELS)}, got {kernel!r}")
    pipeline = Pipeline([("scale", StandardScaler()),
                         ("svr", SVR(kernel=kernel, C=C, epsilon=epsilon, degree=degree, gamma=gamma, coef0=1.0))])
    return TransformedTargetRegressor(regressor=pipeline, transformer=StandardScaler())


def svr_params(model: TransformedTargetRegressor) -> dict:
    """The fitted SVR's parameters (for signatures)."""
    return model.regressor_.named_steps["svr"].get_params()


def fit_cremer(kernel: str, x: np.ndarray, y: np.ndarray, groups: np.ndarray,
               n_folds: int = N_FOLDS - 1) -> TransformedTargetRegressor:
    """CREMER with C, epsilon and the kernel's own parameters chosen by grid search (mean squared
    error, folds grouped by document), then refit on all of ``x``."""
    from sklearn.model_selection import GridSearchCV, GroupKFold

    search = GridSearchCV(make_cremer(kernel), PARAM_GRIDS[kernel], cv=GroupKFold(n_folds),
                          scoring="neg_mean_squared_error")
    return search.fit(x, y, groups=groups).best_estimator_


def model_path(kernel: str, folder: Path | None = None) -> Path:
    return (folder or data_dir() / "summeval") / f"cremer_{kernel}.joblib"


def save_model(model: TransformedTargetRegressor, kernel: str, signature: dict, folder: Path | None = None) -> Path:
    """Persist a fitted regressor with a JSON sidecar naming what produced it."""
    import joblib

    path = model_path(kernel, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    joblib.dump(model, path)
    path.with_suffix(".json").write_text(json.dumps(signature, indent=2) + "\n", "utf-8")
    return path


def load_model(kernel: str = "rbf", folder: Path | None = None) -> tuple[TransformedTargetRegressor, dict]:
    """The shipped (or retrained) CREMER regressor and its signature."""
    import joblib

    path = model_path(kernel, folder)
    if not path.exists():
        raise ResourceError(f"CREMER model {path} is missing: run `summeval train cremer`")
    info = json.loads(path.with_suffix(".json").read_text("utf-8"))
    info["model_hash"] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return joblib.load(path), info


def feature_matrix(tesla: np.ndarray, dicomer: np.ndarray) -> np.ndarray:
    """Rows of (TESLA-S, DICOMER); an unscorable DICOMER (NaN) is an error for the caller."""
    return np.column_stack([np.asarray(tesla, float), np.asarray(dicomer, float)])


def document_folds(topics: list[str], n_folds: int = N_FOLDS) -> np.ndarray:
    """Fold of each item (benchmarks.md): index of its document among the sorted ids, mod ``n_folds``."""
    order = {t: k % n_folds for k, t in enumerate(sorted(set(topics)))}
    return np.array([order[t] for t in topics])


def dicomer_fit_predict(analyses, coherence: np.ndarray, topics: np.ndarray, train: np.ndarray,
                        test: np.ndarray, seed: int = 0) -> np.ndarray:
    """DICOMER (listwise on coherence) trained on the ``train`` items, decision values of ``test``."""
    from coherence.dicomer.model import DicomerModel

    idx_train, idx_test = np.flatnonzero(train), np.flatnonzero(test)
    model = DicomerModel("DICOMER", seed=seed).fit([analyses[i] for i in idx_train], coherence[idx_train],
                                                   topics[idx_train])
    return model.decision_function([analyses[i] for i in idx_test])


def dicomer_out_of_fold(analyses, coherence: np.ndarray, topics: np.ndarray, within: np.ndarray,
                        n_folds: int, seed: int = 0) -> np.ndarray:
    """DICOMER values of the ``within`` items, each from a model that never saw its document
    (folds grouped by document inside ``within``); NaN outside ``within``.

    CREMER is trained on these rather than on in-sample DICOMER values: a ranker scoring its own
    training summaries is over-confident, and the regressor would learn to trust it too much."""
    out = np.full(len(analyses), np.nan)
    idx = np.flatnonzero(within)
    folds = document_folds(list(topics[idx]), n_folds)
    for k in range(n_folds):
        held = np.zeros(len(analyses), bool)
        held[idx[folds == k]] = True
        out[held] = dicomer_fit_predict(analyses, coherence, topics, within & ~held, held, seed)
    return out


def _fit_and_save(x: np.ndarray, y: np.ndarray, groups: np.ndarray, kernels: tuple[str, ...], folder: Path | None,
                  info: dict) -> list[Path]:
    """One tuned model per kernel, saved with a signature (``info`` + the chosen SVR parameters)."""
    import sklearn

    paths = []
    for kernel in kernels:
        model = fit_cremer(kernel, x, y, groups, n_folds=min(N_FOLDS - 1, len(set(groups))))
        signature = {"variant": KERNELS[kernel], "features": list(FEATURES), **info,
                     "svr": svr_params(model), "target_scaling": "standardised (epsilon in SDs)",
                     "tuning": f"grid {PARAM_GRIDS[kernel]}, folds by document, MSE", "sklearn": sklearn.__version__}
        paths.append(save_model(model, kernel, signature, folder))
    return paths


def train_on_summeval(data: Path, kernels: tuple[str, ...] = tuple(KERNELS), target: str = "mean",
                      folder: Path | None = None, seed: int = 0) -> list[Path]:
    """Fit CREMER on all of SummEval and save one model per kernel. Features: TESLA-S with all
    references and out-of-fold DICOMER values (the shipped DICOMER is trained on the same
    summaries). Report cross-validated quality with `summeval bench responsiveness`."""
    from coherence.dicomer.analysis import AnalysisCache
    from coherence.parser.pipeline import DiscourseParser

    from evalcore.resources import cache_dir
    from summeval.io import read_summeval
    from summeval.metrics.discourse import Dicomer
    from summeval.metrics.tesla_s import TeslaS

    items = read_summeval(data)
    tesla = TeslaS()
    cache = AnalysisCache(DiscourseParser(tier=1), cache_dir("dicomer"))
    analyses = cache.analyse([it.summary for it in items])
    cache.save()
    topics = np.array([it.topic for it in items])
    coherence = np.array([it.human["coherence"] for it in items])
    dicomer = dicomer_out_of_fold(analyses, coherence, topics, np.ones(len(items), bool), N_FOLDS, seed)
    x = feature_matrix([s.value for s in tesla.score_batch([(it.references, it.summary) for it in items])], dicomer)
    y = np.array([it.human[target] for it in items])
    info = {"target": f"summeval:{target}", "data": Path(data).name, "n_summaries": len(items),
            "tesla_s": tesla.signature(), "dicomer": Dicomer().signature(),
            "dicomer_training_values": f"out of fold ({N_FOLDS} folds by document, seed {seed})",
            "licence": "trained on SummEval annotations (MIT); CNN/DailyMail text, research use"}
    return _fit_and_save(x, y, topics, kernels, folder, info)


def train_on_judged(items, human: dict[tuple[str, str], dict[str, float]], target: str,
                    kernels: tuple[str, ...] = tuple(KERNELS), folder: Path | None = None,
                    source: str = "") -> list[Path]:
    """Fit CREMER on one's own judged summaries (TAC folders or JSONL plus a human-score file):
    TESLA-S against their references and the shipped DICOMER, which never saw these texts."""
    from summeval.io import InputError
    from summeval.metrics.discourse import Dicomer, dicomer_values
    from summeval.metrics.tesla_s import TeslaS

    missing = [it.origin or f"{it.topic}/{it.system}" for it in items if target not in human.get(it.key, {})]
    if missing:
        raise InputError(f"no human {target!r} score for {len(missing)} summaries, e.g. {missing[0]}")
    topics = np.array([it.topic for it in items])
    if len(set(topics)) < 2:
        raise InputError("training CREMER needs summaries of at least two topics (folds are grouped by topic)")
    tesla = TeslaS()
    x = feature_matrix([s.value for s in tesla.score_batch([(it.references, it.summary) for it in items])],
                       dicomer_values([it.summary for it in items]))
    y = np.array([human[it.key][target] for it in items])
    info = {"target": f"{Path(source).name or 'judged'}:{target}", "data": str(source), "n_summaries": len(items),
            "tesla_s": tesla.signature(), "dicomer": Dicomer().signature(),
            "dicomer_training_values": "shipped DICOMER model (not trained on these summaries)"}
    return _fit_and_save(x, y, topics, kernels, folder, info)
