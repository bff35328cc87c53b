"""TESLA-F (TESLA 2010 §4.4; TESLA at WMT 2011 §4): a linear model over TESLA-B's F-measures
(6 BTNG + 3 per pivot here) and the normalised LM scores of the hypothesis under two LMs, learned
as a pairwise ranker on human rankings (:mod:`.train`), optionally scaled to [0, 1] (§4.1).

The shipped model (``mteval/models/tesla-f-wmt12.npz``) is trained on the WMT12 rankings into
English; its header names the pivot tables and LMs it was trained with, and scoring warns when
the resources in use have other signatures (gettext tables depend on the catalogs installed).
Several references: the F-measures are averaged over references before the model, which for a
linear model equals the mean of the per-reference scores (the LM features do not depend on them).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from evalcore.io.models import ModelFileError
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from evalcore.resources import ResourceError, package_path
from mteval.learn.model import LinearModel, load_linear_model
from mteval.lexical.bpng_features import PivotFeatures
from mteval.lexical.preprocess import preparer
from mteval.tesla.features import TeslaFeatures
from mteval.tesla.lm_features import LMFeatures, default_lms
from mteval.tesla.tesla_b import check_english, resolve_tables
from mteval.tesla.train import model_matrix, output_row


class ResourceMismatchWarning(UserWarning):
    """The pivot tables or LMs differ from those the TESLA-F model was trained with."""


def default_model_path() -> Path:
    """The shipped TESLA-F model (WMT12 rankings into English; research use, see its header)."""
    return package_path("mteval", "models", "tesla-f-wmt12.npz")


class TeslaF(ReferenceMetric):
    """TESLA-F of a translation against one or more references. ``value`` is the model's score,
    scaled to [0, 1] by the paper's rule when ``scale`` (the default; rank-invariant); components:
    ``raw`` (the unscaled score) and every feature.

    ``model``: a model written by `mteval train tesla-f` (default: the shipped WMT12 model);
    ``tables``: pivot -> phrase-table file, ``lms``: LM name -> KenLM file, overriding the
    defaults for the pivots and LMs the model was trained with (their signatures must match);
    ``language``: the target language, English only (as TESLA-B)."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    name: ClassVar[str] = "tesla-f"
    signature_keys: ClassVar[dict[str, str]] = {"language": "lang"}
    signature_via: ClassVar[dict[str, str]] = {"model": "model", "tables": "pivots", "lms": "lms"}
    trained_on: ClassVar[str | None] = "WMT12 human rankings into English (cs-en, de-en, es-en, fr-en)"
    in_sample: ClassVar[tuple[str, ...]] = ("wmt12:cs-en", "wmt12:de-en", "wmt12:es-en", "wmt12:fr-en")
    cost: ClassVar[str] = "medium"

    def __init__(self, model: str | Path | None = None, scale: bool = True,
                 tables: Mapping[str, str | Path] | None = None, lms: Mapping[str, str | Path] | None = None,
                 language: str = "en"):
        self.model = model
        self.scale = scale
        self.tables = tables
        self.lms = lms
        self.language = language

    def model_path(self) -> Path:
        return Path(self.model) if self.model else default_model_path()

    @lazy_resource("model", "tables", "lms")
    def resources(self) -> tuple[LinearModel, TeslaFeatures, LMFeatures, dict]:
        """(model, F-measure extractor, LM features, the model's header), loaded once per
        configuration; the resources are checked against those the header names."""
        model, info = load_linear_model(self.model_path())
        if self.lms is not None and not isinstance(self.lms, Mapping):
            raise ValueError(f"lms must map LM name -> KenLM file, got {self.lms!r}")
        pivots = PivotFeatures.from_paths(resolve_tables(info["pivots"], self.tables))
        given = {name: Path(path) for name, path in (self.lms or {}).items()}
        unused = set(given) - set(info["lms"])
        if unused:
            raise ValueError(f"LMs given for {', '.join(sorted(unused))}, not among the model's "
                             f"{', '.join(info['lms'])}")
        lm_paths = {**(default_lms() if set(info["lms"]) - set(given) else {}), **given}
        lms = LMFeatures({name: lm_paths[name] for name in info["lms"]})
        tesla = TeslaFeatures(pivots)
        names = tesla.names() + lms.names()
        if tuple(names) != model.names:
            raise ModelFileError(f"{self.model_path()}: its features {model.names} differ from "
                                 f"those of its resources {tuple(names)}")
        expected = (tuple(info["pivot_tables"]), tuple(info["lm_files"]))
        found = (pivots.signature_fields()["pivots"], lms.signature_fields()["lms"])
        if found != expected:  # the signature shows the tables and LMs in use; the weights assume others
            warnings.warn(f"TESLA-F model {self.model_path().name} was trained with pivot tables {expected[0]} "
                          f"and LMs {expected[1]}, scoring uses {found[0]} and {found[1]}: its weights may not "
                          "fit them (retrain with `mteval train tesla-f`)", ResourceMismatchWarning, stacklevel=2)
        return model, tesla, lms, info

    def validate(self) -> None:
        check_english(self.name, self.language)
        if not isinstance(self.scale, bool):
            raise ValueError(f"scale must be true or false, got {self.scale!r}")
        _ = self.resources

    def signature_extras(self) -> dict[str, object]:
        """The model's name and hash, the pivot tables and LMs (``unresolved`` when a resource
        cannot be read: ``validate`` names it), and what prepares the text."""
        path = self.model_path()
        extras: dict[str, object] = {}
        try:
            _, tesla, lms, info = self.resources
            extras.update(model=f"{path.stem}:{info['sha256'][:8]}", **tesla.pivots.signature_fields(),
                          **lms.signature_fields())
        except (ResourceError, ModelFileError, ValueError, OSError, KeyError):
            extras.update(model=path.stem, unresolved=True)
        return {**extras, **preparer("en").describe()}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        model, tesla, lms, _ = self.resources
        per_ref = tesla.per_reference([(item.references, item.candidate) for item in items])
        X = model_matrix(np.array([output_row(rows, lms, item.candidate) for rows, item in zip(per_ref, items)]),
                         len(lms.names()))
        raws = model.raw(X)
        values = model.rescale(raws) if self.scale else raws
        return [Score(float(v), {"raw": float(r), **dict(zip(model.names, map(float, x)))})
                for v, r, x in zip(values, raws, X)]
