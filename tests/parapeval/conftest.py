"""Tiny resources built once per test session in a tmp dir: a toy phrase table, a toy LM."""

import pytest

from evalcore.bpng import MemoryPhraseTable
from parapeval.fluency import FluencyScorer, train_lm

LM_TEXT = [
    "the cat sleeps on the mat .", "the dog sleeps on the rug .", "a cat eats fish .",
    "a dog eats meat .", "the cat is on the mat .", "the dog is in the house .",
    "my friend opens the door .", "she opens the window .", "he closes the door .",
] * 5


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
