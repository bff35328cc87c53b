"""The TESLA metrics of translations against references (Liu, Dahlmeier, Ng 2010; TESLA at WMT 2011).

- **TESLA-M** (2010 §3; WMT 2011 §2): the mean of six F-measures between bags of target n-grams
  (n = 1..3) matched under s_ms (lemmas, WordNet synonyms, POS) and s_pos, function words discounted
  by 0.1, alpha = 0.8 (recall-heavy). Sentence score = mean of the six F (orders neither side has
  left out); several references: the mean of the per-reference sentence scores, as the TESLA papers
  define it (TESLA-CELAB 2012 §3.4); corpus score = mean of the sentence scores (so the metric
  decomposes over sentences, as MERT needs). Every text is prepared once
  (:mod:`mteval.lexical.preprocess`), each reference encoded once for all its candidates.
- **TESLA-B** (WMT 2011 §3): TESLA-M's six BTNG F-measures plus, per pivot language, the
  F-measures of the bags of pivot-language n-grams (BPNG) of reference and hypothesis, averaged in
  two steps: score = (mean BTNG F + mean pivot F) / 2, so many pivots cannot swamp the target side.
  The BPNGs come from the builder and phrase tables PEM uses (:mod:`evalcore.bpng`) and are matched
  under s_lem in closed form (:mod:`mteval.lexical.bpng_features` says why s_pos is left out on the
  pivot side). English targets only: out of English the paper pivots through English, which needs
  tables whose segmented side is the target language; the suite's table builder reads an English
  source side.
- **TESLA-F** (2010 §4.4; WMT 2011 §4): a linear model over TESLA-B's F-measures (6 BTNG + 3 per
  pivot here) and the normalised LM scores of the hypothesis under two LMs, learned as a pairwise
  ranker on human rankings (:mod:`.train`), optionally scaled to [0, 1] (§4.1). The shipped model
  (``mteval/models/tesla-f-wmt12.npz``) is trained on the WMT12 rankings into English; its header
  names the pivot tables and LMs it was trained with, and scoring warns when the resources in use
  have other signatures. Several references: the F-measures are averaged over references before
  the model, which for a linear model equals the mean of the per-reference scores (the LM
  features do not depend on them).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from evalcore.io.models import ModelFileError
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from evalcore.resources.defaults import DEFAULT_PIVOTS
from evalcore.resources.registry import ResourceError, package_path
from mteval.learn.model import LinearModel, load_linear_model
from mteval.lexical.bpng_features import PivotFeatures, default_tables
from mteval.lexical.preprocess import LANGUAGES, preparer
from mteval.tesla.btng import FEATURES, btng_fmeasures
from mteval.tesla.features import TeslaFeatures, mean_defined, model_matrix, output_row, two_step
from mteval.tesla.lm_features import LMFeatures, default_lms

MULTI_REF_MODES = ("mean", "max")


class TeslaM(ReferenceMetric):
    """TESLA-M of a translation against one or more references. ``value`` is the mean of the
    six F-measures; components: the six F (``ms1`` .. ``pos3``, each the mean over references,
    or of the best reference under ``multi_ref="max"``; an undefined one is absent).

    ``multi_ref``: "mean" (the papers' rule) or "max" (best reference, as TESLA-S offers).
    ``language``: the target language; English is the paper's setting (spaCy tags and lemmas,
    WordNet synonyms), other languages say in the signature what replaces them."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    signature_keys: ClassVar[dict[str, str]] = {"discount": "fw", "multi_ref": "refs", "language": "lang"}
    languages: ClassVar[tuple[str, ...]] = tuple(LANGUAGES)
    cost: ClassVar[str] = "medium"

    def __init__(self, alpha: float = 0.8, discount: float = 0.1, multi_ref: str = "mean", language: str = "en"):
        self.alpha = alpha
        self.discount = discount
        self.multi_ref = multi_ref
        self.language = language

    @property
    def english(self) -> bool:  # type: ignore[override]  # a property: it follows the target language
        """English input notes apply to English targets only."""
        return self.language == "en"

    def statistic_names(self) -> tuple[str, ...]:
        """The six F-measures (the tuning stream's statistics; an undefined one prints as nan)."""
        return tuple(FEATURES)

    def validate(self) -> None:
        if not isinstance(self.alpha, numbers.Real) or not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be within (0, 1), got {self.alpha!r}")
        if not isinstance(self.discount, numbers.Real) or not 0 < self.discount <= 1:
            raise ValueError(f"discount must be within (0, 1], got {self.discount!r}")
        if self.multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"multi_ref must be one of {MULTI_REF_MODES}, got {self.multi_ref!r}")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {self.language!r}")

    def signature_extras(self) -> dict[str, object]:
        """What prepares the text (tokeniser, tagger model, lemmatiser) and the synonym source."""
        if self.language not in LANGUAGES:
            return {}  # validate() refuses it before any scoring; the signature still names it
        prep = preparer(self.language)
        return {"ngrams": "1-3", "sim": "ms+pos" if prep.pos else "ms", **prep.describe()}

    # ---- scoring ---------------------------------------------------------------------------------
    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        prep = preparer(self.language)
        texts = list(dict.fromkeys(t for it in items for t in (it.candidate, *it.references)))
        segments = dict(zip(texts, prep(texts)))
        out = []
        for item in items:
            hyp = segments[item.candidate]
            per_ref = []
            for k, ref_text in enumerate(item.references):
                ref = segments[ref_text]
                if not len(ref):
                    raise ValueError(f"reference {k + 1} has no word (only punctuation or symbols)")
                per_ref.append(btng_fmeasures(ref, hyp, self.alpha, self.discount, prep.synonyms, prep.pos))
            out.append(self._combine(np.array(per_ref)))
        return out

    def _combine(self, per_ref: np.ndarray) -> Score:
        """One score from the six F-measures against each reference (rows); an F that is NaN
        (an order neither side has, s_pos without tags) is left out of means and components."""
        with warnings.catch_warnings():  # an F undefined for every reference: NaN, left out below
            warnings.simplefilter("ignore", RuntimeWarning)
            sentence = np.nanmean(per_ref, axis=1)  # a reference has >= 1 word: F1 is defined
            if self.multi_ref == "max":
                best = int(np.argmax(sentence))
                value, fs = sentence[best], per_ref[best]
            else:
                value, fs = sentence.mean(), np.nanmean(per_ref, axis=0)
        return Score(float(value), {name: float(f) for name, f in zip(FEATURES, fs) if not np.isnan(f)})

    def _aggregate(self, scores: Sequence[Score]) -> Score:
        """Corpus score: the mean of the sentence scores; each F component averaged over the
        sentences that define it."""
        if not scores:
            return super()._aggregate(scores)
        components = {}
        for name in FEATURES:
            values = [s.components[name] for s in scores if name in s.components]
            if values:
                components[name] = float(np.mean(values))
        return Score(float(np.mean([s.value for s in scores])), components)

