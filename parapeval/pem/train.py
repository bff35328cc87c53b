"""Feature matrices for human-scored pairs, with or without the paper's controls, the fitting of a
PEM regressor on them (used by `parapeval train` and by the benchmark), and the facts a model's
header records about its training."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from evalcore.run.progress import bar
from parapeval.data import ScoredPair
from parapeval.pem.metric import PEMFeatures
from parapeval.pem.model import PEMRegressor, control_pairs


def feature_matrix(features: PEMFeatures, pairs: Sequence[tuple[str, str]],
                   progress: bool = False) -> tuple[np.ndarray, list[dict[str, float]]]:
    """Rows of (adequacy, fluency, target_ngram_f1) and the per-pivot F1 of each pair; a progress
    bar on an interactive stderr when ``progress``."""
    with bar(len(pairs), progress, "pair") as pbar:
        return features.compute_many(list(pairs), on_window=pbar.update)


def controls_for(pairs: Sequence[ScoredPair], y_min: float, y_max: float, seed: int = 0) -> list[ScoredPair]:
    """The paper's three controls for every distinct original of ``pairs``."""
    originals = sorted({p.original for p in pairs})
    domain = sorted({p.original for p in pairs} | {p.paraphrase for p in pairs})
    return [ScoredPair(o, c, s) for o, c, s in control_pairs(originals, domain, y_min, y_max, seed)]


def training_pairs(pairs: list[ScoredPair], controls: bool, seed: int = 0) -> list[ScoredPair]:
    """The pairs a model is fitted on: the human-scored ones, plus the controls when asked."""
    if not controls:
        return pairs
    y = [p.score for p in pairs]
    return pairs + controls_for(pairs, min(y), max(y), seed)


def fit_pem(X: np.ndarray, y: np.ndarray, groups: Sequence[str], model: PEMRegressor | None = None) -> PEMRegressor:
    """Fit a regressor with grouped CV for its hyper-parameters (groups = originals)."""
    model = model or PEMRegressor()
    _, codes = np.unique(np.asarray(groups, dtype=object), return_inverse=True)
    if len(codes) == 0 or codes.max() + 1 < model.cv:
        raise ValueError(f"training needs pairs of at least {model.cv} distinct originals "
                         f"(grouped {model.cv}-fold CV), got {len(set(codes))}")
    return model.fit(X, y, groups=codes)
