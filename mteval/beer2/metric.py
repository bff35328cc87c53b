"""The registered metric ``beer2``: BEER 2.0 with the published default model, as upstream's
``beer -s SYS -r REF`` computes it (``src/beer/Metric.scala``, ``src/beer/EvaluationApp.scala``).

Sentence score: the model's scaled score in [0, 1]; several references: the best one (upstream's
``score(sent, refs) = refs.map(score).max``). Corpus score: the mean of the sentence scores.
Upstream's ``EvaluationApp`` prints ``total / (N + 1)`` (its counter starts at 1), a factor
N / (N + 1) below the mean; the mean is what it means to print, and what this metric reports.
No tokenisation and no lower-casing, as upstream: feed text tokenised the way the model's
training data was (WMT's plain text), and segment Chinese/Japanese into words first, else the word
features see one word per sentence. Language-independent (trained on into- and out-of-English
WMT14 pairs), so no English-text notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from evalcore.io.persist import ModelFileError
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from mteval.beer2.model import Beer2Model, default_model_dir

#: upstream's release the model and the feature definitions come from
UPSTREAM = "beer-2.0"


class Beer2(ReferenceMetric):
    """BEER 2.0 of a translation against one or more references. ``value``: the scaled score
    (0..1, higher is better); component ``raw``: the classifier's unscaled score w . x (of the
    best reference).

    ``model``: a BEER 2.0 model folder in upstream's files (default: the shipped default model)."""

    english: ClassVar[bool] = False
    signature_via: ClassVar[dict[str, str]] = {"model": "model"}
    languages: ClassVar[tuple[str, ...]] = ("*",)
    trained_on: ClassVar[str | None] = "WMT14 human rankings into and out of English (upstream's default model)"

    def __init__(self, model: str | Path | None = None):
        self.model = model

    def model_dir(self) -> Path:
        return Path(self.model) if self.model else default_model_dir()

    @lazy_resource("model")
    def loaded_model(self) -> Beer2Model:
        """The model, loaded once per configuration."""
        return Beer2Model(self.model_dir())

    def validate(self) -> None:
        if self.model is not None and not isinstance(self.model, (str, Path)):
            raise ValueError(f"model must be a folder path, got {self.model!r}")
        _ = self.loaded_model

    def signature_extras(self) -> dict[str, object]:
        """The model folder's name and digest, upstream's release, tokenisation and reference rule."""
        folder = self.model_dir()
        try:
            model = f"{folder.name}:{self.loaded_model.digest[:8]}"
        except (ModelFileError, OSError, ValueError):
            model = f"{folder.name}:unresolved"
        return {"model": model, "upstream": UPSTREAM, "tok": "spaces", "refs": "max"}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        model = self.loaded_model
        template = model.template
        texts = dict.fromkeys(t for it in items for t in (it.candidate, *it.references))
        pieces = {t: template.pieces(t) for t in texts}
        pairs = [(pieces[it.candidate], pieces[ref]) for it in items for ref in it.references]
        raws = model.raw(template.values(pairs))
        out, start = [], 0
        for item in items:
            best = float(np.max(raws[start:start + len(item.references)]))
            start += len(item.references)
            out.append(Score(float(model.score(best)), {"raw": best}))
        return out
