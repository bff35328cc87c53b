"""CREMER as metrics: overall responsiveness from a summary's content (TESLA-S, against its
references) and its readability.

- :class:`Cremer` (``cremer``, the default): TESLA-S plus a readability term (``readability`` from
  ``coherence``) whose weight was chosen on held-out judged sets (:mod:`summeval.cremer.combination`);
  with weight 0 it is TESLA-S, so it never trails its content input on the sets it was chosen on.
- :class:`CremerSVR` (``cremer-lf``, ``cremer-rbf``, ``cremer-pf``, ``cremer-news-chat``): the
  paper's CREMER (Lin, Liu, Ng, Kan 2012, section 5), an SVR over TESLA-S (standardised within its
  topic) and DICOMER; the regressor and its training are in :mod:`summeval.cremer.model`.

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
from evalcore.text.sentences import DEFAULT_SENTENCES, check_mode
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


class CremerSVR(ReferenceMetric):
    """The paper's CREMER, with the SVR of ``kernel`` (``linear``: CREMER-LF, registered as ``cremer-lf``;
    ``poly``: CREMER-PF; ``rbf``: CREMER-RBF), shipped or from ``models`` (a folder written by `summeval train cremer
    --out`).
    ``training="news-chat"`` is the opt-in model fitted on SummEval and DialSummEval
    (``cremer-news-chat``, non-commercial, ``use:`` in its signature).
    ``value`` is the predicted responsiveness; components are its inputs, ``tesla_s`` and
    ``dicomer``."""

    scope = "topic"  # TESLA-S is standardised over the batch's summaries that share references
    # the kernel shows as the variant's name; the model folder and the training as the model file's hash
    signature_via: ClassVar[dict[str, str]] = {"kernel": "variant", "models": "model", "training": "model",
                                               "sentences": "sentences"}
    trained_on: ClassVar[str | None] = ("SummEval expert judgments (1600 CNN/DailyMail summaries); "
                                        "training=\"news-chat\": SummEval and DialSummEval")
    opt_in: ClassVar[dict[str, tuple]] = {"training": ("news-chat",)}  # DialSummEval: non-commercial
    cost: ClassVar[str] = "heavy"

    def __init__(self, kernel: str = DEFAULT_KERNEL, models: str | Path | None = None,
                 training: str = DEFAULT_TRAINING, sentences: str = DEFAULT_SENTENCES):
        self.kernel = kernel
        self.models = models
        self.training = training
        self.sentences = sentences

    def validate(self) -> None:
        check_mode(self.sentences)
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {sorted(KERNELS)}, got {self.kernel!r}")
        if self.training not in TRAININGS:
            raise ValueError(f"training must be one of {sorted(TRAININGS)}, got {self.training!r}")

    @lazy_resource("kernel", "models", "training")
    def regressor(self) -> tuple:
        """(regressor, header) of the model file, read once per configuration and process."""
        self._ensure_valid()
        return load_cremer(self.kernel, self.models, self.training)

    @lazy_resource("sentences")
    def dicomer(self) -> Metric:
        """DICOMER as ``coherence`` offers it (the shipped model; its engine, parses and scores
        are shared with every other DICOMER of the process)."""
        from coherence.dicomer.metric import Dicomer

        return Dicomer(sentences=self.sentences)

    def signature(self) -> Signature:
        """sacrebleu's short form: ``cremer|variant:CREMER-RBF|features:tesla-s+dicomer|target:...|model:...``;
        the model file stands for ``models`` by the first 12 hex digits of its SHA-256, its
        features and target are read from its header."""
        info = self.regressor[1]
        params = {"variant": KERNELS[self.kernel], "features": info["features"],
                  "tesla": info.get("tesla_scaling", "raw"),
                  "dicomer": info.get("dicomer_scaling", "raw"), "target": info["target"], "model": info["sha256"][:12],
                  "sentences": self.sentences,
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


WEIGHTED_MODEL = "cremer_weighted"
LONE_NOTE = "readability: the only summary of its topic: no readability contrast, CREMER = TESLA-S"


def load_weighted(models: str | Path | None = None) -> tuple[dict, dict]:
    """(model, header) of the weighted CREMER's model file (shipped, or in a folder written by
    ``summeval train cremer --kernel weighted --out``): the readability weight and how it was chosen."""
    from evalcore.io.models import SUFFIX, load_model
    from evalcore.resources.registry import ResourceError, package_path

    path = (Path(models) if models else package_path("summeval", "models")) / f"{WEIGHTED_MODEL}{SUFFIX}"
    if not path.exists():
        raise ResourceError(f"CREMER model {path} is missing: run `summeval train cremer --kernel weighted`")
    model, info = load_model(path)
    if not isinstance(model, dict) or not isinstance(model.get("weight"), float):
        raise ResourceError(f"{path} holds no readability weight: retrain it with `summeval train cremer --kernel "
                            "weighted`")
    return model, info


class Cremer(ReferenceMetric):
    """CREMER: TESLA-S plus ``weight`` x (TESLA-S's SD within the topic) x (readability's z-score
    within the topic); the weight comes from the model file (``models``: a folder; None: the
    shipped one), chosen across held-out judged sets. ``sentences``: where sentences end for the
    readability term. Components: ``tesla_s``, ``readability`` and ``readability_z``."""

    scope = "topic"  # the readability term is standardised over the batch's summaries that share references
    signature_via: ClassVar[dict[str, str]] = {"models": "model", "sentences": "sentences"}
    trained_on: ClassVar[str | None] = ("the readability weight: chosen on SummEval and DialSummEval (held-out "
                                        "readability scores); readability: SummEval")
    cost: ClassVar[str] = "heavy"
    component_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, models: str | Path | None = None, sentences: str = DEFAULT_SENTENCES):
        self.models = models
        self.sentences = sentences

    def validate(self) -> None:
        check_mode(self.sentences)

    @lazy_resource("models")
    def weighted(self) -> tuple[dict, dict]:
        """(model, header) of the model file, read once per configuration and process."""
        self._ensure_valid()
        return load_weighted(self.models)

    @lazy_resource("sentences")
    def readability(self) -> Metric:
        """``readability`` as ``coherence`` offers it (the shipped model)."""
        from coherence.readability.metric import Readability

        return Readability(sentences=self.sentences)

    def signature(self) -> Signature:
        """``cremer|content:tesla-s|readability:readability|weight:0.05|sentences:auto|model:...``:
        the weight, what chose it, and the model file's hash."""
        model, info = self.weighted
        params = {"content": "tesla-s", "readability": info["readability"], "weight": f"{model['weight']:g}",
                  "chosen": info["chosen_on"], "sentences": self.sentences, "model": info["sha256"][:12]}
        return Signature(self.name, params, {}, __version__)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        from summeval.cremer.combination import combine, topic_spread

        model, _ = self.weighted
        limits = InputLimits(max(len(t) for it in items for t in (it.candidate, *it.references)))
        tesla = TeslaS().score_batch(items, limits)
        if model["weight"] == 0:  # the readability term has no weight: CREMER is TESLA-S, readability is not computed
            readability = tesla
        else:
            readability = self.readability.score_batch([Item(it.candidate, id=it.id) for it in items], limits)
        for item, t, r in zip(items, tesla, readability):
            bad = next((f for f in (t, r) if not f.ok), None)
            if bad is not None:
                raise ValueError(f"{item.id}: no {bad.metric} score to combine ({bad.message})")
        raw_t = np.array([t.value for t in tesla])
        if model["weight"] == 0:
            return [Score(float(v), {"tesla_s": float(v)}) for v in raw_t]
        topic_of: dict[tuple[str, ...], int] = {}
        topics = np.array([topic_of.setdefault(it.references, len(topic_of)) for it in items])
        raw_r = np.array([r.value for r in readability])
        values = combine(raw_t, raw_r, topics, model["weight"])
        _, z = topic_spread(raw_r, topics)
        alone = np.bincount(topics)[topics] == 1
        return [Score(float(v), {"tesla_s": float(t), "readability": float(r), "readability_z": float(zr)},
                      (LONE_NOTE,) if a else ())
                for v, t, r, zr, a in zip(values, raw_t, raw_r, z, alone)]
