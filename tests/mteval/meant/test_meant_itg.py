"""IMEANT's bracketing-ITG inside score against brute force over all bracketings and by hand."""

import math

import numpy as np
import pytest

from mteval.meant.itg import (
    IMEANT_WEIGHTS,
    XMEANT_WEIGHTS,
    ItgWeights,
    inside_score,
    itg_similarity,
    itg_viterbi_similarity,
)
from mteval.meant.lexsim import ExactSimilarity


def _leaf_sequences(ne, nf):
    """In-order leaf lists (e index or None, f index or None): e indices 0..ne-1 in order, every
    f index exactly once, no eps/eps leaf."""
    def grow(i, unused):
        if i == ne and not unused:
            yield []
            return
        options = [(i, j) for j in sorted(unused)] + [(i, None)] if i < ne else []
        options += [(None, j) for j in sorted(unused)]
        for e, f in options:
            for rest in grow(i + (e is not None), unused - ({f} if f is not None else set())):
                yield [(e, f)] + rest
    return list(grow(0, frozenset(range(nf))))


def _trees(leaves):
    """Every binary tree over a leaf list with every node straight or inverted: (f-yield,
    straight count, inverted count) per tree."""
    if len(leaves) == 1:
        e, f = leaves[0]
        return [([] if f is None else [f], 0, 0)]
    out = []
    for cut in range(1, len(leaves)):
        for lf, ls, li in _trees(leaves[:cut]):
            for rf, rs, ri in _trees(leaves[cut:]):
                out.append((lf + rf, ls + rs + 1, li + ri))
                out.append((rf + lf, ls + rs, li + ri + 1))
    return out


def brute_force(sim, weights, best=False):
    """Sum (or max) over every ITG derivation of the pair, enumerated tree by tree."""
    ne, nf = sim.shape
    total = []
    for leaves in _leaf_sequences(ne, nf):
        lex = 1.0
        for e, f in leaves:
            lex *= weights.null if e is None or f is None else sim[e, f] * weights.lexical_scale
        for f_yield, n_s, n_i in _trees(leaves):
            if f_yield == list(range(nf)):
                total.append(lex * weights.straight ** n_s * weights.inverted ** n_i)
    return max(total) if best else sum(total)


