"""CREMER as a metric (Lin, Liu, Ng, Kan 2012, section 5): overall responsiveness predicted by an
SVR from a summary's TESLA-S (content, against its references, standardised within its topic) and
DICOMER (readability, from ``coherence``'s metric). The shipped models live in ``summeval/models``;
the regressor and its training are in :mod:`summeval.cremer.model`.

A topic is the set of summaries in one batch that share their references (``summeval score``
never splits a topic between batches); a summary alone in its topic is standardised with the
training distribution of TESLA-S and noted."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from evalcore import __version__
from evalcore.metric import InputLimits, Item, Metric, ReferenceMetric, Score, Signature
from evalcore.metric.lazy import lazy_resource
from summeval.cremer.model import (
    DEFAULT_KERNEL,
    DEFAULT_TRAINING,
    KERNELS,
    SINGLE_SUMMARY_NOTE,
    TRAININGS,
    cremer_features,
    dicomer_judged,
    load_cremer,
)
from summeval.tesla_s.metric import TeslaS


def feature_values(items: Sequence[Item], dicomer: Metric) -> tuple[list, list]:
    """CREMER's two features of checked items (texts already cleaned and within the caller's size
    cap): TESLA-S's and ``dicomer``'s Score or ErrorRecord for each item."""
    # the caller's cap already admitted these texts; the features must not apply the default one again
    limits = InputLimits(max(len(t) for it in items for t in (it.candidate, *it.references)))
    return TeslaS().score_batch(items, limits), dicomer.score_batch([Item(it.candidate, id=it.id) for it in items],
                                                                    limits)


class Cremer(ReferenceMetric):
    """CREMER with the SVR of ``kernel`` (``linear``: CREMER-LF, registered as ``cremer``;
    ``poly``: CREMER-PF; ``rbf``: CREMER-RBF), shipped or from ``models`` (a folder written by `summeval train cremer
    --out`).
    ``training="news-chat"`` is the opt-in model fitted on SummEval and DialSummEval
    (``cremer-news-chat``, non-commercial, ``use:`` in its signature).
    ``value`` is the predicted responsiveness; components are its inputs, ``tesla_s`` and
    ``dicomer``."""

    scope = "topic"  # TESLA-S is standardised over the batch's summaries that share references
    # the kernel shows as the variant's name; the model folder and the training as the model file's hash
    signature_via: ClassVar[dict[str, str]] = {"kernel": "variant", "models": "model", "training": "model"}
    trained_on: ClassVar[str | None] = ("SummEval expert judgments (1600 CNN/DailyMail summaries); "
                                        "training=\"news-chat\": SummEval and DialSummEval")
    opt_in: ClassVar[dict[str, tuple]] = {"training": ("news-chat",)}  # DialSummEval: non-commercial
    cost: ClassVar[str] = "heavy"

    def __init__(self, kernel: str = DEFAULT_KERNEL, models: str | Path | None = None,
                 training: str = DEFAULT_TRAINING):
        self.kernel = kernel
        self.models = models
        self.training = training

    def validate(self) -> None:
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {sorted(KERNELS)}, got {self.kernel!r}")
        if self.training not in TRAININGS:
            raise ValueError(f"training must be one of {sorted(TRAININGS)}, got {self.training!r}")

    @lazy_resource("kernel", "models", "training")
    def regressor(self) -> tuple:
        """(regressor, header) of the model file, read once per configuration and process."""
        self._ensure_valid()
        return load_cremer(self.kernel, self.models, self.training)

    @lazy_resource()
    def dicomer(self) -> Metric:
        """DICOMER as ``coherence`` offers it (the shipped model; its engine, parses and scores
        are shared with every other DICOMER of the process)."""
        from coherence.dicomer.metric import Dicomer

        return Dicomer()

    def signature(self) -> Signature:
        """sacrebleu's short form: ``cremer|variant:CREMER-RBF|features:tesla-s+dicomer|target:...|model:...``;
        the model file stands for ``models`` by the first 12 hex digits of its SHA-256, its
        features and target are read from its header."""
        info = self.regressor[1]
        params = {"variant": KERNELS[self.kernel], "features": info["features"],
                  "tesla": info.get("tesla_scaling", "raw"),
                  "dicomer": info.get("dicomer_scaling", "raw"), "target": info["target"], "model": info["sha256"][:12],
                  **({"use": info["use"]} if info.get("use") else {})}
        return Signature(self.name, params, {}, __version__)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        tesla, dicomer = feature_values(items, self.dicomer)
        for item, t, d in zip(items, tesla, dicomer):
            bad = next((f for f in (t, d) if not f.ok), None)
            if bad is not None:
                raise ValueError(f"{item.id}: no {bad.metric} score to predict from ({bad.message})")
        model, info = self.regressor
        raw = np.array([t.value for t in tesla])
        topic_of: dict[tuple[str, ...], int] = {}
        topics = np.array([topic_of.setdefault(it.references, len(topic_of)) for it in items])
        x, alone = cremer_features(raw, [d.value for d in dicomer], [dicomer_judged(d) for d in dicomer], topics, info)
        predicted = model.predict(x)
        # DICOMER's notes say why its feature is unusual (e.g. a text without relations)
        return [Score(float(v), {"tesla_s": t.value, "tesla_s_z": float(z[0]), "dicomer": d.value},
                      ((SINGLE_SUMMARY_NOTE,) if a else ()) + tuple(f"dicomer: {n}" for n in d.notes))
                for v, t, z, a, d in zip(predicted, tesla, x, alone, dicomer)]
