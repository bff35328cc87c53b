"""BEER (Stanojevic & Sima'an 2014) as a metric: score(h) = w . x(h), a linear model over the 33
features of :mod:`.features` learned from human rankings (:mod:`.train`). Not the BEER 2.0 default
model (that is ``beer2``).

The shipped model (``mteval/models/beer-wmt12/beer-wmt12.npz``) is trained on the WMT12 rankings
into English (research use, see its header); the signature names its hash and every decision
the features take where the paper is silent. Several references: features averaged over them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from evalcore.io.models import ModelFileError
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from evalcore.resources.registry import ResourceError, package_path
from mteval.beer.extract import describe, feature_rows
from mteval.beer.features import FEATURES
from mteval.learn.model import LinearModel, load_linear_model


def default_model_path() -> Path:
    """The shipped BEER model (WMT12 rankings into English; research use, see its header)."""
    return package_path("mteval", "models", "beer-wmt12", "beer-wmt12.npz")


class Beer(ReferenceMetric):
    """BEER of a translation against one or more references. ``value`` is the model's raw score
    w . x (higher is better; only its order is meaningful); components: every feature.

    ``model``: a model written by `mteval train beer` (default: the shipped WMT12 model);
    ``language``: the target language, English only (spaCy tagger, Porter stems, WordNet)."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    signature_keys: ClassVar[dict[str, str]] = {"language": "lang"}
    signature_via: ClassVar[dict[str, str]] = {"model": "model"}
    trained_on: ClassVar[str | None] = "WMT12 human rankings into English (cs-en, de-en, es-en, fr-en)"
    in_sample: ClassVar[tuple[str, ...]] = ("wmt12:cs-en", "wmt12:de-en", "wmt12:es-en", "wmt12:fr-en")
    cost: ClassVar[str] = "medium"

    def __init__(self, model: str | Path | None = None, language: str = "en"):
        self.model = model
        self.language = language

    def model_path(self) -> Path:
        return Path(self.model) if self.model else default_model_path()

    @lazy_resource("model")
    def weights(self) -> tuple[LinearModel, dict]:
        """(model, header), loaded once per configuration; its features must be BEER's 33 in order."""
        model, info = load_linear_model(self.model_path())
        if model.names != FEATURES:
            raise ModelFileError(f"{self.model_path()}: its features {model.names} are not BEER's")
        return model, info

    def validate(self) -> None:
        if self.language != "en":
            raise ValueError(f"beer scores English targets only (spaCy's English tagger, Porter stems, WordNet), "
                             f"got language {self.language!r}")
        _ = self.weights

    def signature_extras(self) -> dict[str, object]:
        """The model's name and hash (``unresolved`` when it cannot be read: ``validate`` names it),
        the feature decisions and what prepares the text."""
        path = self.model_path()
        try:
            extras: dict[str, object] = {"model": f"{path.stem}:{self.weights[1]['sha256'][:8]}"}
        except (ResourceError, ModelFileError, OSError):
            extras = {"model": path.stem, "unresolved": True}
        return {**extras, **describe()}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        model = self.weights[0]
        X = feature_rows([(item.references, item.candidate) for item in items])
        return [Score(float(v), dict(zip(FEATURES, map(float, x)))) for v, x in zip(model.raw(X), X)]
