"""Training ``readability``: features of every judged set once, hyperparameters chosen only across
sets, and the leave-one-set-out protocol the benchmark reports.

Selection never sees the set a model is reported on: with two or more training sets each one is
the validation set of a model trained on the others in turn (inner leave-one-set-out); with one,
its inputs are split into five folds (grouped by input). The criterion is the summary level the
suite reports, against the sets' ``readability`` target (the mean of their standardised
dimensions): the mean of the per-input Kendall tau-b and the pooled Pearson correlation.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coherence.readability.features import FEATURES_VERSION, LENGTH_FEATURES, NAMES
from coherence.readability.model import ReadabilityModel
from evalcore.stats.levels import values

#: the hyperparameters searched: inverse L2 strength, smallest human difference of a training pair (SDs)
GRID = {"C": (0.01, 0.1, 1.0), "min_gap": (0.0, 0.5)}
#: feature sets a model may use; ``no-length`` is reported beside every model with length
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "all": NAMES,
    "no-length": tuple(n for n in NAMES if n not in LENGTH_FEATURES),
}
TARGET = "readability"
INNER_FOLDS = 5


@dataclass(frozen=True)
class SetFeatures:
    """One judged set's feature rows and what the texts were judged as."""

    name: str
    X: np.ndarray
    topics: np.ndarray
    systems: np.ndarray
    human: Mapping[str, np.ndarray]

    def subset(self, mask: np.ndarray) -> SetFeatures:
        return SetFeatures(self.name, self.X[mask], self.topics[mask], self.systems[mask],
                           {k: v[mask] for k, v in self.human.items()})


def matrix(values_: np.ndarray, systems: np.ndarray, topics: np.ndarray) -> np.ndarray:
    """The systems x inputs matrix of per-text values (NaN where a system has no text of an input)."""
    rows = {s: i for i, s in enumerate(dict.fromkeys(systems.tolist()))}
    cols = {t: j for j, t in enumerate(dict.fromkeys(topics.tolist()))}
    out = np.full((len(rows), len(cols)), np.nan)
    for v, s, t in zip(values_, systems, topics):
        out[rows[s], cols[t]] = v
    return out


def per_input_kendall(scores: np.ndarray, data: SetFeatures, dimension: str = TARGET) -> float:
    """The mean per-input Kendall tau-b of ``scores`` with ``dimension`` (item level)."""
    x = matrix(scores, data.systems, data.topics)
    z = matrix(data.human[dimension], data.systems, data.topics)
    return float(values(x, z, "item", "kendall-b")[0])


def pooled_pearson(scores: np.ndarray, data: SetFeatures, dimension: str = TARGET) -> float:
    """The Pearson correlation of ``scores`` with ``dimension`` over every text at once (global level)."""
    x = matrix(scores, data.systems, data.topics)
    z = matrix(data.human[dimension], data.systems, data.topics)
    return float(values(x, z, "global", "pearson")[0])


def criterion(scores: np.ndarray, data: SetFeatures) -> float:
    """What selection maximises: the mean of the per-input Kendall and the pooled Pearson."""
    return (per_input_kendall(scores, data) + pooled_pearson(scores, data)) / 2


def fit(sets: Sequence[SetFeatures], features: Sequence[str], C: float, min_gap: float) -> ReadabilityModel:
    """A model trained on the union of ``sets`` (each weighing the same)."""
    X = np.vstack([s.X for s in sets])
    y = np.concatenate([s.human[TARGET] for s in sets])
    topics = np.concatenate([s.topics for s in sets])
    names = np.concatenate([[s.name] * len(s.X) for s in sets])
    return ReadabilityModel(features, C=C, min_gap=min_gap).fit(X, y, topics, names)


def input_folds(topics: np.ndarray, n_folds: int = INNER_FOLDS) -> np.ndarray:
    """The fold of each text: its input's index among the sorted input ids, mod ``n_folds``."""
    fold = {t: i % n_folds for i, t in enumerate(sorted(set(topics.tolist())))}
    return np.array([fold[t] for t in topics])


def _validation_splits(sets: Sequence[SetFeatures]) -> list[tuple[list[SetFeatures], SetFeatures]]:
    """(training sets, validation set) pairs: each set held out in turn, or, for one set, five
    folds of its inputs (sorted input ids, fold = index mod 5)."""
    if len(sets) > 1:
        return [([s for s in sets if s is not held], held) for held in sets]
    only = sets[0]
    folds = input_folds(only.topics)
    return [([only.subset(folds != k)], only.subset(folds == k)) for k in range(INNER_FOLDS)]


def choose(sets: Sequence[SetFeatures], features: Sequence[str]) -> tuple[dict, dict]:
    """(best hyperparameters, criterion of every grid point) by validation across ``sets``."""
    splits = _validation_splits(sets)
    scores = {}
    for C, gap in itertools.product(GRID["C"], GRID["min_gap"]):
        got = [criterion(fit(train, features, C, gap).decision_function(held.X), held) for train, held in splits]
        scores[f"C={C:g},min_gap={gap:g}"] = float(np.mean(got))
    best = max(scores, key=lambda k: scores[k])
    params = dict(part.split("=") for part in best.split(","))
    return {"C": float(params["C"]), "min_gap": float(params["min_gap"])}, scores


def train(sets: Sequence[SetFeatures], feature_set: str = "all") -> tuple[ReadabilityModel, dict]:
    """(model, selection record): hyperparameters chosen across ``sets``, then fitted on all of them."""
    features = FEATURE_SETS[feature_set]
    params, grid = choose(sets, features)
    model = fit(sets, features, **params)
    return model, {"feature_set": feature_set, "params": params, "grid": grid,
                   "trained_on": [s.name for s in sets], "features_version": FEATURES_VERSION}


