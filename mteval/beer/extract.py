"""BEER's features for many (references, hypothesis) items at once: texts prepared in one spaCy
batch per window (each text once per process), the 33 features computed against each reference
and averaged over references (for a linear model: the mean of the per-reference scores)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval.beer.features import FEATURES, features
from mteval.lexical.preprocess import preparer

#: items prepared together
WINDOW = 256
#: the decisions where the paper is silent (module docstrings of :mod:`.align`, :mod:`.features`,
#: :mod:`.pet`), shown in the metric's signature and the model's header
DECISIONS = {"align": "exact+stem+syn/lsa", "char": "lc-nows", "unaligned": "dropped", "pet": "count/nodes",
             "kendall": "1-distance", "empty": "1-if-both", "refs": "mean"}


def describe() -> dict[str, str]:
    """Everything that fixes the feature values: the decisions and the text preparation."""
    return {**DECISIONS, **preparer("en").describe()}


def feature_rows(items: Sequence[tuple[Sequence[str], str]]) -> np.ndarray:
    """(items x 33) features, each the mean over the item's references; ValueError naming the
    reference when one has no word left after preparation."""
    prep = preparer("en")
    out = np.empty((len(items), len(FEATURES)))
    for start in range(0, len(items), WINDOW):
        window = items[start:start + WINDOW]
        texts = list(dict.fromkeys(t for refs, hyp in window for t in (*refs, hyp)))
        segments = dict(zip(texts, prep(texts)))
        for k, (refs, hyp) in enumerate(window, start):
            for r, ref in enumerate(refs):
                if not len(segments[ref]):
                    raise ValueError(f"reference {r + 1} has no word (only punctuation or symbols)")
            out[k] = np.mean([features(hyp, ref, segments[hyp], segments[ref]) for ref in refs], axis=0)
    return out
