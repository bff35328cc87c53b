"""A BEER 2.0 model folder in upstream's files, read as upstream's ``Metric.loadModel`` reads it:
raw score = w . scale(features), score = the output scaling of the raw score, clipped to [0, 1].

Files (``models/default/`` upstream; shipped under ``mteval/models/beer2/default/``):
``feature_template.yaml`` (:mod:`.features`), ``feature_names_mapping`` (``index name`` lines,
``learning/FeatureNameMapping.scala``), ``feature_values_scaling`` (``min max`` per index,
``learning/FeatureScaling.scala``), ``core_model`` and ``kernel.properties`` (liblinear weights,
every number after the ``w`` line, and the kernel degree, ``learning/Classifier.scala``
``loadOptimizedModel`` and ``learning/Kernel.scala``), ``output_scaling`` (liblinear SVR weights
over ``(1, raw)``, ``learning/LinearRegressionScaling.scala`` ``loadModelOptimized``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from evalcore.io.persist import ModelFileError
from evalcore.resources.registry import package_path
from mteval.beer2.features import FeatureTemplate

MODEL_FILES = ("core_model", "feature_names_mapping", "feature_template.yaml", "feature_values_scaling",
               "kernel.properties", "output_scaling")


def default_model_dir() -> Path:
    """The shipped BEER 2.0 default model (Apache-2.0; its sidecar ``default.json`` names the source)."""
    return package_path("mteval", "models", "beer2", "default")


def model_digest(folder: str | Path) -> str:
    """SHA-256 over the model files in :data:`MODEL_FILES` order (name and bytes of each)."""
    h = hashlib.sha256()
    for name in MODEL_FILES:
        h.update(name.encode() + b"\0" + (Path(folder) / name).read_bytes())
    return h.hexdigest()


def _liblinear_weights(path: Path) -> np.ndarray:
    """Every number after the ``w`` line of a liblinear model file (what upstream's optimised
    loaders read: the bias slot included, so 62 weights for ``nr_feature 61`` with ``bias 0``)."""
    lines = path.read_text("utf-8").splitlines()
    if "w" not in lines:
        raise ModelFileError(f"{path}: no 'w' line (not a liblinear model file)")
    try:
        return np.array([float(x) for x in lines[lines.index("w") + 1:] if x.strip()])
    except ValueError as exc:
        raise ModelFileError(f"{path}: unreadable weight ({exc})") from None


def _properties(path: Path) -> dict[str, str]:
    """A Java ``.properties`` file's ``key=value`` lines (comments skipped)."""
    out = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith(("#", "!")) and "=" in line:
            key, value = line.split("=", 1)
            out[key.strip()] = value.strip()
    return out


class Beer2Model:
    """A loaded model: template, weights in feature-name order, input and output scaling."""

    def __init__(self, folder: str | Path):
        folder = Path(folder)
        missing = [name for name in MODEL_FILES if not (folder / name).is_file()]
        if missing:
            raise ModelFileError(f"BEER model folder {folder} lacks {', '.join(missing)}")
        if (folder / "platt_scaling.properties").exists():
            raise ModelFileError(f"{folder}: Platt output scaling is not supported (only the linear scaling "
                                 "of the default model)")
        self.folder = folder
        self.digest = model_digest(folder)
        self.info = read_model_sidecar(folder)
        if self.info.get("sha256") and self.info["sha256"] != self.digest:
            raise ModelFileError(f"{folder} does not match the SHA-256 in {folder.name}.json (replaced or corrupt)")
        self.template = FeatureTemplate.from_yaml(folder / "feature_template.yaml")
        self.names = self._mapping(folder / "feature_names_mapping")
        self.weights = _liblinear_weights(folder / "core_model")
        kernel = _properties(folder / "kernel.properties")
        if kernel.get("polynomialDegree") != "1":
            raise ModelFileError(f"{folder}: kernel degree {kernel.get('polynomialDegree')} is not supported "
                                 "(only the linear model: degree 1, whose kernel is the identity)")
        scaling = np.loadtxt(folder / "feature_values_scaling", ndmin=2)
        self.mins, self.maxs = scaling[:, 0], scaling[:, 1]
        self.output = _liblinear_weights(folder / "output_scaling")
        n = len(self.names)
        if len(self.weights) != n or len(self.mins) != n or len(self.output) != 2:
            raise ModelFileError(f"{folder}: {n} feature names, {len(self.weights)} weights, {len(self.mins)} "
                                 f"scaling rows and {len(self.output)} output weights (want n, n, n, 2)")
        produced = self.template.feature_names()
        if sorted(produced) != sorted(self.names):
            raise ModelFileError(f"{folder}: the template's features and the model's differ: "
                                 f"only in the template {sorted(set(produced) - set(self.names))}, "
                                 f"only in the model {sorted(set(self.names) - set(produced))}")
        self.order = np.array([produced.index(name) for name in self.names])  # model index -> template column

    @staticmethod
    def _mapping(path: Path) -> list[str]:
        """Feature names by model index from ``index name`` lines."""
        pairs = {}
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                index, name = line.split(" ")
                pairs[int(index)] = name
        if sorted(pairs) != list(range(len(pairs))):
            raise ModelFileError(f"{path}: indices are not 0..{len(pairs) - 1}")
        return [pairs[k] for k in range(len(pairs))]

    def scale_features(self, values: np.ndarray) -> np.ndarray:
        """Template-ordered feature values -> model-ordered, min-max scaled (x - min) / (max - min)."""
        return (values[:, self.order] - self.mins) / (self.maxs - self.mins)

    def raw(self, values: np.ndarray) -> np.ndarray:
        """The classifier's raw scores w . x of template-ordered feature values, summed left to
        right as upstream's loop adds them (``Classifier.rawScoreWithWeights``): the same floats
        whatever the batch, and upstream's to the last bit."""
        products = self.scale_features(values) * self.weights
        return np.cumsum(products, axis=1)[:, -1] if products.size else np.zeros(len(values))

    def score(self, raw: np.ndarray | float) -> np.ndarray:
        """Upstream's output scaling: s = w0 + w1 raw (the human-score scale, 0..100), then 0 below
        0, 1 above 100, s / 100 in between."""
        scaled = self.output[0] + self.output[1] * np.asarray(raw, dtype=float)
        return np.where(scaled < 0.0, 0.0, np.where(scaled / 100.0 > 1.0, 1.0, scaled / 100.0))


def read_model_sidecar(folder: str | Path) -> dict:
    """The JSON beside a model folder (``<folder>.json``): source, licence, training data, digest."""
    side = Path(folder).with_suffix(".json")
    try:
        return json.loads(side.read_text("utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelFileError(f"{side}: unreadable model sidecar ({exc})") from None
