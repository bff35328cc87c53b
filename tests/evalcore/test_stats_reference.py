"""evalcore.stats against reference implementations and published worked examples, value for value:
scipy's pearsonr/spearmanr/kendalltau (tau-b and tau-c), nlpstats 0.0.1 (Deutsch et al.'s
resampling and permutation designs; a test-only dependency, fed the same random draws), and the
expected numbers of mt-metrics-eval's own unit tests (stats_test.py, tau_optimization_test.py) and
of the worked example in its soft pairwise accuracy module (pce.py). mt-metrics-eval itself is
not on PyPI (a different project holds that name there), so its published cases are the reference.
sacrerouge 0.2.5's statistics are not used: the package pins sacrebleu 2.0.0, overrides 3.1.0 and
repro 0.1.1, which conflict with this project's locked versions, so it cannot be installed beside
it; nlpstats is the same authors' later implementation of the same designs. Tolerances are
stated per test."""

import numpy as np
import pytest
from nlpstats.correlations import bootstrap as nlp_bootstrap
from nlpstats.correlations import correlate as nlp_correlate
from nlpstats.correlations import permutation_test as nlp_permutation_test
from nlpstats.correlations import williams_test as nlp_williams
from scipy import stats

from evalcore.stats import levels
from evalcore.stats.compare import compare, permutation_deltas, share_at_least, standardise
from evalcore.stats.pairwise import acc_eq, calibration_curve, pairwise_p_values, soft_pairwise_accuracy
from evalcore.stats.resampling import Draws, percentile_bounds, resampled

TIGHT = 1e-12  # float64 summation order only
NLP_LEVEL = {"system": "system", "item": "input", "global": "global"}
NLP_COEFFICIENT = {"pearson": "pearson", "spearman": "spearman", "kendall-b": "kendall"}


def _judged(n=8, m=12, seed=0, holes=3):
    """A metric and a human matrix with a few missing cells at the same places (nlpstats' rule)."""
    rng = np.random.default_rng(seed)
    z = np.round(rng.random((n, m)) * 5, 1)  # rounded: ties occur
    x = np.round(z + rng.normal(0, 1.0, z.shape), 1)
    for k in range(holes):
        x[k, (3 * k + 1) % m] = z[k, (3 * k + 1) % m] = np.nan
    return x, z


@pytest.mark.parametrize("statistic", ["pearson", "spearman", "kendall-b", "kendall-c"])
def test_coefficients_equal_scipy_at_every_level(statistic):
    """Tolerance 1e-12: the three levels against scipy applied as the definitions say."""
    x, z = _judged()
    ref = {"pearson": lambda a, b: stats.pearsonr(a, b)[0], "spearman": lambda a, b: stats.spearmanr(a, b)[0],
           "kendall-b": lambda a, b: stats.kendalltau(a, b, variant="b")[0],
           "kendall-c": lambda a, b: stats.kendalltau(a, b, variant="c")[0]}[statistic]
    ok = ~np.isnan(x)
    system = ref(np.nanmean(x, 1), np.nanmean(z, 1))
    item = np.mean([ref(x[ok[:, j], j], z[ok[:, j], j]) for j in range(x.shape[1])])
    flat = ref(x[ok], z[ok])
    for level, expected in (("system", system), ("item", item), ("global", flat)):
        assert float(levels.values(x, z, level, statistic)[0]) == pytest.approx(expected, abs=TIGHT)


def test_kendall_by_scipy_rows_beyond_pair_sign_size():
    """Global Kendall over 400 cells goes through scipy row by row: equal to 1e-12."""
    x, z = _judged(20, 20, seed=4)
    ok = ~np.isnan(x)
    for variant in ("b", "c"):
        got = float(levels.values(x, z, "global", f"kendall-{variant}")[0])
        assert got == pytest.approx(stats.kendalltau(x[ok], z[ok], variant=variant)[0], abs=TIGHT)


