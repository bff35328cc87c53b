"""DICOMER fitted and applied out of fold: each value comes from a model that never saw the
document of the text it scores.

CREMER (``summeval``) is trained on such values when its DICOMER was trained on the same summaries
(the listwise SummEval model; the GDTB-trained default never saw them): a ranker scoring its
own training summaries is over-confident, and a regressor over it would learn to trust it too much. Folds follow the
benchmarks' rule: sort the document ids, fold = index mod k.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from coherence.dicomer.analysis import Analysis

N_FOLDS = 5
VARIANT = "DICOMER"  # the listwise variant, trained within each topic


def document_folds(topics: Sequence[str], n_folds: int = N_FOLDS) -> np.ndarray:
    """Fold of each item: index of its document among the sorted document ids, mod ``n_folds``."""
    order = {t: k % n_folds for k, t in enumerate(sorted(set(topics)))}
    return np.array([order[t] for t in topics])


def summary_analyses(texts: Sequence[str], tier: int = 1) -> list[Analysis]:
    """Analyses of ``texts`` with the parser of the shipped model (Tier 1), parses shared with
    every other command through the on-disk cache when it is usable."""
    from coherence.dicomer.analysis import shared_cache
    from coherence.parser.pipeline import DiscourseParser

    cache = shared_cache(DiscourseParser(tier=tier))
    analyses = cache.analyse(list(texts), progress=True)
    cache.save()
    return analyses


def fit_predict(analyses: Sequence[Analysis], coherence: np.ndarray, topics: np.ndarray, train: np.ndarray,
                test: np.ndarray, seed: int = 0) -> np.ndarray:
    """DICOMER (the listwise variant, on ``coherence`` within each topic) fitted on the
    ``train`` items (a boolean mask); its decision values of the ``test`` items."""
    from coherence.dicomer.model import DicomerModel

    idx_train, idx_test = np.flatnonzero(train), np.flatnonzero(test)
    model = DicomerModel(VARIANT, seed=seed).fit([analyses[int(i)] for i in idx_train], coherence[idx_train],
                                                   topics[idx_train])
    return model.decision_function([analyses[int(i)] for i in idx_test])


def out_of_fold(analyses: Sequence[Analysis], coherence: np.ndarray, topics: np.ndarray, within: np.ndarray,
                n_folds: int = N_FOLDS, seed: int = 0) -> np.ndarray:
    """DICOMER values of the ``within`` items (a boolean mask), each from a model fitted on the
    other folds of ``within`` (folds grouped by document); NaN outside ``within``."""
    out = np.full(len(analyses), np.nan)
    idx = np.flatnonzero(within)
    folds = document_folds(list(topics[idx]), n_folds)
    for k in range(n_folds):
        held = np.zeros(len(analyses), bool)
        held[idx[folds == k]] = True
        out[held] = fit_predict(analyses, coherence, topics, within & ~held, held, seed)
    return out