def leave_one_set_out(sets: Sequence[SetFeatures], feature_set: str = "all") -> dict[str, dict]:
    """For each set: its out-of-set scores (the model trained and chosen on the others), the chosen
    hyperparameters and the weights of that fold's model."""
    out = {}
    for held in sets:
        model, record = train([s for s in sets if s is not held], feature_set)
        out[held.name] = {**record, "scores": model.decision_function(held.X), "weights": model.weights()}
    return out


def feature_cache(folder: Path, name: str, sentences: str) -> Path:
    """Where the benchmark and ``coherence train readability`` keep a set's feature rows."""
    return folder / f"readability-features-{FEATURES_VERSION}-{name}-{sentences}.npz"


def set_features(name: str, data_root: str | Path, extractor, folder: Path | None = None) -> SetFeatures:
    """The feature rows of judged set ``name`` (:mod:`coherence.readability.data`), read from
    ``folder`` when an earlier run kept them for the same texts, else computed and kept there."""
    from coherence.readability.data import load_set

    judged = load_set(name, data_root)
    texts = judged.texts
    human = {d: judged.human(d) for d in (*judged.dimensions, TARGET)}
    digest = _texts_digest(texts, extractor)
    path = feature_cache(folder, name, extractor.sentences) if folder else None
    if path is not None and path.is_file():
        with np.load(path, allow_pickle=False) as kept:
            if str(kept["digest"]) == digest:
                return SetFeatures(name, kept["X"], judged.topics, judged.systems, human)
    X = extractor.features(texts)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, X=X, digest=np.array(digest))
    return SetFeatures(name, X, judged.topics, judged.systems, human)


def _texts_digest(texts: Sequence[str], extractor) -> str:
    """What a feature cache stands for: the texts, the feature code, the parser, DICOMER's model and the LM."""
    import hashlib

    h = hashlib.sha256()
    for part in (FEATURES_VERSION, extractor.sentences, extractor.parser_id, extractor.dicomer_hash,
                 extractor.lm.signature(), *texts):
        h.update(part.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def choose_feature_set(sets: Sequence[SetFeatures]) -> tuple[str, dict]:
    """(the feature set with the best mean held-out :func:`criterion` over the leave-one-set-out
    folds, each set's held-out values and fold weights per feature set)."""
    report = {}
    by_name = {s.name: s for s in sets}
    for feature_set in FEATURE_SETS:
        folds = leave_one_set_out(sets, feature_set)
        report[feature_set] = {name: {"kendall": per_input_kendall(fold["scores"], by_name[name]),
                                      "pearson": pooled_pearson(fold["scores"], by_name[name]),
                                      "criterion": criterion(fold["scores"], by_name[name]),
                                      "params": fold["params"], "weights": fold["weights"]}
                               for name, fold in folds.items()}
    best = max(report, key=lambda fs: float(np.mean([f["criterion"] for f in report[fs].values()])))
    return best, report


def save(model: ReadabilityModel, record: dict, path: Path, name: str, licence: str, use: str | None) -> Path:
    """Write a trained model with the header the metric reads (features, selection, licence)."""
    from coherence.readability.features import FEATURES
    from evalcore.io.models import save_model

    header = {**record, "metric": name, "licence": licence, "sets": record["trained_on"],
              "trained_on": " + ".join(record["trained_on"]) + f" ({TARGET}: mean of each set's standardised "
                                                              "readability dimensions)",
              "signature": f"{name}|features:{FEATURES_VERSION}|set:{record['feature_set']}",
              "feature_descriptions": {f.name: f"{f.question}: {f.what}" for f in FEATURES},
              "weights": model.weights(), **({"use": use} if use else {})}
    return save_model(model, path, header, classes=(ReadabilityModel,))


def train_shipped(data_root: str | Path, out: Path, features_folder: Path | None, log) -> dict:
    """Both shipped models: the default (licence-clean sets only) and the opt-in ``all`` model (every
    set, non-commercial), with the feature set chosen by leave-one-set-out over every set."""
    from coherence.readability.data import OPEN_SETS, SETS, load_set
    from coherence.readability.extract import Extractor
    from coherence.readability.metric import MODEL_NAME, SHIPPED_MODELS

    extractor = Extractor("auto")
    sets = [set_features(name, data_root, extractor, features_folder) for name in SETS]
    feature_set, lodo = choose_feature_set(sets)
    log(f"feature set {feature_set!r} chosen by leave-one-set-out: " + "; ".join(
        f"{fs}: " + ", ".join(f"{n} {v['criterion']:.3f}" for n, v in folds.items()) for fs, folds in lodo.items()))
    licences = {name: load_set(name, data_root).licence for name in SETS}
    written = {}
    for stem, names, use in ((MODEL_NAME, OPEN_SETS, None), (SHIPPED_MODELS["all"], SETS, "non-commercial")):
        chosen = [s for s in sets if s.name in names]
        model, record = train(chosen, feature_set)
        record["leave_one_set_out"] = lodo
        path = save(model, record, out / f"{stem}.npz", "readability" if use is None else "readability-all",
                    "; ".join(licences[n] for n in names), use)
        written[stem] = {"path": str(path), "params": record["params"], "weights": model.weights()}
        log(f"wrote {path}: trained on {', '.join(names)}, {record['params']}")
    return {"feature_set": feature_set, "models": written}
