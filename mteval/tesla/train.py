"""TESLA-F's training (`mteval train tesla-f`, options in :mod:`.train_cli`): its weights from WMT12
human rankings into English, and the cross-validated benchmark that says how well they rank outputs
they were not trained on.

Data: every ranked output of cs/de/es/fr-en (``../shared/data/mt/wmt12``, A's readers in
:mod:`mteval.data.wmt12`). A ranking (one annotator, up to five outputs of one segment) is a
RankSVM group: every pair of outputs with different ranks is a training preference. Features
(TESLA-B's F-measures and the two LM scores) are computed once and cached below the suite's cache
root, keyed by a hash of the texts and of every resource's signature.

Cross-validation folds group by segment (``srcIndex``): newstest2012 is multi-parallel, so one
segment shares its English reference across the four pairs, and no reference is seen in both a
training and a test fold. The shipped model is trained on all rankings.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from evalcore.resources.registry import shared_data_dir, usable_cache_dir
from mteval.data.wmt12 import Ranking
from mteval.learn import pairwise
from mteval.learn.cache import cached_rows
from mteval.learn.model import LinearModel, fit_ranker
from mteval.learn.ranked import DEFAULT_SEGMENTS, INTO_ENGLISH, HypKey, RankedSet, load_ranked_set
from mteval.lexical.bpng_features import PivotFeatures, default_tables
from mteval.lexical.preprocess import preparer
from mteval.tesla.features import TeslaFeatures, model_matrix, output_row
from mteval.tesla.lm_features import LMFeatures, default_lms

#: licence note the shipped model's header carries (it inherits the rankings' terms)
LICENCE = ("weights learned from the WMT12 human rankings, which WMT distributes for research use: "
           "use this model for research; for other uses retrain on rankings you may use (`mteval train tesla-f`)")


def feature_names(tesla: TeslaFeatures, lms: LMFeatures) -> list[str]:
    return tesla.names() + lms.names()


def raw_features(data: RankedSet, tesla: TeslaFeatures, lms: LMFeatures,
                 log: Callable[[str], None] = print, chunk: int = 1024) -> np.ndarray:
    """(outputs x features) TESLA-B F-measures (mean over references, NaN kept) and LM scores.

    Rows are cached per (references, hypothesis) in one file per configuration (a hash of the
    feature names and every resource's signature), saved after each ``chunk`` of new outputs, so
    an interrupted run, a subset and the full set share what was computed."""
    names = feature_names(tesla, lms)
    config = hashlib.sha1(json.dumps([names, tesla.pivots.signature_fields(), lms.signature_fields(),
                                      preparer("en").describe(), tesla.alpha], sort_keys=True, default=str).encode())
    cache = usable_cache_dir("mteval")
    path = cache / f"tesla-features-{config.hexdigest()[:16]}.npz" if cache is not None else None

    def compute(part):
        return [output_row(rows, lms, hyp) for rows, (_, hyp) in zip(tesla.per_reference(part), part)]

    return cached_rows(data.items, path, compute, len(names), log, chunk)


def ranking_arrays(rankings: Sequence[Ranking], index: dict[HypKey, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output row, label = -rank, group = ranking number) of every ranked output, for RankSVM."""
    rows, labels, groups = [], [], []
    for g, r in enumerate(rankings):
        for system, rank in zip(r.systems, r.ranks):
            rows.append(index[(r.pair, r.segment, system)])
            labels.append(-rank)
            groups.append(g)
    return np.array(rows, dtype=int), np.array(labels, dtype=float), np.array(groups, dtype=int)


def fit(X: np.ndarray, data: RankedSet, names: Sequence[str], rankings: Sequence[Ranking] | None = None,
        seed: int = 0) -> LinearModel:
    """RankSVM on the preferences of ``rankings`` (default: all) over the rows of ``X``."""
    rows, y, groups = ranking_arrays(data.rankings if rankings is None else rankings, data.index())
    return fit_ranker(X[rows], y, groups, names, seed=seed)


def cross_validated(X: np.ndarray, data: RankedSet, names: Sequence[str], folds: int = 5, seed: int = 0) -> np.ndarray:
    """Out-of-fold raw scores of every output: folds are seeded groups of segments; each fold's
    outputs are scored by a model trained on the rankings of the other folds' segments."""
    return pairwise.cross_validated(X, data.keys, data.rankings, lambda train: fit(X, data, names, train, seed),
                                    folds, seed)


# --- command line ----------------------------------------------------------------------------------

def default_extractors() -> tuple[TeslaFeatures, LMFeatures]:
    """TESLA-B's features over the default pivot tables and the two default LMs."""
    return TeslaFeatures(PivotFeatures.from_paths(default_tables())), LMFeatures(default_lms())


def train_default(out: Path, data_root: Path | None = None, max_segments: int = DEFAULT_SEGMENTS, seed: int = 0,
                  log: Callable[[str], None] = print) -> Path:
    """Train TESLA-F on the WMT12 into-English rankings of ``max_segments`` segments (0 = all)
    and save it as a model file."""
    from mteval.learn.model import save_linear_model

    root = (data_root or shared_data_dir()) / "mt" / "wmt12"
    data = load_ranked_set(root, max_segments=max_segments, seed=seed)
    tesla, lms = default_extractors()
    names = feature_names(tesla, lms)
    X = model_matrix(raw_features(data, tesla, lms, log), len(lms.names()))
    model = fit(X, data, names, seed=seed)
    info = {"signature": f"tesla-f|{'+'.join(tesla.pivots.signature_fields()['pivots'])}|"
                         f"lms:{'+'.join(lms.signature_fields()['lms'])}|seed:{seed}",
            "trained_on": f"WMT12 human rankings into English ({', '.join(INTO_ENGLISH)}): {len(data.rankings)} "
                          f"rankings of {len(data.keys)} outputs, {len({k[1] for k in data.keys})} segments",
            "licence": LICENCE, "pivots": list(tesla.pivots.pivots), "lms": list(lms.lms),
            "pivot_tables": tesla.pivots.signature_fields()["pivots"], "lm_files": lms.signature_fields()["lms"],
            "seed": seed, "unreadable_outputs": len(data.unreadable)}
    path = save_linear_model(model, out, info, "tesla-f")
    log(f"TESLA-F trained on {len(data.rankings)} rankings; weights: "
        + ", ".join(f"{n} {w:+.3g}" for n, w in zip(names, model.weights)) + f"; written to {path}")
    return path


__all__ = ["LICENCE", "cross_validated", "fit", "raw_features", "train_default"]
