"""Values standardised within groups (a topic's summaries, a judged set's texts): what a ranker
trained across topics and sets compares, whatever each group's scale."""

from __future__ import annotations

import numpy as np


def z_within(values, groups) -> np.ndarray:
    """``values`` as z-scores within each group (mean 0, SD 1; a constant or one-item group gives 0)."""
    values, groups = np.asarray(values, float), np.asarray(groups)
    out = np.zeros(len(values))
    for g in np.unique(groups):
        m = groups == g
        sd = values[m].std()
        out[m] = (values[m] - values[m].mean()) / sd if sd > 0 else 0.0
    return out
