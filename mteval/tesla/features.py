"""The features TESLA-B and TESLA-F share, for many (references, hypothesis) items at once: per
reference, TESLA-M's six BTNG F-measures (:func:`mteval.tesla.btng.btng_fmeasures`) and the
pivot F-measures of :class:`~mteval.lexical.bpng_features.PivotFeatures`; texts are tagged in one
spaCy batch and their phrases looked up per window of items (each text once per process).

An F-measure of an order neither side has is NaN (TESLA-M's decision); :func:`fill_undefined`
replaces it, for the linear model, by the mean of the same segment's defined F-measures of the
same kind (BTNG or pivot), so a short exact match is not punished for lacking trigrams.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval.lexical.bpng_features import PivotFeatures
from mteval.lexical.preprocess import prepare
from mteval.tesla.btng import FEATURES as BTNG_FEATURES
from mteval.tesla.btng import btng_fmeasures
from mteval.tesla.lm_features import LMFeatures

#: items whose phrases are looked up together (their entries fit the stores' caches)
WINDOW = 256
N_BTNG = len(BTNG_FEATURES)


class TeslaFeatures:
    """BTNG and pivot F-measures per reference of each item."""

    def __init__(self, pivots: PivotFeatures, alpha: float = 0.8):
        self.pivots = pivots
        self.alpha = alpha

    def names(self) -> list[str]:
        return [f"btng_{name}" for name in BTNG_FEATURES] + self.pivots.names()

    def per_reference(self, items: Sequence[tuple[Sequence[str], str]]) -> list[np.ndarray]:
        """For every item, an array (references x features) of F-measures (NaN: undefined order)."""
        out: list[np.ndarray] = []
        for start in range(0, len(items), WINDOW):
            window = items[start:start + WINDOW]
            texts = list(dict.fromkeys(t for refs, hyp in window for t in (*refs, hyp)))
            segments = dict(zip(texts, prepare(texts)))
            self.pivots.prefetch(texts)
            for refs, hyp in window:
                for k, ref in enumerate(refs):
                    if not len(segments[ref]):
                        raise ValueError(f"reference {k + 1} has no word (only punctuation or symbols)")
                out.append(np.array([np.concatenate([btng_fmeasures(segments[r], segments[hyp], self.alpha),
                                                     self.pivots.compute(r, hyp)]) for r in refs]))
        return out


def fill_undefined(rows: np.ndarray, n_btng: int = N_BTNG) -> np.ndarray:
    """Rows (any leading shape, last axis = features, BTNG first) with each NaN replaced by the
    mean of the defined values of its kind in its row, or 0 when its kind has none."""
    rows = np.array(rows, dtype=float)
    for part in (rows[..., :n_btng], rows[..., n_btng:]):
        if part.shape[-1] == 0:
            continue
        undefined = np.isnan(part)
        defined = (~undefined).sum(axis=-1, keepdims=True)
        means = np.where(defined > 0, np.nansum(part, axis=-1, keepdims=True) / np.maximum(defined, 1), 0.0)
        part[undefined] = np.broadcast_to(means, part.shape)[undefined]
    return rows


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


def output_row(per_reference: np.ndarray, lms: LMFeatures, hypothesis: str) -> np.ndarray:
    """One output's raw features: its F-measures averaged over references (NaN kept), then LM scores."""
    return np.concatenate([mean_defined(per_reference.T), lms.compute(hypothesis)])


def model_matrix(X: np.ndarray, n_lm: int) -> np.ndarray:
    """The linear model's input: undefined F-measures filled (:func:`fill_undefined`), LM columns as is."""
    out = X.copy()
    out[:, :X.shape[1] - n_lm] = fill_undefined(X[:, :X.shape[1] - n_lm])
    return out
