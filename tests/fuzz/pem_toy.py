"""Tiny PEM resources for fuzzing ``parapeval score`` (a toy phrase table, LM and model, as the
parapeval tests build them): the fuzzer exercises reading and reporting, so it needs PEM to
score, fast, whether or not ``aesop-eval setup pem`` has built the default resources."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

TABLE: dict[tuple[str, ...], tuple[int, dict[tuple[str, ...], int]]] = {
         ("the",): (40, {("le",): 30, ("la",): 10}), ("cat",): (10, {("chat",): 10}), ("dog",): (10, {("chien",): 10}),
         ("sat",): (5, {("assis",): 5}), ("council",): (6, {("conseil",): 6}), ("budget",): (4, {("budget",): 4}),
         ("approved",): (3, {("approuvé",): 3}), ("the", "cat"): (8, {("le", "chat"): 8}), (".",): (50, {(".",): 50})}


@functools.lru_cache(maxsize=1)
def resource_args() -> tuple[str, ...]:
    """``--table``, ``--lm`` and ``--model`` options naming toy resources built once per process."""
    import numpy as np

    from evalcore.bpng import PhraseTableStore, write_store
    from evalcore.resources.lm import train_lm
    from parapeval.pem.fluency import FluencyScorer
    from parapeval.pem.metric import PEMFeatures
    from parapeval.pem.model import PEMRegressor, neutral_point, save_pem
    from parapeval.pem.train import feature_matrix, fit_pem, training_pairs
    from tests.parapeval.conftest import LM_TEXT, PAIRS

    folder = Path(tempfile.mkdtemp(prefix="fuzz-pem-"))
    atexit.register(shutil.rmtree, folder, True)
    rows = [(e, float(n), sorted(((f, float(c)) for f, c in tr.items()), key=lambda fc: -fc[1]))
            for e, (n, tr) in TABLE.items()]
    store = write_store(folder / "fr.sqlite", rows,
                        {"signature": "pt:fuzz-toy", "stem": "False"})
    lm = FluencyScorer(train_lm(LM_TEXT, folder / "toy.klm"))
    features = PEMFeatures({"fr": PhraseTableStore(store)}, lm)
    pairs = training_pairs(PAIRS, controls=True, seed=1)
    X, _ = feature_matrix(features, [(p.original, p.paraphrase) for p in pairs])
    model = fit_pem(X, np.array([p.score for p in pairs]), [p.original for p in pairs], PEMRegressor(cv=2))
    info = {"signature": features.signature(), "trained_on": "toy pairs", "licence": "CC0 (written for the tests)",
            "pivots": ["fr"], "discount": None, "neutral": neutral_point(model, X)}
    path = save_pem(model, folder / "toy.npz", info)
    return ("--table", f"fr={store}", "--lm", str(lm.lm_path), "--model", str(path))