@pytest.mark.parametrize("level", ["system", "item", "global"])
@pytest.mark.parametrize("statistic", ["pearson", "spearman", "kendall-b"])
def test_levels_equal_nlpstats(level, statistic):
    """Tolerance 1e-12: nlpstats' correlate on the same matrices."""
    x, z = _judged(seed=1)
    ref = nlp_correlate(x, z, NLP_LEVEL[level], NLP_COEFFICIENT[statistic])
    assert float(levels.values(x, z, level, statistic)[0]) == pytest.approx(ref, abs=TIGHT)


def _nlpstats_draws(design, n, m, n_resamples, seed):
    """The row and column draws nlpstats makes (np.random.choice, rows before columns) after
    np.random.seed(seed)."""
    np.random.seed(seed)
    rows, cols = [], []
    for _ in range(n_resamples):
        if design in ("systems", "both"):
            rows.append(np.random.choice(n, n, replace=True))
        if design in ("inputs", "both"):
            cols.append(np.random.choice(m, m, replace=True))
    return Draws(np.array(rows) if rows else None, np.array(cols) if cols else None)


@pytest.mark.parametrize("design", ["systems", "inputs", "both"])
@pytest.mark.parametrize("level", ["system", "item", "global"])
def test_bootstrap_samples_and_interval_equal_nlpstats(design, level):
    """Same draws -> the same resampled correlations (to 1e-12) and the same percentile interval."""
    x, z = _judged(seed=2)
    n_resamples = 150
    np.random.seed(11)
    ref = nlp_bootstrap(x, z, NLP_LEVEL[level], "pearson", design, n_resamples=n_resamples)
    draws = _nlpstats_draws(design, x.shape[0], x.shape[1], n_resamples, 11)
    ours = resampled(x, z, level, "pearson", draws)[0]
    ours = ours[~np.isnan(ours)]
    np.testing.assert_allclose(ours, np.asarray(ref.samples), rtol=0, atol=TIGHT)
    low, high = percentile_bounds(ours, 0.05)
    assert (low, high) == pytest.approx((ref.lower, ref.upper), abs=TIGHT)


def _nlpstats_masks(method, n, m, n_samples, seed):
    """nlpstats' swap masks (np.random.rand > 0.5; rows, then columns for "both", which swaps a
    cell when exactly one of its row and column swaps)."""
    np.random.seed(seed)
    out = []
    for _ in range(n_samples):
        rows = (np.random.rand(n, 1) > 0.5) if method in ("systems", "both") else np.zeros((n, 1), bool)
        cols = (np.random.rand(1, m) > 0.5) if method in ("inputs", "both") else np.zeros((1, m), bool)
        out.append(rows ^ cols)
    return np.array(out)


@pytest.mark.parametrize("method", ["systems", "inputs", "both"])
@pytest.mark.parametrize("level", ["system", "item", "global"])
def test_permutation_samples_and_p_value_equal_nlpstats(method, level):
    """Same swaps -> the same permuted differences (1e-12) and the same one-sided p-value
    (exactly). perm-systems and perm-inputs are the designs of the spec; nlpstats' "both"
    (rows then columns) differs from the spec's per-cell PERM-BOTH, so it checks the machinery."""
    x, z = _judged(seed=3)
    rng = np.random.default_rng(9)
    y = np.where(np.isnan(x), np.nan, np.round(z + rng.normal(0, 1.4, z.shape), 1))
    n_samples = 120
    np.random.seed(5)
    ref = nlp_permutation_test(x, y, z, NLP_LEVEL[level], "pearson", method, alternative="greater",
                               n_resamples=n_samples)
    masks = _nlpstats_masks(method, x.shape[0], x.shape[1], n_samples, 5)
    sx, sy = standardise(x), standardise(y)
    deltas = permutation_deltas(sx, sy, z, level, "pearson", masks)
    np.testing.assert_allclose(deltas, np.asarray(ref.samples), rtol=0, atol=1e-10)
    observed = float(levels.values(sx, z, level, "pearson")[0] - levels.values(sy, z, level, "pearson")[0])
    assert share_at_least(deltas, observed) == ref.pvalue


