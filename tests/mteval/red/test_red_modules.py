"""REDp's modules, each alone: stem and WordNet-synonym alignment, module weights, the
function-word weight, and paraphrase-ngrams from a toy pivot phrase table."""

import pytest

from evalcore.bpng.table import MemoryPhraseTable
from mteval.red.align import align
from mteval.red.depngrams import DepTree, dep_ngrams
from mteval.red.paraphrase import PivotParaphrases
from mteval.red.score import Weights, aligned_stats, fmeasures

# reference "dogs bark": bark is the root, dogs depends on it
TREE = DepTree(("dogs", "bark"), (1, -1), (False, False))
GRAMS = dep_ngrams(TREE)  # D1 = 2 words, D2 = chain bark->dogs + fixed "dogs bark" = 2


def _redp(w_fun=None, modules=(1.0, 0.6, 0.5), w_par=0.0, ngram=(1.0, 0.0, 0.0)):
    return Weights.one(0.5, w_fun, modules, w_par, ngram)


def test_alignment_is_staged_exact_then_stem_then_synonym():
    assert align(("dogs", "bark"), ("dogs", "bark")) == [(0, "exact"), (1, "exact")]
    assert align(("dogs", "bark"), ("dog", "barking")) == [(0, "stem"), (1, "stem")]
    assert align(("car", "stopped"), ("automobile", "stopped")) == [(0, "syn"), (1, "exact")]
    assert align(("car",), ("banana",)) == [None]
    # exact wins over a synonym of the same word elsewhere
    assert align(("car",), ("automobile", "car")) == [(1, "exact")]


def test_repeated_words_align_by_relative_position():
    assert align(("the", "cat", "saw", "the", "dog"), ("the", "dog", "saw", "the", "cat"))[0] == (0, "exact")
    assert align(("a", "x", "a"), ("a", "a"))[2] == (1, "exact")


def test_module_weights_average_over_a_dep_ngrams_words():
    hyp = ("dog", "bark")  # dogs~dog by stem, bark exact
    stats = aligned_stats(TREE, GRAMS, hyp, align(TREE.words, hyp))
    f = fmeasures(stats, _redp(modules=(1.0, 0.6, 0.5)))[0, 0]
    # n = 1: 1.0 + 0.6 matched of 2 words, 2 hypothesis words: P = R = F = 0.8
    # n = 2: chain and fixed string each s_mod = (1.0 + 0.6) / 2 = 0.8: P = R = F = 0.8
    assert f[:2] == pytest.approx([0.8, 0.8])
    syn = ("hounds", "bark")
    stats = aligned_stats(TREE, GRAMS, syn, align(TREE.words, syn))
    assert fmeasures(stats, _redp(modules=(1.0, 0.6, 0.5)))[0, 0, 0] == pytest.approx(0.75)


def test_fixed_floating_needs_contiguous_aligned_words():
    hyp = ("dogs", "loudly", "bark")
    stats = aligned_stats(TREE, GRAMS, hyp, align(TREE.words, hyp))
    # n = 2: chain bark->dogs, ref distance 1 vs 2 -> exp(-1); the fixed string is broken
    f2 = fmeasures(stats, _redp(ngram=(0, 1, 0)))[0, 0, 1]
    import math

    p, r = math.exp(-1) / 3, math.exp(-1) / 2
    assert f2 == pytest.approx(2 * p * r / (p + r))


def test_function_word_weight():
    tree = DepTree(("the", "dog"), (1, -1), (True, False))
    grams = dep_ngrams(tree)
    hyp = ("the", "dog")
    stats = aligned_stats(tree, grams, hyp, align(tree.words, hyp))
    # n = 1 with w_fun = 0.2: the -> 0.2, dog -> 0.8: P = R = 1.0 / 2
    assert fmeasures(stats, _redp(w_fun=0.2))[0, 0, 0] == pytest.approx(0.5)
    # n = 2: s_fun = (0.2 + 0.8) / 2 = 0.5 for the chain and the string
    assert fmeasures(stats, _redp(w_fun=0.2))[0, 0, 1] == pytest.approx(0.5)
    assert fmeasures(stats, _redp(w_fun=0.5))[0, 0, 0] == pytest.approx(0.5)
    assert fmeasures(stats, _redp(w_fun=None))[0, 0, 0] == pytest.approx(1.0)


# English phrase -> (N(e), {pivot phrase: N(e, f)}), lowercased and unstemmed (no stem metadata)
TABLE = MemoryPhraseTable({
    ("passed",): (10, {("adopté",): 6, ("passé",): 4}),
    ("approved",): (8, {("adopté",): 8}),
    ("gave", "up"): (4, {("abandonné",): 4}),
    ("abandoned",): (6, {("abandonné",): 6}),
})


def test_pivot_paraphrase_probability():
    para = PivotParaphrases({"fr": TABLE}, min_prob=0.05)
    probs = para.probabilities(("they", "passed", "it"), ("they", "approved", "it"))
    # p(approved | passed) = t(adopté | passed) * N(approved, adopté) / N(adopté) = 0.6 * 8 / 14
    assert probs[((1, 2), (1, 2))] == pytest.approx(0.6 * 8 / 14)
    assert para.pairs(("they", "gave", "up"), ("they", "abandoned"))[0][:4] == (1, 3, 1, 2)
    assert PivotParaphrases({"fr": TABLE}, min_prob=0.9).pairs(("passed",), ("approved",)) == []


def test_paraphrase_ngrams_enter_precision_and_recall():
    tree = DepTree(("they", "gave", "up"), (1, -1, 1), (True, False, True))
    grams = dep_ngrams(tree)
    hyp = ("they", "abandoned")
    pairs = PivotParaphrases({"fr": TABLE}).pairs(tree.words, hyp)
    without = aligned_stats(tree, grams, hyp, align(tree.words, hyp))
    with_par = aligned_stats(tree, grams, hyp, align(tree.words, hyp), pairs)
    w = _redp(w_fun=0.2, w_par=0.6, ngram=(0, 1, 0))
    assert fmeasures(without, w)[0, 0, 1] == 0.0
    # one paraphrase-ngram of length 2 ("gave up": one function word): score 0.6 * (0.2 + 0.8) / 2 = 0.3;
    # P = 0.3 / 2, R = 0.3 / (count_2(ref) + 1)
    p, r = 0.3 / 2, 0.3 / (grams.count(2) + 1)
    assert fmeasures(with_par, w)[0, 0, 1] == pytest.approx(2 * p * r / (p + r))
