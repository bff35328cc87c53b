"""Tiny resources built once per test session in a tmp dir: a toy phrase table (in memory and as a
store), a toy LM, a PEM model trained on toy pairs and saved as a model file, and PEM on them."""

import numpy as np
import pytest

from evalcore.bpng import MemoryPhraseTable, PhraseTableStore, write_store
from evalcore.resources.lm import train_lm
from parapeval.data import ScoredPair
from parapeval.pem.fluency import FluencyScorer
from parapeval.pem.metric import PEM, PEMFeatures
from parapeval.pem.model import PEMRegressor, neutral_point, save_pem
from parapeval.pem.train import feature_matrix, fit_pem, training_pairs

LM_TEXT = [
    "the cat sleeps on the mat .", "the dog sleeps on the rug .", "a cat eats fish .",
    "a dog eats meat .", "the cat is on the mat .", "the dog is in the house .",
    "my friend opens the door .", "she opens the window .", "he closes the door .",
] * 5

PAIRS = [
    ScoredPair("the cat sleeps .", "the feline dozes .", 1.0),
    ScoredPair("the cat sleeps .", "the cat dozes .", 0.8),
    ScoredPair("the cat sleeps .", "sleeps the . cat", 0.1),
    ScoredPair("the cat sleeps .", "a dog eats meat .", 0.0),
    ScoredPair("the dog sleeps .", "the dog dozes .", 0.9),
    ScoredPair("the dog sleeps .", "the hound dozes .", 0.9),
    ScoredPair("the dog sleeps .", "dog . the sleeps", 0.1),
    ScoredPair("the dog sleeps .", "she opens the window .", 0.0),
    ScoredPair("the cat is on the mat .", "the feline is on the mat .", 0.9),
    ScoredPair("the cat is on the mat .", "mat the on is cat the .", 0.0),
    ScoredPair("a cat eats fish .", "a feline eats fish .", 0.9),
    ScoredPair("a cat eats fish .", "he closes the door .", 0.0),
]


@pytest.fixture(scope="session")
def toy_pairs():
    """Human-scored toy pairs (original, paraphrase, score) in Twitter-Para's 0-1 range."""
    return list(PAIRS)


@pytest.fixture(scope="session")
def toy_lm(tmp_path_factory):
    return FluencyScorer(train_lm(LM_TEXT, tmp_path_factory.mktemp("lm") / "toy.klm"))


@pytest.fixture(scope="session")
def toy_table():
    return MemoryPhraseTable({
        ("the",): (40, {("le",): 30, ("la",): 10}), ("cat",): (10, {("chat",): 10}),
        ("dog",): (10, {("chien",): 10}), ("sleep",): (5, {("dort",): 5}), ("sleeps",): (5, {("dort",): 5}),
        ("the", "cat"): (8, {("le", "chat"): 8}), ("on", "the", "mat"): (3, {("sur", "le", "tapis"): 3}),
        ("feline",): (2, {("chat",): 2}), ("doze",): (2, {("dort",): 1, ("somnole",): 1}),
        ("dozes",): (2, {("dort",): 1, ("somnole",): 1}),
        (".",): (50, {(".",): 50}),
    }, name="toy")


@pytest.fixture(scope="session")
def toy_store(toy_table, tmp_path_factory):
    """The toy table written as the on-disk store PEM reads."""
    return write_store(tmp_path_factory.mktemp("pt") / "fr.sqlite",
                       [(e, entry.count, entry.translations) for e, entry in toy_table._entries.items()],
                       {"signature": "pt:toy", "stem": "False"})


@pytest.fixture(scope="session")
def toy_training(toy_store, toy_lm):
    """(features, X, y, pairs) of the toy pairs plus the paper's controls."""
    features = PEMFeatures({"fr": PhraseTableStore(toy_store)}, toy_lm)
    pairs = training_pairs(PAIRS, controls=True, seed=1)
    X, _ = feature_matrix(features, [(p.original, p.paraphrase) for p in pairs])
    return features, X, np.array([p.score for p in pairs]), pairs


@pytest.fixture(scope="session")
def toy_model(toy_training, tmp_path_factory):
    """A PEM model fitted on the toy pairs, saved as a model file; returns its path."""
    features, X, y, pairs = toy_training
    model = fit_pem(X, y, [p.original for p in pairs], PEMRegressor(cv=2))
    info = {"signature": features.signature(), "trained_on": "toy pairs", "licence": "CC0 (written for the tests)",
            "pivots": ["fr"], "discount": None, "neutral": neutral_point(model, X)}
    return save_pem(model, tmp_path_factory.mktemp("model") / "toy.npz", info)


@pytest.fixture(scope="session")
def toy_pem(toy_model, toy_store, toy_lm):
    return PEM(model=str(toy_model), tables={"fr": str(toy_store)}, lm=str(toy_lm.lm_path))


@pytest.fixture(scope="session")
def resource_args(toy_model, toy_store, toy_lm):
    """CLI options naming the toy phrase table, the toy LM and the toy model."""
    return ["--table", f"fr={toy_store}", "--lm", str(toy_lm.lm_path), "--model", str(toy_model)]
