import numpy as np
import pytest
from scipy import stats

from evalcore.metaeval import (CORRELATIONS, correlate_with_ci, correlation_rows, correlations,
                               paired_significance, resample_documents)


def test_flat_correlations_match_scipy_with_ties():
    rng = np.random.default_rng(3)
    x = np.round(rng.random(30), 1)
    y = np.round(x + rng.normal(0, 0.3, 30), 1)
    c = correlations(x, y)
    assert c["pearson"] == pytest.approx(stats.pearsonr(x, y)[0])
    assert c["spearman"] == pytest.approx(stats.spearmanr(x, y)[0])
    assert c["kendall"] == pytest.approx(stats.kendalltau(x, y)[0])  # tau-b


def test_rows_ignore_nan_and_constant_rows_give_nan():
    x = np.array([[1, 2, 3, np.nan], [1, 1, 1, 1.0]])
    y = np.array([[1, 3, 2, 9], [1, 2, 3, 4.0]])
    for kind in CORRELATIONS:
        r = correlation_rows(x, y, kind)
        assert np.isnan(r[1])
        assert r[0] == pytest.approx(correlations([1, 2, 3], [1, 3, 2])[kind])


def test_levels_and_bootstrap_are_deterministic():
    rng = np.random.default_rng(0)
    human = rng.random((40, 8))
    metric = human + rng.normal(0, 0.3, human.shape)
    r1 = resample_documents(40, 200, seed=5)
    r2 = resample_documents(40, 200, seed=5)
    assert (r1 == r2).all()
    a = correlate_with_ci(metric, human, "system", "kendall", r1)
    b = correlate_with_ci(metric, human, "system", "kendall", r2)
    assert a == b and a.low <= a.value <= a.high
    summary = correlate_with_ci(metric, human, "summary", "spearman", r1)
    per_doc = [stats.spearmanr(metric[d], human[d])[0] for d in range(40)]
    assert summary.value == pytest.approx(np.mean(per_doc))


def test_paired_significance_prefers_the_human_scores_themselves():
    rng = np.random.default_rng(1)
    human = rng.random((30, 6))
    noisy = human + rng.normal(0, 1.0, human.shape)
    res = resample_documents(30, 300, seed=0)
    assert paired_significance(human, noisy, human, "summary", "pearson", res) == 1.0
    assert paired_significance(noisy, human, human, "summary", "pearson", res) == 0.0


def test_bad_shapes_and_kinds_raise():
    with pytest.raises(ValueError):
        correlate_with_ci(np.ones(3), np.ones(3), "system", "kendall", resample_documents(3, 2))
    with pytest.raises(ValueError):
        correlation_rows(np.ones((1, 3)), np.ones((1, 3)), "distance")
