"""Metrics that read discourse structure: DICOMER (readability, reference-free) and CREMER
(responsiveness from TESLA-S and DICOMER). Both use the shipped models under ``data/``; the
discourse parser and models load once per process, on first use."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from collections.abc import Sequence

import numpy as np

from summeval.cremer import KERNELS, feature_matrix, load_model
from summeval.metrics.base import Metric, Score
from summeval.metrics.tesla_s import TeslaS


@functools.lru_cache(maxsize=1)
def _dicomer_scorer():
    """One scorer per process; its parses are cached on disk by text hash, so reruns skip parsing."""
    from coherence.dicomer.scorer import DicomerScorer

    from evalcore.resources import cache_dir

    return DicomerScorer(cache_dir=cache_dir("dicomer"))


def dicomer_records(texts: Sequence[str]) -> list:
    """DICOMER :class:`~coherence.dicomer.scorer.ScoreRecord` (score, flags) of the candidate texts
    (parsed once, cached on disk)."""
    records = _dicomer_scorer().score_texts(list(texts))
    bad = [r.error for r in records if r.error]
    if bad:
        raise ValueError(f"DICOMER could not score a text: {bad[0]}")
    return records


def dicomer_values(texts: Sequence[str]) -> np.ndarray:
    """Raw DICOMER decision values of the candidate texts."""
    return np.array([r.score for r in dicomer_records(texts)])


def _flag_note(flags: Sequence[str]) -> str | None:
    """Why a flagged text's score says little: it has few or no relations or transitions to judge."""
    return f"{', '.join(flags)}: little or no discourse structure to judge" if flags else None


class Dicomer(Metric):
    """DICOMER readability of the candidate alone; references are not used."""

    name = "dicomer"

    def signature_fields(self) -> str:
        return _dicomer_scorer().signature().split("|", 1)[1].rsplit("|v:", 1)[0]

    def score_batch(self, items: Sequence[tuple[Sequence[str], str]]) -> list[Score]:
        return [Score(math.nan, math.nan, math.nan, r.score, note=_flag_note(r.flags))
                for r in dicomer_records([c for _, c in items])]


class Cremer(Metric):
    """CREMER: the SVR over (TESLA-S, DICOMER) for the given kernel, shipped or from ``models``
    (a folder written by `summeval train cremer --out`)."""

    def __init__(self, kernel: str = "rbf", models: str | Path | None = None):
        if kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {sorted(KERNELS)}, got {kernel!r}")
        self.kernel = kernel
        self.models = Path(models) if models else None
        self.name = {"rbf": "cremer", "linear": "cremer-lf", "poly": "cremer-pf"}[kernel]
        self.tesla = TeslaS()

    @functools.cached_property
    def _model(self):
        return load_model(self.kernel, self.models)

    def signature_fields(self) -> str:
        info = self._model[1]
        return (f"variant:{KERNELS[self.kernel]}|features:{'+'.join(info['features'])}|target:{info['target']}"
                f"|model:{info['model_hash']}")

    def score_batch(self, items: Sequence[tuple[Sequence[str], str]]) -> list[Score]:
        tesla = [s.value for s in self.tesla.score_batch(items)]
        features = feature_matrix(tesla, dicomer_values([c for _, c in items]))
        return [Score(math.nan, math.nan, math.nan, float(v)) for v in self._model[0].predict(features)]
