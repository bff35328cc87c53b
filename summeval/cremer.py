"""CREMER (Lin, Liu, Ng, Kan 2012, section 5): overall responsiveness as a support vector
regression over two metric scores, TESLA-S (content) and DICOMER (readability).

The regressor is a scikit-learn Pipeline (standard scaling + SVR) inside a
TransformedTargetRegressor that standardises the human scores, so it composes and pickles like
any estimator and its epsilon and C mean the same on any judgment scale; the kernel picks the
paper's variant: linear (CREMER-LF), polynomial (CREMER-PF) or RBF (CREMER-RBF).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from evalcore import __version__
from evalcore.metric import Item, Signature
from evalcore.persist import load_model as load_saved, save_model as save_with_sidecar
from evalcore.resources import ResourceError, data_dir
from evalcore.textio import InputError

KERNELS = {"linear": "CREMER-LF", "poly": "CREMER-PF", "rbf": "CREMER-RBF"}
#: the registered metric name of each kernel's CREMER
METRIC_NAMES = {"rbf": "cremer", "linear": "cremer-lf", "poly": "cremer-pf"}
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


def model_path(kernel: str, folder: str | Path | None = None) -> Path:
    return (Path(folder) if folder else data_dir() / "summeval") / f"cremer_{kernel}.joblib"


def model_signature(kernel: str, target: str) -> Signature:
    """What a CREMER model is, before its file exists: the variant, its features and its target
    (the metric's signature adds the model file's hash)."""
    return Signature(METRIC_NAMES[kernel], {"variant": KERNELS[kernel]},
                     {"features": list(FEATURES), "target": target}, __version__)


def save_model(model: TransformedTargetRegressor, kernel: str, info: dict, folder: str | Path | None = None) -> Path:
    """Persist a fitted regressor with its sidecar (:mod:`evalcore.persist`): ``info`` names the
    target, the training data and its licence; the model's signature is added here."""
    signature = str(model_signature(kernel, info["target"]))
    return save_with_sidecar(model, model_path(kernel, folder), {**info, "signature": signature})


def load_model(kernel: str = "rbf", folder: str | Path | None = None) -> tuple[TransformedTargetRegressor, dict]:
    """The shipped (or retrained) CREMER regressor and its sidecar, the file checked against the
    SHA-256 recorded there."""
    path = model_path(kernel, folder)
    if not path.exists():
        raise ResourceError(f"CREMER model {path} is missing: run `summeval train cremer`")
    return load_saved(path)


def feature_matrix(tesla, dicomer) -> np.ndarray:
    """Rows of (TESLA-S, DICOMER); an unscorable DICOMER (NaN) is an error for the caller."""
    return np.column_stack([np.asarray(tesla, float), np.asarray(dicomer, float)])


def _fit_and_save(x: np.ndarray, y: np.ndarray, groups: np.ndarray, kernels: tuple[str, ...],
                  folder: str | Path | None, info: dict) -> list[Path]:
    """One tuned model per kernel, saved with its sidecar (``info`` + the chosen SVR parameters)."""
    paths = []
    for kernel in kernels:
        model = fit_cremer(kernel, x, y, groups, n_folds=min(N_FOLDS - 1, len(set(groups))))
        sidecar = {"variant": KERNELS[kernel], "features": list(FEATURES), **info,
                   "svr": svr_params(model), "target_scaling": "standardised (epsilon in SDs)",
                   "tuning": f"grid {PARAM_GRIDS[kernel]}, folds by document, MSE"}
        paths.append(save_model(model, kernel, sidecar, folder))
    return paths


def _values(results: list, items, what: str) -> np.ndarray:
    """Values of a training feature; a summary it could not score is an error naming it (a model
    cannot be fitted around a hole)."""
    bad = [(it, r) for it, r in zip(items, results) if not r.ok]
    if bad:
        item, record = bad[0]
        raise InputError(f"{what} could not score {len(bad)} training summaries, e.g. "
                         f"{item.origin or f'{item.topic}/{item.system}'}: {record.message}")
    return np.array([r.value for r in results], float)


def _metric_items(items) -> list[Item]:
    return [Item(it.summary, it.references, id=it.origin or f"{it.topic}/{it.system}") for it in items]


def train_on_summeval(data: Path, kernels: tuple[str, ...] = tuple(KERNELS), target: str = "mean",
                      folder: str | Path | None = None, seed: int = 0) -> list[Path]:
    """Fit CREMER on all of SummEval and save one model per kernel. Features: TESLA-S with all
    references and out-of-fold DICOMER values (the shipped DICOMER is trained on the same
    summaries). Report cross-validated quality with `summeval bench responsiveness`."""
    from coherence.dicomer import oof
    from coherence.dicomer.metric import Dicomer

    from evalcore.data.summeval import read_summeval
    from summeval.metrics.tesla_s import TeslaS

    items = read_summeval(data)
    tesla = TeslaS()
    analyses = oof.summary_analyses([it.summary for it in items])
    topics = np.array([it.topic for it in items])
    coherence = np.array([it.human["coherence"] for it in items])
    dicomer = oof.out_of_fold(analyses, coherence, topics, np.ones(len(items), bool), N_FOLDS, seed)
    x = feature_matrix(_values(tesla.score_batch(_metric_items(items)), items, "TESLA-S"), dicomer)
    y = np.array([it.human[target] for it in items])
    info = {"target": f"summeval:{target}", "data": Path(data).name, "n_summaries": len(items),
            "trained_on": f"SummEval {Path(data).name}: {len(items)} summaries, target {target}",
            "tesla_s": str(tesla.signature()), "dicomer": str(Dicomer().signature()),
            "dicomer_training_values": f"out of fold ({N_FOLDS} folds by document, seed {seed})",
            "licence": "trained on SummEval annotations (MIT); CNN/DailyMail text, research use"}
    return _fit_and_save(x, y, topics, kernels, folder, info)


def train_on_judged(items, human: dict[tuple[str, str], dict[str, float]], target: str,
                    kernels: tuple[str, ...] = tuple(KERNELS), folder: str | Path | None = None,
                    source: str = "") -> list[Path]:
    """Fit CREMER on one's own judged summaries (TAC folders or JSONL plus a human-score file):
    TESLA-S against their references and the shipped DICOMER, which never saw these texts."""
    from coherence.dicomer.metric import Dicomer

    from summeval.metrics.tesla_s import TeslaS

    missing = [it.origin or f"{it.topic}/{it.system}" for it in items if target not in human.get(it.key, {})]
    if missing:
        raise InputError(f"no human {target!r} score for {len(missing)} summaries, e.g. {missing[0]}")
    topics = np.array([it.topic for it in items])
    if len(set(topics)) < 2:
        raise InputError("training CREMER needs summaries of at least two topics (folds are grouped by topic)")
    metric_items = _metric_items(items)
    tesla, dicomer = TeslaS(), Dicomer()
    x = feature_matrix(_values(tesla.score_batch(metric_items), items, "TESLA-S"),
                       _values(dicomer.score_batch(metric_items), items, "DICOMER"))
    y = np.array([human[it.key][target] for it in items])
    name = Path(source).name or "judged"
    info = {"target": f"{name}:{target}", "data": str(source), "n_summaries": len(items),
            "trained_on": f"{source or 'judged summaries'}: {len(items)} summaries, human {target!r}",
            "tesla_s": str(tesla.signature()), "dicomer": str(dicomer.signature()),
            "dicomer_training_values": "shipped DICOMER model (not trained on these summaries)",
            "licence": f"inherits the licence of the judged summaries and judgments ({name})"}
    return _fit_and_save(x, y, topics, kernels, folder, info)
