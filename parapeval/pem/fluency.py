"""PEM's fluency feature: length-normalised LM score, log10 Pr(P) / (length(P) + 1), on top of the
suite's KenLM wrapper (:mod:`evalcore.resources.lm`). The +1 counts the end-of-sentence event the LM also
scores, so an empty sentence is defined."""

from __future__ import annotations

from pathlib import Path

from evalcore.resources.lm import KenLM


class FluencyScorer:
    """Normalised LM score of a sentence; the model file is loaded on first use."""

    def __init__(self, lm_path: str | Path):
        self.lm = KenLM(lm_path)

    @property
    def lm_path(self) -> Path:
        return self.lm.path

    def signature(self) -> str:
        """The LM's signature (file name, order, content hash), e.g. ``default:4g:515b640c``."""
        return self.lm.signature()

    def score(self, text: str) -> float:
        """log10 Pr(text) / (number of tokens + 1), sentence boundaries included."""
        logprob, n = self.lm.log10_prob(text)
        return logprob / (n + 1)
