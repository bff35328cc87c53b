"""Token similarities of the MEANT family on tiny corpora and tables (hand-computed values)."""

import math

import numpy as np
import pytest
from scipy import sparse

from mteval.meant.lexsim import (
    ContextVectorSimilarity,
    ExactSimilarity,
    Ibm1Similarity,
    LexicalTable,
    WordNetSimilarity,
    cooccurrence_counts,
    link_probabilities,
    minmax_rows,
    similarity,
)

TINY = [["x", "c1"], ["y", "c1"], ["x", "c2"]]


def test_exact_is_lowercased_identity():
    m = ExactSimilarity().matrix(["The", "cat", "the"], ["the", "Cat"])
    assert m.tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]
    assert ExactSimilarity().matrix([], ["a"]).shape == (0, 1)


def test_cooccurrence_counts_window_stays_in_sentence():
    words, counts, freq = cooccurrence_counts([["a", "b", "c"], ["c", "a"]], window=1)
    assert words == ["a", "b", "c"]
    assert counts.toarray().tolist() == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    assert freq.tolist() == [2, 1, 2]
    _, wide, _ = cooccurrence_counts([["a", "b", "c"], ["c", "a"]], window=2)
    assert wide[0, 2] == 2  # a-c at distance 2 in the first sentence and 1 in the second


def test_minmax_mi_by_hand():
    # MI(x,c1) = log(1*6/(2*2)), MI(x,c2) = log 3, MI(y,c1) = log 3: min-sum log 1.5, max-sum 2 log 3
    sim = ContextVectorSimilarity(window=1, sentences=TINY)
    assert sim.matrix(["x"], ["y"])[0, 0] == pytest.approx(math.log(1.5) / (2 * math.log(3)))


def test_cosine_by_hand():
    # f(x) = (1/2, 1/1) over (c1, c2), f(y) = (1/2, 0): cosine 1/sqrt(5)
    sim = ContextVectorSimilarity("cosine", window=1, sentences=TINY)
    assert sim.matrix(["X"], ["y"])[0, 0] == pytest.approx(1 / math.sqrt(5))


@pytest.mark.parametrize("measure", ContextVectorSimilarity.MEASURES)
def test_context_similarity_properties(measure):
    corpus = [s.split() for s in ["the cat sat on the mat", "the dog sat on the rug", "a cat ate a rat",
                                  "a dog ate a bone", "the man read the book"]]
    sim = ContextVectorSimilarity(measure, window=3, sentences=corpus)
    a, b = ["cat", "dog", "oov", "the"], ["dog", "mat", "OOV", "read", "cat"]
    m = sim.matrix(a, b)
    assert m.shape == (4, 5) and np.all((m >= 0) & (m <= 1))
    np.testing.assert_allclose(m, sim.matrix(b, a).T)
    assert m[0, 4] == 1.0 and m[1, 0] == 1.0 and m[2, 2] == 1.0  # identity, case and OOV identity
    assert m[2, [0, 1, 3, 4]].tolist() == [0.0] * 4  # an unknown token matches only itself
    assert m[0, 0] > m[0, 3]  # cat is nearer dog than read
    assert sim.describe()["measure"] == measure and sim.describe()["corpus"].startswith("given:")


def test_minmax_rows_blocks_agree():
    rng = np.random.default_rng(0)
    x, y = rng.random((7, 5)) * (rng.random((7, 5)) > 0.4), rng.random((3, 5))
    direct = np.minimum(x[:, None], y[None]).sum(-1) / np.maximum(x[:, None], y[None]).sum(-1)
    np.testing.assert_allclose(minmax_rows(x, y, block=4), direct)


def test_bad_settings_are_errors():
    with pytest.raises(ValueError, match="measure"):
        ContextVectorSimilarity("euclid")
    with pytest.raises(ValueError, match="window"):
        ContextVectorSimilarity(window=0)
    with pytest.raises(TypeError):
        ExactSimilarity().matrix("a cat", ["a"])
    with pytest.raises(ValueError, match="unknown token similarity"):
        similarity("bleu")