def test_williams_equals_nlpstats_and_mt_metrics_eval():
    """mt-metrics-eval's WilliamsSigDiffTest.testSigDiff: p 0.019 (3 places, as published);
    nlpstats' williams_test (alternative "greater") to 1e-12."""
    gold = np.array([[1, 2, 3, 4, 5.0]]).T  # five systems, one input
    a = np.array([[1.1, 2, 3.1, 4, 5.1]]).T
    b = np.array([[1.5, 2, 3.1, 4, 5.5]]).T
    got = compare(a, b, gold, "system", "pearson", "williams")
    assert got.p_value == pytest.approx(0.019, abs=5e-4)
    assert got.p_value == pytest.approx(nlp_williams(a, b, gold, "system", "pearson", "greater").pvalue, abs=TIGHT)
    x, z = _judged(seed=6)
    y = np.where(np.isnan(x), np.nan, z + np.random.default_rng(1).normal(0, 2, z.shape))
    ours = compare(x, y, z, "system", "pearson", "williams").p_value
    assert ours == pytest.approx(nlp_williams(x, y, z, "system", "pearson", "greater").pvalue, abs=TIGHT)


# --- mt-metrics-eval's published cases (stats_test.py, tau_optimization_test.py) -----------------

def test_mt_metrics_eval_correlation_levels():
    """stats_test CorrelationTest: 2 systems x 3 items, gold [1..6], metric [2,1,4,3,3,7]; Pearson
    none 0.776, sys 0.760; Kendall-b none 0.552, sys 0.575; Kendall-c none 0.556, sys 0.611 (3 places,
    as published). Their 'sys' averages per-system correlations over items; our levels have no such
    grouping, so it is computed as per-input correlation of the transposed matrix (each system a group)."""
    gold = np.array([[1, 2, 3], [4, 5, 6.0]])
    metric = np.array([[2, 1, 4], [3, 3, 7.0]])
    expected = {("pearson", "global"): 0.776, ("kendall-b", "global"): 0.552, ("kendall-c", "global"): 0.556,
                ("pearson", "rows"): 0.760, ("kendall-b", "rows"): 0.575, ("kendall-c", "rows"): 0.611}
    for (statistic, how), value in expected.items():
        x, z = (metric, gold) if how == "global" else (metric.T, gold.T)
        level = "global" if how == "global" else "item"
        assert float(levels.values(x, z, level, statistic)[0]) == pytest.approx(value, abs=5e-4)


def test_mt_metrics_eval_acc23_and_tie_calibration():
    """stats_test testKendallVariants / testKendallWithTiesOpt: gold [1,2,2,3,4], metric
    [2,1,1.5,5,3]: acc23 0.6, with epsilon 2 0.4, tie-calibrated 0.7 (exact in binary floating
    point up to 1e-15); testKendallVariants_23 / WithPositiveEpsilon: 14/21 at epsilon 0 and 0.1,
    10/21 at epsilon 1."""
    gold, metric = np.array([[1, 2, 2, 3, 4.0]]), np.array([[2, 1, 1.5, 5, 3.0]])
    assert float(acc_eq(metric, gold, 0.0)[0]) == pytest.approx(0.6, abs=1e-15)
    assert float(acc_eq(metric, gold, 2.0)[0]) == pytest.approx(0.4, abs=1e-15)
    assert float(acc_eq(metric, gold, None)[0]) == pytest.approx(0.7, abs=1e-15)
    x, y = np.array([[1, 1, 1, 2, 2, 3, 4.0]]), np.array([[1, 1, 2, 2, 4, 3, 3.0]])
    for eps, right in ((0.0, 14), (0.1, 14), (1.0, 10)):
        assert float(acc_eq(x, y, eps)[0]) == pytest.approx(right / 21, abs=1e-15)
    # the same through the level API: one system row, five inputs, global level
    est = levels.values(metric, gold, "global", "acc-eq", None)
    assert (float(est[0]), float(est[1])) == pytest.approx((0.7, 0.5), abs=1e-15)


