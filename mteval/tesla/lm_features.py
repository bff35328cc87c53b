"""TESLA-F's language-model features (WMT 2011 §4): the normalised LM score (1/n) log P(T) of the
hypothesis under each of two KenLM models, computed as PEM's fluency feature is (log10, n = LM
tokens + 1 for the end-of-sentence event, so an empty sentence is defined).

The paper used a Europarl and a news LM; the defaults here are the two English LMs the suite
builds offline (:mod:`evalcore.resources.defaults`): Brown corpus (1960s American prose) and the
King James Bible. Neither is news: the LM features are weaker than the paper's.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from evalcore.resources.defaults import bible_lm_path, lm_path
from evalcore.resources.lm import KenLM


def default_lms() -> dict[str, Path]:
    """The two default LMs, built on first use (:func:`evalcore.resources.system.ensure`)."""
    from evalcore.resources.system import ensure

    lms = {"brown": lm_path(), "bible": bible_lm_path()}
    if not all(path.is_file() for path in lms.values()):
        ensure("mt", steps=("lmplz", "brown", "brown-lm", "bible-lm"))
    return lms


class LMFeatures:
    """(1/n) log10 P(hypothesis) under each named LM."""

    def __init__(self, lms: Mapping[str, str | Path]):
        if not lms:
            raise ValueError("TESLA-F needs at least one language model")
        self.lms = {name: KenLM(path) for name, path in lms.items()}

    def names(self) -> list[str]:
        return [f"lm_{name}" for name in self.lms]

    def signature_fields(self) -> dict[str, str | tuple[str, ...]]:
        """Each LM's file name, order and content hash."""
        return {"lms": tuple(lm.signature() for lm in self.lms.values())}

    def compute(self, hypothesis: str) -> np.ndarray:
        """The normalised log-probabilities in :meth:`names` order."""
        out = []
        for lm in self.lms.values():
            logprob, n = lm.log10_prob(hypothesis)
            out.append(logprob / (n + 1))
        return np.array(out)
