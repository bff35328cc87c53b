"""PET factorisation and BEER's word-order features: the paper's examples (Figure 1, §3) and
random permutations against a brute-force enumeration of every PET."""

import functools
import itertools
import random

import pytest

from mteval.beer.pet import catalan, factorise, fluency_features, kendall_distance, ranks


def _is_simple(op):
    """No proper run of 2..k-1 adjacent positions of ``op`` holds an interval of values."""
    k = len(op)
    return not any(max(op[i:j]) - min(op[i:j]) == j - i - 1
                   for i in range(k) for j in range(i + 2, k + 1) if j - i < k)


def brute_force(perm):
    """Every PET of ``perm`` by enumeration: each node splits its span into >= 2 interval blocks
    whose pattern is an atomic operator. Returns (number of PETs, set of operator multisets)."""
    perm = tuple(perm)

    @functools.cache
    def trees(i, j):  # PETs of perm[i:j], an interval block: list of operator-count tuples
        if j - i == 1:
            return [(0, 0, 0, 0)]
        out = []
        for cuts in itertools.chain.from_iterable(
                itertools.combinations(range(i + 1, j), m) for m in range(1, j - i)):
            bounds = (i, *cuts, j)
            parts = [perm[a:b] for a, b in zip(bounds, bounds[1:])]
            if any(max(p) - min(p) != len(p) - 1 for p in parts):
                continue
            op = tuple(ranks([min(p) for p in parts]))
            if not _is_simple(op):
                continue
            own = (op == (1, 2), op == (2, 1), len(op) == 4, len(op) > 4)
            for combo in itertools.product(*(trees(a, b) for a, b in zip(bounds, bounds[1:]))):
                out.append(tuple(int(o) + sum(c[k] for c in combo) for k, o in enumerate(own)))
        return out

    found = trees(0, len(perm))
    return len(found), set(found)


def test_catalan():
    assert [catalan(n) for n in range(7)] == [1, 1, 2, 5, 14, 42, 132]


def test_paper_fully_inverted_has_five_pets():
    c = factorise([4, 3, 2, 1])  # Figure 1c-g: one run of three inverted nodes, Cat(3) = 5
    assert (c.monotone, c.inverted, c.prime4, c.prime_longer, c.trees) == (0, 3, 0, 0, 5)


def test_paper_inversions_pet():
    c = factorise([2, 1, 4, 3])  # Figure 1b: <1,2> over two <2,1>
    assert (c.monotone, c.inverted, c.prime4, c.trees) == (1, 2, 0, 1)


def test_paper_complex_pet():
    # Figure 1a: <2,4,1,3> over 2, <2,1>(<1,2>(5, 6), 4), 1, 3
    c = factorise([2, 5, 6, 4, 1, 3])
    assert (c.monotone, c.inverted, c.prime4, c.prime_longer, c.trees) == (1, 1, 1, 0, 1)


def test_paper_grouping_example():
    # §3: <3,2,1,4> brackets in more ways than <2,4,3,1>, with the same operators
    a, b = factorise([3, 2, 1, 4]), factorise([2, 4, 3, 1])
    assert (a.monotone, a.inverted) == (b.monotone, b.inverted) == (1, 2)
    assert a.trees == 2 and b.trees == 1


def test_prime_longer_than_four():
    c = factorise([2, 4, 1, 5, 3])  # simple of length 5
    assert (c.prime4, c.prime_longer, c.monotone, c.inverted) == (0, 1, 0, 0)


@pytest.mark.parametrize("n", range(1, 8))
def test_random_permutations_against_brute_force(n):
    rng = random.Random(n)
    for _ in range(25):
        perm = list(range(1, n + 1))
        rng.shuffle(perm)
        count, operator_sets = brute_force(perm)
        c = factorise(perm)
        assert c.trees == count, perm
        assert operator_sets == {(c.monotone, c.inverted, c.prime4, c.prime_longer)}, perm


def test_kendall_distance_against_pairs():
    rng = random.Random(3)
    for n in range(2, 12):
        perm = list(range(1, n + 1))
        rng.shuffle(perm)
        inverted = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        assert kendall_distance(perm) == pytest.approx(inverted / (n * (n - 1) / 2))


def test_fluency_features():
    assert fluency_features([1, 2, 3, 4]) == (1.0, 0.0, 0.0, 0.0, 1.0, 1.0)
    mono, inv, p4, longer, count, kendall = fluency_features([3, 2, 1, 4])
    assert (mono, inv, p4, longer) == (1 / 3, 2 / 3, 0.0, 0.0)
    assert count == pytest.approx(2 / 5) and kendall == pytest.approx(0.5)
    assert fluency_features([4, 3, 2, 1])[4] == 1.0  # fully inverted: perfectly grouped
    assert fluency_features([1]) == fluency_features([]) == (1.0, 0.0, 0.0, 0.0, 1.0, 1.0)


def test_not_a_permutation():
    with pytest.raises(ValueError, match="not a permutation"):
        factorise([1, 3])
