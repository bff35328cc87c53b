"""Paired system-vs-system significance: paired bootstrap and approximate randomization."""

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from evalcore.stats.significance import PairedTest, approximate_randomization, compare_to_baseline, paired_bootstrap

TESTS: list[Callable[..., PairedTest]] = [paired_bootstrap, approximate_randomization]


def _systems(shift: float, n: int = 300, seed: int = 0):
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    return base + shift + rng.normal(0, 0.05, n), base


@pytest.mark.parametrize("test", TESTS)
def test_a_system_against_itself_has_p_one(test):
    a, _ = _systems(0.0)
    r = test(a, a.copy(), n_samples=500)
    assert r.p_value == 1.0 and r.difference == 0.0
    assert r.mean_difference == 0.0 and r.ci_low == r.ci_high == 0.0


@pytest.mark.parametrize("test", TESTS)
def test_a_clearly_better_system_has_the_smallest_p(test):
    a, b = _systems(0.05)
    r = test(a, b, n_samples=1000)
    assert r.p_value == pytest.approx(1 / 1001)
    assert r.difference == pytest.approx(a.mean() - b.mean())
    assert r.ci_low < r.difference < r.ci_high and r.ci_low > 0
    # the test is two-sided: swapping the systems flips the difference, not the p-value
    s = test(b, a, n_samples=1000)
    assert s.p_value == r.p_value and s.difference == pytest.approx(-r.difference)


@pytest.mark.parametrize("test", TESTS)
def test_systems_from_one_distribution_are_not_significantly_different(test):
    rng = np.random.default_rng(3)
    a, b = rng.random(200), rng.random(200)
    r = test(a, b, n_samples=2000)
    assert r.p_value > 0.05 and r.ci_low < 0 < r.ci_high


def test_randomization_p_matches_the_exact_permutation_test():
    a = np.array([0.9, 0.4, 0.7, 0.6, 0.8, 0.3])
    b = np.array([0.5, 0.5, 0.6, 0.2, 0.8, 0.1])
    observed = abs(a.mean() - b.mean())
    diffs = [abs(np.where(m, b, a).mean() - np.where(m, a, b).mean())
             for m in itertools.product([False, True], repeat=len(a))]
    exact = np.mean(np.array(diffs) >= observed - 1e-12)
    r = approximate_randomization(a, b, n_samples=40000, seed=1)
    assert r.p_value == pytest.approx(exact, abs=0.01)


def test_paired_bootstrap_p_and_ci_follow_the_resampled_differences():
    a, b = _systems(0.004, n=150, seed=5)
    r = paired_bootstrap(a, b, n_samples=400, seed=9)
    rng = np.random.default_rng(9)
    idx = rng.choice(150, size=(400, 150), replace=True)  # sacrebleu's draws
    diffs = a[idx].mean(1) - b[idx].mean(1)
    assert r.mean_difference == pytest.approx(diffs.mean())
    assert (r.ci_low, r.ci_high) == pytest.approx(tuple(np.percentile(diffs, [2.5, 97.5])))
    null = np.abs(diffs) - np.abs(diffs).mean()  # sacrebleu's null distribution
    assert r.p_value == pytest.approx((np.sum(null >= abs(r.difference)) + 1) / 401)
    assert 0.001 < r.p_value < 1


def _precision(summed):
    """A BLEU-like corpus statistic: matches / length over the whole test set."""
    return summed[:, 0] / summed[:, 1]


@pytest.mark.parametrize("test", TESTS)
def test_corpus_statistics_are_summed_before_aggregating(test):
    rng = np.random.default_rng(2)
    length = rng.integers(1, 40, 120).astype(float)
    a = np.column_stack([np.floor(length * 0.6), length])
    b = np.column_stack([np.floor(length * 0.5), length])
    # short segments get a higher precision in b: mean-of-ratios and ratio-of-sums disagree
    b[length < 5, 0] = length[length < 5]
    r = test(a, b, aggregate=_precision, n_samples=500)
    assert r.score_a == pytest.approx(a[:, 0].sum() / a[:, 1].sum())
    assert r.score_b == pytest.approx(b[:, 0].sum() / b[:, 1].sum())
    assert r.difference > 0 and r.p_value < 0.01
    assert r.difference != pytest.approx((a[:, 0] / a[:, 1]).mean() - (b[:, 0] / b[:, 1]).mean())


def test_seeded_and_chunked_runs_are_identical(monkeypatch):
    import evalcore.stats.significance as sig

    a, b = _systems(0.003, n=80, seed=4)
    for test in TESTS:
        first, again = test(a, b, n_samples=300, seed=7), test(a, b, n_samples=300, seed=7)
        assert first == again and isinstance(first, PairedTest)
        monkeypatch.setattr(sig, "_CHUNK_CELLS", 80 * 7)  # 7 trials per chunk
        chunked = test(a, b, n_samples=300, seed=7)
        assert chunked.p_value == first.p_value  # the same draws, in 43 chunks
        numbers = ("score_a", "score_b", "difference", "mean_difference", "ci_low", "ci_high")
        assert [getattr(chunked, k) for k in numbers] == pytest.approx([getattr(first, k) for k in numbers], rel=1e-12)
        monkeypatch.undo()
        assert test(a, b, n_samples=300, seed=8) != first


def test_compare_to_baseline_runs_every_system_with_the_same_seed():
    a, base = _systems(0.05)
    systems = {"base": base, "better": a, "same": base.copy()}
    out = compare_to_baseline(systems, "base", test="randomization", n_samples=500)
    assert list(out) == ["better", "same"]
    assert out["same"].p_value == 1.0 and out["better"].p_value < 0.01
    assert out["better"] == approximate_randomization(a, base, n_samples=500)
    assert out["better"].as_dict()["test"] == "randomization"
    with pytest.raises(ValueError, match="baseline 'x' is not among"):
        compare_to_baseline(systems, "x")
    with pytest.raises(ValueError, match="unknown test"):
        compare_to_baseline(systems, "base", test="t-test")


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="different numbers of segments"):
        paired_bootstrap([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match=r"system b: 1 segment\(s\) without a finite value \(segment 2\)"):
        paired_bootstrap([1.0, 2.0], [1.0, np.nan])
    with pytest.raises(ValueError, match="one-dimensional"):
        approximate_randomization(np.ones((3, 2)), np.ones((3, 2)))
    with pytest.raises(ValueError, match="aggregate must map"):
        paired_bootstrap(np.ones((3, 2)), np.ones((3, 2)), aggregate=lambda s: s, n_samples=10)
    with pytest.raises(ValueError, match="no segments"):
        paired_bootstrap([], [])
    with pytest.raises(ValueError, match="n_samples"):
        paired_bootstrap([1.0], [2.0], n_samples=0)
