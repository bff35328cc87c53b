"""evalcore.stats properties that need no reference: seeded runs identical, a bootstrap copy of
a system is no pair for acc-eq, global accuracy counts, clusters, designs and intervals."""

import numpy as np
import pytest

from evalcore.stats.clusters import rank_clusters
from evalcore.stats.compare import compare
from evalcore.stats.pairwise import acc_eq, global_accuracy
from evalcore.stats.resampling import Draws, draw, estimate, resampled


def _pair(seed=0, n=8, m=30, noise=0.5):
    rng = np.random.default_rng(seed)
    z = rng.random((n, m)) + np.linspace(0, 1, n)[:, None]
    return z + rng.normal(0, noise, z.shape), z


def test_seeded_estimates_and_tests_are_identical():
    x, z = _pair()
    for design in ("inputs", "systems", "both"):
        a = estimate(x, z, "item", "kendall-b", design=design, n_resamples=200, seed=3, ci="bca")
        assert a == estimate(x, z, "item", "kendall-b", design=design, n_resamples=200, seed=3, ci="bca")
        assert a.ci_low is not None and a.ci_high is not None and a.ci_low <= a.value <= a.ci_high  # type: ignore[operator]
    y = x + np.random.default_rng(1).normal(0, 1, x.shape)
    assert compare(x, y, z, "system", "pearson", "perm-both", n_samples=300, seed=2) == \
        compare(x, y, z, "system", "pearson", "perm-both", n_samples=300, seed=2)


def test_inputs_design_draws_the_documents_of_the_older_module():
    """BOOT-INPUTS draws what evalcore.stats.correlation.resample_documents drew for the same seed."""
    from evalcore.stats.correlation import resample_documents

    assert (draw("inputs", 5, 40, 100, 7).cols == resample_documents(40, 100, seed=7)).all()  # type: ignore[union-attr]


def test_a_system_drawn_twice_is_no_pair_for_acc_eq():
    x = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]])
    z = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    draws = Draws(np.array([[0, 0, 1]]), None)  # system 0 twice, system 1 once
    value = float(resampled(x, z, "item", "acc-eq", draws)[0][0])
    # per input only the pair (0, 1) of distinct systems counts, twice: input 1 right, input 2 wrong
    assert value == pytest.approx(0.5, abs=1e-15)
    assert float(acc_eq(x[[0, 0, 1]].T, z[[0, 0, 1]].T, 0.0)[0]) == pytest.approx(2 / 3, abs=1e-15)  # copies counted


def test_global_accuracy_pools_pairs_over_sets_and_counts_human_ties():
    a = (np.array([[1.0], [2.0], [3.0]]), np.array([[1.0], [3.0], [2.0]]))  # 2 of 3 pairs agree
    b = (np.array([[1.0], [2.0]]), np.array([[5.0], [5.0]]))                # one human tie
    got = global_accuracy([a, b])
    assert (got.value, got.n_pairs, got.n_human_ties) == (2 / 3, 3, 1)


def test_clusters_follow_the_head_and_skip_undefined():
    values = {"a": 0.9, "b": 0.85, "c": 0.5, "d": 0.45, "e": None}
    p = {("a", "b"): 0.3, ("a", "c"): 0.01, ("c", "d"): 0.2}
    ranks = rank_clusters(values, lambda x, y: p[(x, y)])
    assert [ranks[k].rank for k in "abcde"] == [1, 1, 2, 2, None]
    assert ranks["d"].head == "c" and ranks["d"].p_value == 0.2 and ranks["a"].p_value is None


def test_a_metric_is_never_significantly_better_than_itself():
    x, z = _pair(2)
    for test in ("perm-both", "perm-systems", "perm-inputs", "bootstrap"):
        got = compare(x, x, z, "item", "pearson", test, n_samples=200)
        assert got.delta == 0 and got.p_value is not None and got.p_value >= 0.5


def test_both_design_is_at_least_as_wide_as_either_alone_at_system_level():
    x, z = _pair(4, n=12, m=60)
    width = {}
    for d in ("inputs", "systems", "both"):
        e = estimate(x, z, "system", "kendall-b", design=d, n_resamples=500)
        assert e.ci_low is not None and e.ci_high is not None
        width[d] = e.ci_high - e.ci_low
    assert width["both"] >= max(width["inputs"], width["systems"]) - 0.05


@pytest.mark.parametrize("design", ["inputs", "systems", "both"])
@pytest.mark.parametrize("statistic, epsilon", [("pearson", 0.0), ("spearman", 0.0), ("kendall-b", 0.0),
                                                ("acc-eq", 0.0), ("acc-eq", 0.5), ("acc-eq", None)])
def test_item_level_draw_counts_equal_stacked_submatrices(design, statistic, epsilon):
    """The weighted item-level path (evalcore.stats.weighted) gives the values (1e-12) and the
    calibrated epsilons (exactly) of the stacked sub-matrices, missing cells and ties included."""
    from evalcore.stats import levels

    rng = np.random.default_rng(0)
    z = np.round(rng.random((7, 20)) * 4, 1)
    x = np.round(z + rng.normal(0, 1, z.shape), 1)
    x[1, 3] = z[1, 3] = x[2, 5] = z[4, 7] = np.nan
    d = draw(design, 7, 20, 200, 1)
    fast = resampled(x, z, "item", statistic, d, epsilon)
    slow = levels.values(d.take(x, 0, 200), d.take(z, 0, 200), "item", statistic, epsilon, d.origin(7, 20, 0, 200))
    np.testing.assert_allclose(fast[0], slow[0], rtol=0, atol=1e-12)
    if statistic == "acc-eq":
        np.testing.assert_array_equal(fast[1], slow[1])


def test_soft_pairwise_accuracy_leaves_out_copies_of_a_system():
    """A bootstrap copy of a system against itself would add a pair both sides call p = 1: with
    rows (0, 0, 1, 2) the pairs are (0, 1) and (0, 2) twice and (1, 2) once (tolerance 1e-12)."""
    from evalcore.stats.pairwise import pairwise_p_values, permutation_signs, soft_pairwise_accuracy

    x, z = _pair(5, n=3, m=40)
    signs = permutation_signs(1000, 40, 4)
    d = np.abs(pairwise_p_values(x, signs) - pairwise_p_values(z, signs))
    expected = 1 - (2 * d[0, 1] + 2 * d[0, 2] + d[1, 2]) / 5
    rows = np.array([0, 0, 1, 2])
    assert soft_pairwise_accuracy(x[rows], z[rows], ids=rows).value == pytest.approx(expected, abs=1e-12)
    est = estimate(x, z, "system", "spa", design="systems", n_resamples=20, seed=0)
    assert est.value is not None and est.n_resamples == 20
