"""Feature matrices for human-scored pairs, with or without the paper's controls, and the
fitting of a PEM regressor on them (used by `parapeval train` and by the benchmark)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from parapeval.data import ScoredPair
from parapeval.model import PEMRegressor, control_pairs
from parapeval.scoring import PEMFeatures


def feature_matrix(features: PEMFeatures, pairs: Sequence[tuple[str, str]],
                   progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, list[dict[str, float]]]:
    """Rows of (adequacy, fluency, dissimilarity) and the per-pivot F1 of each pair."""
    X = np.zeros((len(pairs), 3))
    pivots = []
    for i, (original, paraphrase) in enumerate(pairs):
        X[i], piv = features.compute(original, paraphrase)
        pivots.append(piv)
        if progress and (i + 1) % 500 == 0:
            progress(i + 1, len(pairs))
    return X, pivots


def controls_for(pairs: Sequence[ScoredPair], y_min: float, y_max: float, seed: int = 0) -> list[ScoredPair]:
    """The paper's three controls for every distinct original of ``pairs``."""
    originals = sorted({p.original for p in pairs})
    domain = sorted({p.original for p in pairs} | {p.paraphrase for p in pairs})
    return [ScoredPair(o, c, s) for o, c, s in control_pairs(originals, domain, y_min, y_max, seed)]


def fit_pem(X: np.ndarray, y: np.ndarray, groups: Sequence[str], model: PEMRegressor | None = None) -> PEMRegressor:
    """Fit a regressor with grouped CV for its hyper-parameters (groups = originals)."""
    model = model or PEMRegressor()
    _, codes = np.unique(np.asarray(groups, dtype=object), return_inverse=True)
    if len(codes) == 0 or codes.max() + 1 < model.cv:
        raise ValueError(f"training needs pairs of at least {model.cv} distinct originals "
                         f"(grouped {model.cv}-fold CV), got {len(set(codes))}")
    return model.fit(X, y, groups=codes)
