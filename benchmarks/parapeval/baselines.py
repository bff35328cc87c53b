"""Sentence-level baselines with the original as the single reference: BLEU, chrF, TER
(sacrebleu) and ROUGE-L F (rouge-score)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def baseline_scores(pairs: Sequence[tuple[str, str]]) -> dict[str, np.ndarray]:
    """Per pair: BLEU, chrF, -TER (negated so that higher means closer), ROUGE-L F."""
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU, CHRF, TER

    bleu, chrf, ter = BLEU(effective_order=True), CHRF(), TER()
    rouge = rouge_scorer.RougeScorer(["rougeL"])
    out: dict[str, list[float]] = {"BLEU": [], "chrF": [], "-TER": [], "ROUGE-L": []}
    for original, paraphrase in pairs:
        out["BLEU"].append(bleu.sentence_score(paraphrase, [original]).score)
        out["chrF"].append(chrf.sentence_score(paraphrase, [original]).score)
        out["-TER"].append(-ter.sentence_score(paraphrase, [original]).score)
        out["ROUGE-L"].append(rouge.score(original, paraphrase)["rougeL"].fmeasure)
    return {k: np.array(v) for k, v in out.items()}
