"""Text -> readability features, each text parsed once: spaCy (sentences as the chosen mode reads
them), the suite's discourse parser on that parse (relations for DICOMER and the connective
count, kept in DICOMER's analysis cache so a DICOMER in the same run does not parse again), and
the default KenLM language model."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from coherence.readability.features import NAMES, feature_matrix
from evalcore.resources.lm import KenLM

#: texts parsed per batch (the parser's per-call costs vanish; one batch's spaCy docs stay small)
BATCH_TEXTS = 256


def default_lm() -> Path:
    """The default English LM (Brown corpus, 4-gram), built on first use with progress on stderr."""
    from evalcore.resources.defaults import lm_path
    from evalcore.resources.system import ensure

    path = lm_path()
    if not path.is_file():
        ensure("readability")
    return path


class Extractor:
    """Feature rows of texts under one sentence mode, with the shipped DICOMER model and its parser."""

    def __init__(self, sentences: str, lm: str | Path | None = None, cache: bool = True):
        from coherence.dicomer.analysis import AnalysisCache, parser_id, shared_cache
        from coherence.dicomer.metric import load_dicomer_model
        from coherence.parser.pipeline import DiscourseParser
        from evalcore.text.sentences import check_mode

        self.sentences = check_mode(sentences)
        self.lm = KenLM(lm or default_lm())
        self.dicomer, info = load_dicomer_model(None)
        self.parser = DiscourseParser(tier=int(info["parser_tier"]))
        self.parser_id = parser_id(self.parser)
        self.dicomer_hash = info["sha256"][:12]
        self.analyses = shared_cache(self.parser) if cache else AnalysisCache(self.parser)

    def features(self, texts: Sequence[str]) -> np.ndarray:
        """One row of :data:`~coherence.readability.features.NAMES` per non-empty text."""
        rows = [self._batch(texts[i:i + BATCH_TEXTS]) for i in range(0, len(texts), BATCH_TEXTS)]
        return np.vstack(rows) if rows else np.zeros((0, len(NAMES)))

    def _batch(self, texts: Sequence[str]) -> np.ndarray:
        from coherence.dicomer.analysis import analyse_batch, text_key
        from coherence.sentences import parse_texts

        pts = parse_texts(texts, mode=self.sentences)
        analyses = analyse_batch(pts, self.parser)
        self.analyses.remember([text_key(t, self.sentences) for t in texts], analyses)
        values = self.dicomer.decision_function(analyses)
        judged = [a.n_sentences >= 2 and bool(a.relations) for a in analyses]
        dicomer = [float(v) if j else math.nan for v, j in zip(values, judged)]
        explicit = [sum(r.rel_type == "Explicit" for r in a.relations) for a in analyses]
        return feature_matrix(pts, self.lm, dicomer, explicit)