@pytest.mark.parametrize("metric, human, thresholds, accuracies, best", [
    ([0, 2, 6, 8], [1, 2, 3, 4], [0, 2, 4, 6, 8], [6 / 6, 4 / 6, 3 / 6, 1 / 6, 0 / 6], 0),
    ([0, 2, 6, 8], [1, 1, 1, 4], [0, 2, 4, 6, 8], [3 / 6, 3 / 6, 4 / 6, 4 / 6, 3 / 6], 4),
])
def test_mt_metrics_eval_tau_optimization(metric, human, thresholds, accuracies, best):
    """tau_optimization_test: every candidate threshold, acc-eq at it, and the best (the smallest
    of equals); tolerance 1e-15."""
    x, z = np.array([metric], float), np.array([human], float)
    eps, acc = calibration_curve(x, z)
    assert eps.tolist() == thresholds
    np.testing.assert_allclose(acc, accuracies, rtol=0, atol=1e-15)
    value, chosen = acc_eq(x, z, None)
    assert float(chosen) == best and float(value) == pytest.approx(max(accuracies), abs=1e-15)


def test_mt_metrics_eval_tau_optimization_regression_example():
    """tau_optimization_test.test_regression_example: a 5 x 5 matrix with missing cells and an
    empty row, each row a group; tolerance 1e-15 (their expected values are float sums)."""
    nan = np.nan
    metric = np.array([[0, 5, 2, 3, 2], [nan, 2, 1, 5, 3], [9, 1, 5, 3, 8], [9, 3, 4, 4, 1], [nan] * 5])
    human = np.array([[1, 5, 2, 1, 1], [4, 2, 2, 1, 4], [5, 9, 2, 8, 7], [7, 6, nan, 3, 2], [nan] * 5])
    eps, acc = calibration_curve(metric, human)
    assert eps.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    expected = [0.4666666666666667, 0.4916666666666668, 0.38333333333333347, 0.29166666666666674,
                0.2666666666666667, 0.2, 0.15833333333333335, 0.15833333333333335, 0.1166666666666667]
    np.testing.assert_allclose(acc, expected, rtol=0, atol=1e-15)
    value, chosen = acc_eq(metric, human, None)
    assert float(chosen) == 1 and float(value) == pytest.approx(0.4916666666666668, abs=1e-15)
    # as a level: rows of their matrix are inputs, so our (systems x inputs) matrix is its transpose
    lv = levels.values(metric.T, human.T, "item", "acc-eq", None)
    assert float(lv[1]) == 1 and float(lv[0]) == pytest.approx(0.4916666666666668, abs=1e-15)


def test_soft_pairwise_accuracy_worked_example():
    """pce.py's worked example: scores A and B over five segments, ten given sign vectors; the
    permuted differences are the listed ones (1e-12) and p(A > B) = 1/10."""
    scores = np.array([[0.8, 0.9, 0.7, 1.0, 0.6], [0.2, 0.3, 0.1, 0.4, 0.0]])
    signs = np.array([[1, 1, -1, -1, -1], [1, -1, 1, -1, 1], [1, -1, 1, 1, -1], [-1, 1, -1, -1, 1],
                      [1, 1, 1, -1, 1], [-1, 1, -1, 1, -1], [1, 1, 1, 1, 1], [1, -1, 1, -1, 1],
                      [1, 1, -1, -1, 1], [-1, 1, -1, -1, -1]], float)
    null = signs @ scores[0] - signs @ scores[1]
    np.testing.assert_allclose(null, [-0.6, 0.6, 0.6, -0.6, 1.8, -0.6, 3.0, 0.6, 0.6, -1.8], atol=TIGHT)
    p = pairwise_p_values(scores, signs)
    assert p[0, 1] == pytest.approx(0.1, abs=1e-15) and np.isnan(p[1, 0])


def test_soft_pairwise_accuracy_is_deterministic_and_one_for_the_human_scores():
    """pce_test: the same scores give the same p-values; a metric that is an increasing affine map
    of the human scores gets 1 (tolerance 1e-12)."""
    rng = np.random.default_rng(0)
    z = rng.random((10, 100))
    x = z + rng.normal(0, 0.3, z.shape)
    assert soft_pairwise_accuracy(x, z) == soft_pairwise_accuracy(x, z)
    assert soft_pairwise_accuracy(2 * z + 1, z).value == pytest.approx(1.0, abs=1e-12)
    assert 0 <= soft_pairwise_accuracy(x, z).value < 1