def check_english(metric: str, language: str) -> None:
    """TESLA-B/F read English targets only: a clear error naming what other targets would need."""
    if language != "en":
        raise ValueError(f"{metric} scores English targets only, got {language!r}: out of English the pivot is "
                         "English, which needs phrase tables segmenting the target language; the suite builds "
                         "English -> pivot tables only (use tesla-m for other targets)")


def pivot_list(pivots: Sequence[str] | str | None, tables: Mapping[str, str | Path] | None) -> tuple[str, ...]:
    """The pivots asked for: a list or a comma-separated string; default those of ``tables``, else
    the default pivots."""
    if isinstance(pivots, str):
        return tuple(p for p in pivots.split(",") if p)
    if pivots:
        return tuple(pivots)
    return tuple(tables) if tables else DEFAULT_PIVOTS


def resolve_tables(pivots: Sequence[str] | str | None, tables: Mapping[str, str | Path] | None) -> dict[str, Path]:
    """pivot -> phrase-table file: the given ones, the defaults for the rest; errors name what is missing."""
    if tables is not None and not isinstance(tables, Mapping):
        raise ValueError(f"tables must map pivot -> phrase-table file, got {tables!r}")
    chosen = pivot_list(pivots, tables)
    if not chosen:
        raise ValueError("at least one pivot language is needed")
    given = {p: Path(t) for p, t in (tables or {}).items()}
    unused = set(given) - set(chosen)
    if unused:
        raise ValueError(f"phrase tables given for {', '.join(sorted(unused))}, not among the pivots "
                         f"{', '.join(chosen)}")
    missing = [p for p in chosen if p not in given]
    out = {**default_tables(missing), **given} if missing else given
    for pivot, path in out.items():
        if not path.is_file():
            raise ResourceError(f"phrase table for pivot {pivot!r} not found at {path}")
    return {p: out[p] for p in chosen}


