"""The batched DICOMER features equal the features computed one text at a time
(``dicomer_reference``), bit for bit, for every variant and option: on
SummEval summaries through the shipped parser and on random layouts with edge cases (empty,
one sentence, no relation, multi-span arguments, terms in both arguments). The model scores a
batch from the feature table's matrix, which must be the DictVectorizer's matrix of the dicts."""

from __future__ import annotations

import importlib.util
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from coherence.dicomer.analysis import Analysis
from coherence.dicomer.cells import expand_ranges
from coherence.dicomer.config import VARIANTS
from coherence.dicomer.entity_grid import build_grid
from coherence.dicomer.features import batch_features, text_features
from coherence.dicomer.matrix import RoleMatrix, Token, transitions
from coherence.relations import Relation

_spec = importlib.util.spec_from_file_location("dicomer_reference", Path(__file__).parent / "dicomer_reference.py")
assert _spec is not None and _spec.loader is not None
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

CONFIGS = {**VARIANTS,
           "sentences-tf": replace(VARIANTS["DICOMER"], tf_definition="sentences", salience_threshold=3),
           "terms-in-args": replace(VARIANTS["DICOMER+EGRID"], columns="terms_in_args"),
           "separate-count": replace(VARIANTS["DICOMER+EGRID"], en_mode="separate", intra_cell_value="count"),
           "lengths-1-4": replace(VARIANTS["LIN+EGRID"], lengths=(1, 2, 3, 4))}
SENSES = [("Explicit", "Comparison"), ("Explicit", "Temporal"), ("Implicit", "Expansion"),
          ("Implicit", "Contingency"), ("EntRel", None), ("NoRel", None), ("AltLex", "Comparison")]


def random_analysis(rng: random.Random) -> Analysis:
    """A layout of 0-7 sentences over a small vocabulary (salient and not) with random relations."""
    n_sentences = rng.choice([0, 1, 1, 2, 3, 4, 5, 7])
    tokens, pos = [], 0
    for s in range(n_sentences):
        for _ in range(rng.randint(1, 9)):
            term = rng.choice([None, None, "dog", "cat", "run", "red", f"w{rng.randint(0, 30)}"])
            role = rng.choice([None, "S", "O", "X"]) if term else None
            length = rng.randint(1, 6)
            tokens.append(Token(s, pos, pos + length, term, role))
            pos += length + 1
    relations = []
    for _ in range(rng.choice([0, 0, 1, 3, 6])):
        def spans():
            out = []
            for _ in range(rng.randint(1, 3)):
                a = rng.randint(0, max(pos, 1))
                out.append((a, min(a + rng.randint(0, 20), max(pos, 1))))
            return tuple(out)
        rel_type, sense = rng.choice(SENSES)
        relations.append(Relation(rel_type, sense, spans(), spans()))
    return Analysis(n_sentences, tuple(tokens), tuple(relations))


@pytest.fixture(scope="module")
def random_analyses():
    rng = random.Random(17)
    return [random_analysis(rng) for _ in range(300)] + [Analysis(0, (), ())]


@pytest.fixture(scope="module")
def summeval_analyses():
    from evalcore.resources.registry import ResourceError, shared_data_dir

    try:
        data = shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
    except ResourceError as exc:
        pytest.skip(f"public data absent: {exc}")
    from coherence.dicomer.analysis import AnalysisCache
    from coherence.parser.pipeline import DiscourseParser
    from evalcore.data.summeval import read_summeval

    texts = [it.summary for it in read_summeval(data)][::40]
    return AnalysisCache(DiscourseParser(tier=1)).analyse(texts)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_batched_features_equal_one_text_at_a_time(name, random_analyses, summeval_analyses):
    config = CONFIGS[name]
    for analyses in (random_analyses, summeval_analyses):
        expected = [reference.text_features(a, config) for a in analyses]
        got = batch_features(analyses, config)
        assert got == expected
        assert all(type(v) is float for f in got for v in f.values())
        assert [text_features(a, config) for a in analyses[:30]] == expected[:30]


def test_matrix_transitions_equal_the_reference(random_analyses):
    rng = random.Random(3)
    for _ in range(200):
        n_sentences = rng.randint(1, 6)
        triples = [(rng.randrange(n_sentences), rng.choice("abcde"), rng.choice(["x.A", "y.B", "z", "E.x.A"]))
                   for _ in range(rng.randint(0, 12))]
        matrix = RoleMatrix.from_triples(n_sentences, triples, terms=tuple("abcdef"))
        grid = build_grid([(s, t, rng.choice("SOX")) for s, t, _ in triples], n_sentences)
        for n in (1, 2, 3):
            for m, nil in ((matrix, "nil"), (grid, "-")):
                assert transitions(m, m.terms, n, nil) == reference.transitions(m, m.terms, n, nil)


def test_model_matrix_and_scores_are_the_dict_vectorizers(summeval_analyses, random_analyses):
    """The model vectorises the batch's feature dicts with the parser's fast rows: the matrix and
    the scores are those of DictVectorizer.transform, bit for bit."""
    from coherence.dicomer.metric import load_dicomer_model
    from coherence.parser.vectors import rows

    model, _ = load_dicomer_model()
    analyses = list(summeval_analyses) + list(random_analyses)
    dicts = model.features(analyses)
    expected, got = model.vectorizer_.transform(dicts), rows(model.vectorizer_, dicts)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    for attribute in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(got, attribute), getattr(expected, attribute)), attribute
    by_dicts = np.where([not f for f in dicts], model.neutral_score_,
                        model.ranker_.decision_function(expected))
    assert model.decision_function(analyses).tobytes() == by_dicts.tobytes()
    assert len(model.decision_function([])) == 0


def test_expand_ranges():
    assert expand_ranges(np.array([3, 0, 7]), np.array([2, 0, 3])).tolist() == [3, 4, 7, 8, 9]
    assert expand_ranges(np.array([], dtype=np.int64), np.array([], dtype=np.int64)).tolist() == []
