"""CREMER (Lin, Liu, Ng, Kan 2012, section 5): overall responsiveness as a support vector
regression over two metric scores, TESLA-S (content) and DICOMER (readability).

The regressor is a scikit-learn Pipeline (standard scaling + SVR) inside a
TransformedTargetRegressor that standardises the human scores, so it composes and pickles like
any estimator and its epsilon and C mean the same on any judgment scale; the kernel picks the
paper's variant: linear (CREMER-LF, the default ``cremer``), polynomial (CREMER-PF)
or RBF (CREMER-RBF).

TESLA-S enters standardised within its topic (``topic-z``: mean 0, SD 1 over the summaries of one
topic): its raw scale depends on how many references there are (11 in SummEval, one in most
other sets), a within-topic z-score does not, so a model fitted on one setting is not asked to
extrapolate on another. A topic with a single summary cannot be standardised on its own; it is
standardised with the training distribution of raw TESLA-S instead, and the score says so.

DICOMER enters standardised within its topic too (``topic-z-judged``), over the summaries it judged:
its raw scale moves with the genre and length of the texts (chat summaries score lower than news
summaries), and a summary it did not judge (one sentence, no relation: DICOMER's neutral value)
gets 0, its topic's mean, so that "no evidence" neither raises nor lowers a summary against its
topic's others, in any domain. A topic with fewer than two judged summaries gives every summary 0.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from evalcore import __version__
from evalcore.io.models import SUFFIX, load_model, save_model
from evalcore.learn.groups import z_within
from evalcore.metric import Signature
from evalcore.metric.specs import registered_name
from evalcore.resources.registry import ResourceError, package_path

KERNELS = {"linear": "CREMER-LF", "poly": "CREMER-PF", "rbf": "CREMER-RBF"}
DEFAULT_KERNEL = "linear"
#: model file stem of each training: SummEval only (licence-clean, the default) or the opt-in
#: ``news-chat`` model fitted on SummEval and DialSummEval together (SAMSum text: non-commercial)
TRAININGS = {"summeval": "cremer", "news-chat": "cremer_news_chat"}
DEFAULT_TRAINING = "summeval"
FEATURES = ("tesla-s", "dicomer")
TESLA_SCALING = "topic-z"
DICOMER_SCALING = "topic-z-judged"
#: the prefix of DICOMER's notes on a text it did not judge (it got the model's neutral value)
NOT_JUDGED = "not_judged:"
SINGLE_SUMMARY_NOTE = ("tesla_s: the only summary of its topic: standardised with the training distribution "
                       "of TESLA-S, not within its topic; DICOMER counts as the topic's mean")
VALID_FOR = ("ranking summaries of the same topics against each other (TESLA-S is standardised within each "
             "topic, DICOMER within each topic over the summaries it judged; score every summary of a topic in one "
             "run); English summaries with one or more references, checked on news (SummEval) and, trained on news, "
             "on chat dialogue summaries (DialSummEval, see `python -m benchmarks transfer`); not an absolute score "
             "across topics")
N_FOLDS = 5
# Searched by fit_cremer; SummEval's 1,600 summaries fit every grid in well under a minute.
# epsilon is in standard deviations of the human scores (the target is standardised).
_SVR = "regressor__svr__"
_EPSILONS = [0.05, 0.1, 0.2, 0.5]
PARAM_GRIDS: dict[str, dict[str, list[float]]] = {
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


def model_path(kernel: str, folder: str | Path | None = None, training: str = DEFAULT_TRAINING) -> Path:
    """The model file of ``kernel`` trained on ``training`` (shipped in summeval/models, or in ``folder``)."""
    if training not in TRAININGS:
        raise ValueError(f"training must be one of {sorted(TRAININGS)}, got {training!r}")
    return (Path(folder) if folder else package_path("summeval", "models")) / f"{TRAININGS[training]}_{kernel}{SUFFIX}"


def metric_name(kernel: str, training: str = DEFAULT_TRAINING) -> str:
    """The name the registry gives a CREMER of ``kernel`` trained on ``training``."""
    return registered_name("summeval.cremer.metric:CremerSVR", kernel=kernel, training=training)


def model_signature(kernel: str, target: str, training: str = DEFAULT_TRAINING, use: str | None = None) -> Signature:
    """What a CREMER model is, before its file exists: the variant, its features (TESLA-S
    standardised within topic), its target and, for a model with terms, ``use`` (the metric's
    signature adds the model file's hash)."""
    extras = {"features": list(FEATURES), "tesla": TESLA_SCALING, "dicomer": DICOMER_SCALING, "target": target}
    return Signature(metric_name(kernel, training), {"variant": KERNELS[kernel]},
                     {**extras, **({"use": use} if use else {})}, __version__)


def topic_z(values: np.ndarray, topics: np.ndarray) -> np.ndarray:
    """Values standardised within each topic (mean 0, SD 1; a constant topic gives 0)."""
    return z_within(values, topics)


def scale_tesla(values, topics, training: dict) -> tuple[np.ndarray, np.ndarray]:
    """(TESLA-S standardised within topic, mask of the summaries that were alone in their topic and
    were standardised with ``training``'s ``mean`` and ``sd`` of raw TESLA-S instead)."""
    values, topics = np.asarray(values, float), np.asarray(topics)
    out = topic_z(values, topics)
    names, counts = np.unique(topics, return_counts=True)
    alone = np.isin(topics, names[counts == 1])
    out[alone] = (values[alone] - training["mean"]) / training["sd"]
    return out, alone


def scale_dicomer(values, judged, topics) -> np.ndarray:
    """DICOMER standardised within each topic over the summaries it ``judged``; the others (its
    neutral value) get 0, the topic's mean, as does every summary of a topic with fewer than two
    judged summaries or a constant DICOMER (no contrast to read)."""
    values, judged, topics = np.asarray(values, float), np.asarray(judged, bool), np.asarray(topics)
    out = np.zeros(len(values))
    out[judged] = topic_z(values[judged], topics[judged])
    return out


def dicomer_judged(score) -> bool:
    """Whether DICOMER judged a text (its Score carries no ``not_judged`` note)."""
    return not any(note.startswith(NOT_JUDGED) for note in score.notes)


def cremer_features(tesla, dicomer, judged, topics, info: dict) -> tuple[np.ndarray, np.ndarray]:
    """(CREMER's feature rows, mask of the summaries alone in their topic) from raw TESLA-S, raw
    DICOMER, DICOMER's judged flags and the topic of each summary, scaled as the model of header
    ``info`` was trained (TESLA-S and DICOMER within topic); a model trained with another scaling
    is an error naming the retraining command."""
    scaling = (info.get("tesla_scaling"), info.get("dicomer_scaling"))
    if scaling != (TESLA_SCALING, DICOMER_SCALING):
        raise ResourceError(f"CREMER model scaled as {scaling}, this version needs {(TESLA_SCALING, DICOMER_SCALING)}: "
                            "retrain it with `summeval train cremer`")
    tesla_z, alone = scale_tesla(tesla, topics, info["tesla_s_training"])
    return feature_matrix(tesla_z, scale_dicomer(dicomer, judged, topics)), alone


def save_cremer(model: TransformedTargetRegressor, kernel: str, info: dict, folder: str | Path | None = None,
                training: str = DEFAULT_TRAINING) -> Path:
    """Write a fitted regressor as a model file (:mod:`evalcore.io.models`): ``info`` names the
    target, the training data and its licence; the metric's name and the model's signature are
    added here."""
    signature = str(model_signature(kernel, info["target"], training, info.get("use")))
    header = {**info, "metric": metric_name(kernel, training), "signature": signature}
    return save_model(model, model_path(kernel, folder, training), header)


def load_cremer(kernel: str = DEFAULT_KERNEL, folder: str | Path | None = None,
                training: str = DEFAULT_TRAINING) -> tuple[TransformedTargetRegressor, dict]:
    """The shipped (or retrained) CREMER regressor and its header, the file checked against the
    SHA-256 recorded there; read once per process and file version."""
    path = model_path(kernel, folder, training)
    if not path.exists():
        flag = "" if training == DEFAULT_TRAINING else " --with-dialsummeval"
        raise ResourceError(f"CREMER model {path} is missing: run `summeval train cremer{flag}`")
    return load_model(path)


def standardised(values: np.ndarray) -> np.ndarray:
    """Values as z-scores over the whole array (one judged set's human scores)."""
    values = np.asarray(values, float)
    return (values - values.mean()) / values.std()


def feature_matrix(tesla, dicomer) -> np.ndarray:
    """Rows of (TESLA-S, DICOMER); an unscorable DICOMER (NaN) is an error for the caller."""
    return np.column_stack([np.asarray(tesla, float), np.asarray(dicomer, float)])


def monotone_in_tesla(model, dicomer_values, n: int = 41, span: float = 3.0) -> bool:
    """Whether ``model`` predicts non-decreasing responsiveness as standardised TESLA-S rises from
    -``span`` to +``span`` at each fixed DICOMER value of ``dicomer_values`` (a grid check)."""
    tesla = np.linspace(-span, span, n)
    for d in np.asarray(dicomer_values, float):
        predicted = model.predict(feature_matrix(tesla, np.full(n, d)))
        if np.any(np.diff(predicted) < -1e-9):
            return False
    return True