def test_wordnet_similarity():
    m = WordNetSimilarity().matrix(["car", "dog", "the"], ["automobile", "cat", "dog"])
    assert m[0, 0] == 1.0  # car.n.01 is a synset of both
    assert 0.5 < m[1, 1] < 1.0  # Wu-Palmer of dog/cat through carnivore
    assert m[1, 2] == 1.0 and m[2, 0] == 0.0 and m[2, 1] == 0.0
    np.testing.assert_allclose(m, WordNetSimilarity().matrix(["automobile", "cat", "dog"], ["car", "dog", "the"]).T)


def _hand_table() -> LexicalTable:
    e_sents, f_sents = [["the", "house"], ["the", "car"]], [["das", "haus"], ["auto"]]
    links = [{(0, 0), (1, 1)}, {(1, 0)}]  # "the" unaligned in the second pair
    english, pivot = {"car": 0, "house": 1, "the": 2}, {"auto": 0, "das": 1, "haus": 2}
    fe = link_probabilities(e_sents, f_sents, links, english, pivot, given_english=True)
    ef = link_probabilities(e_sents, f_sents, links, english, pivot, given_english=False)
    return LexicalTable(["car", "house", "the"], ["auto", "das", "haus"], fe, ef, "hand")


def test_link_probabilities_by_hand():
    table = _hand_table()
    # t(das | the) = 1 link / (1 link + 1 unaligned occurrence); t(the | das) = 1
    assert table.t_f_given_e[2, 1] == pytest.approx(0.5)
    assert table.t_e_given_f[2, 1] == pytest.approx(1.0)
    assert table.joint[2, 1] == pytest.approx(math.sqrt(0.5))
    assert table.joint[1, 2] == pytest.approx(1.0) and table.joint[0, 0] == pytest.approx(1.0)


def test_lexical_table_round_trip(tmp_path):
    table = _hand_table()
    table.save(tmp_path / "t.npz")
    back = LexicalTable.load(tmp_path / "t.npz")
    assert back.signature == "hand" and back.english == table.english and back.pivot == table.pivot
    np.testing.assert_allclose(back.joint.toarray(), table.joint.toarray(), rtol=1e-6)


def test_ibm1_orientation_and_backoff():
    en_de = Ibm1Similarity("en", "de", table=_hand_table())
    m = en_de.matrix(["The", "house", "Berlin", "car"], ["das", "Haus", "Berlin", "auto"])
    assert m[0, 0] == pytest.approx(math.sqrt(0.5)) and m[1, 1] == pytest.approx(1.0)
    assert m[2, 2] == 1.0 and m[3, 3] == pytest.approx(1.0) and m[0, 1] == 0.0
    de_en = Ibm1Similarity("de", "en", table=_hand_table())
    np.testing.assert_allclose(de_en.matrix(["das", "Haus", "Berlin", "auto"], ["The", "house", "Berlin", "car"]), m.T)
    strict = Ibm1Similarity("en", "de", exact_backoff=False, table=_hand_table())
    assert strict.matrix(["Berlin"], ["Berlin"])[0, 0] == 0.0
    assert en_de.describe()["table"] == "hand" and en_de.describe()["pair"] == "en-de"


def test_ibm1_needs_english_on_one_side():
    with pytest.raises(ValueError, match="English"):
        Ibm1Similarity("de", "fr")
    with pytest.raises(ValueError, match="English"):
        Ibm1Similarity("en", "en")


def test_lexical_table_from_sparse_parts_is_consistent():
    fe = sparse.csr_matrix(np.array([[0.5, 0.0], [0.0, 1.0]]))
    ef = sparse.csr_matrix(np.array([[0.5, 0.2], [0.0, 0.25]]))
    table = LexicalTable(["a", "b"], ["x", "y"], fe, ef, "s")
    np.testing.assert_allclose(table.joint.toarray(), [[0.5, 0.0], [0.0, 0.5]])
