"""TESLA-B (TESLA at WMT 2011 §3): TESLA-M's six BTNG F-measures plus, per pivot language, the
F-measures of the bags of pivot-language n-grams (BPNG) of reference and hypothesis, averaged in
two steps: score = (mean BTNG F + mean pivot F) / 2, so many pivots cannot swamp the target side.

The BPNGs come from the builder and phrase tables PEM uses (:mod:`evalcore.bpng`; the default
tables are the gettext/Bible ones `make setup` builds, English -> fr, de, es, zh) and are matched
under s_lem in closed form (:mod:`mteval.lexical.bpng_features` says why s_pos is left out on the pivot side).
English targets only: out of English the paper pivots through English, which needs tables whose
segmented side is the target language; the suite's table builder reads an English source side.
Several references: the mean (or max) of the per-reference scores, as TESLA-M.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from evalcore.default_resources import DEFAULT_PIVOTS
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from evalcore.resources import ResourceError
from mteval.lexical.bpng_features import PivotFeatures, default_tables
from mteval.lexical.preprocess import preparer
from mteval.tesla.features import N_BTNG, TeslaFeatures
from mteval.tesla.tesla_m import MULTI_REF_MODES


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

    name: ClassVar[str] = "tesla-b"
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


def two_step(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(s_BTNG, s_BPNG, TESLA-B) per row of F-measures (BTNG first; NaN: an order neither side
    has). A reference has a word, so some BTNG order is defined; when no pivot order is (nothing
    survived pruning on either side), the target side stands alone."""
    rows = np.atleast_2d(rows)
    btng = mean_defined(rows[:, :N_BTNG])
    bpng = mean_defined(rows[:, N_BTNG:])
    bpng = np.where(np.isnan(bpng), btng, bpng)
    return btng, bpng, (btng + bpng) / 2


def mean_defined(rows: np.ndarray) -> np.ndarray:
    """Mean of each row's non-NaN values; NaN for a row without any."""
    defined = ~np.isnan(rows)
    n = defined.sum(axis=1)
    return np.where(n > 0, np.where(defined, rows, 0.0).sum(axis=1) / np.maximum(n, 1), np.nan)