SHAPES = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 2), (2, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("weights", [IMEANT_WEIGHTS, XMEANT_WEIGHTS, ItgWeights(0.3, 0.7, 0.9, 0.2)])
def test_inside_equals_brute_force(shape, weights):
    sim = np.random.default_rng(sum(shape)).random(shape)
    got = inside_score(sim, weights)
    assert got.exact
    assert got.inside == pytest.approx(brute_force(sim, weights), rel=1e-12)
    assert got.normalised == pytest.approx(got.inside ** (1 / max(shape)))


@pytest.mark.parametrize("shape", SHAPES)
def test_viterbi_equals_brute_force_max(shape):
    sim = np.random.default_rng(7 + sum(shape)).random(shape)
    weights = ItgWeights(0.8, 0.6, 1.0, 0.3)
    assert inside_score(sim, weights, mode="viterbi").inside == pytest.approx(brute_force(sim, weights, best=True))


def test_one_token_pair_by_hand():
    # s + the four null derivations [e/eps eps/f], [eps/f e/eps] and their inversions
    w = ItgWeights(0.5, 0.25, 1.0, 0.1)
    assert inside_score(np.array([[0.6]]), w).inside == pytest.approx(0.6 + 2 * 0.01 * 0.5 + 2 * 0.01 * 0.25)


def test_straight_and_inverted_by_hand():
    w = ItgWeights(0.5, 0.25, 1.0, 0.0)
    assert inside_score(np.eye(2), w).inside == pytest.approx(0.5)
    assert inside_score(np.eye(2)[::-1], w).inside == pytest.approx(0.25)
    assert inside_score(np.eye(2)[::-1], w).normalised == pytest.approx(0.5)
    # identity of three tokens: two straight bracketings, each with two straight rules
    assert inside_score(np.eye(3), w).inside == pytest.approx(2 * 0.5 ** 2)


def test_itg_constraint_excludes_inside_out_permutation():
    no_null = ItgWeights(1.0, 1.0, 1.0, 0.0)
    perm = np.zeros((4, 4))
    perm[[0, 1, 2, 3], [1, 3, 0, 2]] = 1.0  # 2413: not reachable by any bracketing
    assert inside_score(perm, no_null).inside == 0.0
    perm = np.zeros((4, 4))
    perm[[0, 1, 2, 3], [1, 0, 3, 2]] = 1.0  # 2143: reachable
    assert inside_score(perm, no_null, mode="viterbi").inside == 1.0


def test_paper_weights_pass_one_on_long_identical_phrases():
    # the decision itg_similarity bounds: Catalan(n-1) straight bracketings of the identity
    no_null = ItgWeights(1.0, 1.0, 1.0, 0.0)
    assert inside_score(np.eye(5), no_null).inside == pytest.approx(14)
    assert inside_score(np.eye(5), no_null, mode="viterbi").inside == pytest.approx(1.0)


@pytest.mark.parametrize("shape", [(7, 7), (9, 5), (5, 11), (13, 12)])
def test_bounded_charts_are_lower_bounds(shape):
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    sim = rng.random(shape) * 0.3
    sim[np.arange(min(shape)), rng.permutation(min(shape))] = 1.0
    for mode in ("inside", "viterbi"):
        exact = inside_score(sim, IMEANT_WEIGHTS, exact_max=99, mode=mode)
        for exact_max, slack in ((5, 1), (5, 4), (3, 2), (2, 1)):
            bound = inside_score(sim, IMEANT_WEIGHTS, exact_max=exact_max, slack=slack, mode=mode)
            assert not bound.exact and exact.exact
            assert 0 < bound.inside <= exact.inside * (1 + 1e-12)


def test_wide_slack_recovers_exact_score():
    sim = np.random.default_rng(3).random((6, 6))
    exact = inside_score(sim, XMEANT_WEIGHTS, exact_max=99)
    wide = inside_score(sim, XMEANT_WEIGHTS, exact_max=5, slack=12)  # one chunk, no constituent cut
    assert wide.inside == pytest.approx(exact.inside) and not wide.exact


def test_bad_input():
    assert inside_score(np.zeros((0, 3))).normalised == 0.0
    with pytest.raises(ValueError, match="finite"):
        inside_score(np.array([[math.nan]]))
    with pytest.raises(ValueError, match="2-d"):
        inside_score(np.zeros(3))
    with pytest.raises(ValueError, match="mode"):
        inside_score(np.eye(2), mode="max")
    with pytest.raises(ValueError, match="null"):
        ItgWeights(null=-1.0)


def test_paper_filler_similarity_is_bounded_on_identical_phrases():
    m = ExactSimilarity()
    long = "a b c d e f g h".split()
    assert inside_score(m.matrix(long, long)).normalised > 1 and itg_similarity(m.matrix(long, long)) == 1.0
    assert itg_viterbi_similarity(m.matrix("the cat sat".split(), "the cat sat".split())) == 1.0
    assert itg_viterbi_similarity(m.matrix("the cat".split(), ["cat"])) == pytest.approx(math.sqrt(0.1))


def test_filler_similarities_on_token_blocks():
    block = np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])  # "a x b" against "a b"
    assert itg_viterbi_similarity(block) == pytest.approx(0.1 ** (1 / 3))
    assert itg_similarity(block) == pytest.approx(min(1.0, inside_score(block).normalised))
    assert itg_similarity(block) >= itg_viterbi_similarity(block)
    assert itg_similarity(np.zeros((0, 2))) == 0.0 and itg_viterbi_similarity(np.ones((30, 30))) == 1.0