class TeslaB(ReferenceMetric):
    """TESLA-B of a translation against one or more references. ``value`` = (s_BTNG + s_BPNG) / 2;
    components: ``btng`` and ``bpng`` (the two means), each F-measure (``btng_ms1`` ..
    ``bpng_zh_lem_3``, means over references) and ``references``.

    ``pivots``: pivot languages (default fr, de, es, zh); ``tables``: pivot -> phrase-table file
    (default: the tables `make setup` builds); ``alpha``: F's precision weight (0.8, recall-heavy);
    ``multi_ref``: "mean" (the papers' rule) or "max"; ``language``: the target language, English
    only (see the module's note)."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    signature_keys: ClassVar[dict[str, str]] = {"multi_ref": "refs", "language": "lang"}
    signature_via: ClassVar[dict[str, str]] = {"pivots": "pivots", "tables": "pivots"}
    cost: ClassVar[str] = "medium"

    def __init__(self, pivots: Sequence[str] | str | None = None, tables: Mapping[str, str | Path] | None = None,
                 alpha: float = 0.8, multi_ref: str = "mean", language: str = "en"):
        self.pivots = pivots
        self.tables = tables
        self.alpha = alpha
        self.multi_ref = multi_ref
        self.language = language

    def validate(self) -> None:
        check_english(self.name, self.language)
        if not isinstance(self.alpha, numbers.Real) or not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be within (0, 1), got {self.alpha!r}")
        if self.multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"multi_ref must be one of {MULTI_REF_MODES}, got {self.multi_ref!r}")
        resolve_tables(self.pivots, self.tables)

    @lazy_resource("pivots", "tables", "alpha")
    def extractor(self) -> TeslaFeatures:
        """The feature extractor over the resolved tables (built once per configuration and process)."""
        return TeslaFeatures(PivotFeatures.from_paths(resolve_tables(self.pivots, self.tables)), self.alpha)

    def signature_extras(self) -> dict[str, object]:
        """Pivots with their tables' hashes and lemmatisers (``unresolved`` when a table is
        missing: ``validate`` names it), and what prepares the English text."""
        fields: Mapping[str, object]
        try:
            fields = self.extractor.pivots.signature_fields()
        except (ResourceError, ValueError, OSError):
            fields = {"pivots": pivot_list(self.pivots, self.tables if isinstance(self.tables, Mapping) else None),
                      "unresolved": True}
        return {"ngrams": "1-3", "sim": "ms+pos", "fw": 0.1, **fields, **preparer("en").describe()}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        extractor = self.extractor
        names = extractor.names()
        per_item = extractor.per_reference([(item.references, item.candidate) for item in items])
        return [self._combine(rows, names) for rows in per_item]

    def _combine(self, rows: np.ndarray, names: Sequence[str]) -> Score:
        """One score from the F-measures against each reference (rows)."""
        btng, bpng, sentence = two_step(rows)
        if self.multi_ref == "max":
            best = int(np.argmax(sentence))
            value, fs, parts = sentence[best], rows[best], (btng[best], bpng[best])
        else:
            value, fs, parts = sentence.mean(), mean_defined(rows.T), (btng.mean(), bpng.mean())
        components = {name: float(f) for name, f in zip(names, fs) if not np.isnan(f)}
        return Score(float(value), {"btng": float(parts[0]), "bpng": float(parts[1]), **components,
                                    "references": len(rows)})


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
