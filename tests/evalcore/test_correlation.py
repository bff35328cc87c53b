from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy import stats

from evalcore.stats.correlation import (
    CORRELATIONS,
    correlate,
    correlation_rows,
    correlations,
    grouped_correlation,
    paired_significance,
    percentile_bounds,
    percentile_interval,
    resample_counts,
    resample_documents,
    share_better,
)


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


def test_groupings_and_bootstrap_are_deterministic():
    rng = np.random.default_rng(0)
    human = rng.random((40, 8))
    metric = human + rng.normal(0, 0.3, human.shape)
    r1 = resample_documents(40, 200, seed=5)
    r2 = resample_documents(40, 200, seed=5)
    assert (r1 == r2).all()
    a = correlate(metric, human, "system", "kendall", r1)
    b = correlate(metric, human, "system", "kendall", r2)
    assert a == b and a.low <= a.value <= a.high
    item = correlate(metric, human, "item", "spearman", r1)
    per_doc = [stats.spearmanr(metric[d], human[d])[0] for d in range(40)]
    assert item.value == pytest.approx(np.mean(per_doc))


def test_paired_significance_prefers_the_human_scores_themselves():
    rng = np.random.default_rng(1)
    human = rng.random((30, 6))
    noisy = human + rng.normal(0, 1.0, human.shape)
    res = resample_documents(30, 300, seed=0)
    assert paired_significance(human, noisy, human, "item", "pearson", res) == 1.0
    assert paired_significance(noisy, human, human, "item", "pearson", res) == 0.0


def test_bad_shapes_and_kinds_raise():
    with pytest.raises(ValueError):
        correlate(np.ones(3), np.ones(3), "system", "kendall", resample_documents(3, 2))
    with pytest.raises(ValueError):
        correlation_rows(np.ones((1, 3)), np.ones((1, 3)), "distance")


# Recorded from the implementation before groupings existed (levels "summary" = item, "system"):
# (value, percentile CI low, high, paired-significance share vs a noisier metric). Grouping must
# not change a number.
OLD_OUTPUTS = {
    ('summary', 'pearson'): (0.8523844898848445, 0.8210301980801623, 0.8909213320379961, 1.0),
    ('summary', 'spearman'): (0.7969091002869996, 0.7474544033928779, 0.8520738788842386, 1.0),
    ('summary', 'kendall'): (0.6954356299621652, 0.6377307323989126, 0.7625153080416776, 1.0),
    ('system', 'pearson'): (0.857477029991544, 0.4824645676239645, 0.9663878940977518, 0.965),
    ('system', 'spearman'): (0.8928571428571429, 0.35714285714285715, 1.0, 0.95),
    ('system', 'kendall'): (0.7142857142857143, 0.23809523809523808, 1.0, 0.93),
}


def _golden_data():
    rng = np.random.default_rng(11)
    human = np.round(rng.random((30, 7)) * 4 + 1, 1)
    metric = human + rng.normal(0, 0.8, human.shape)
    metric[rng.random(metric.shape) < 0.1] = np.nan
    other = human + rng.normal(0, 1.5, human.shape)
    return metric, human, other, resample_documents(30, 400, seed=2)


@pytest.mark.parametrize("level, kind", list(OLD_OUTPUTS))
def test_item_and_system_groupings_reproduce_the_old_levels_exactly(level, kind):
    metric, human, other, res = _golden_data()
    grouping = {"summary": "item", "system": "system"}[level]
    c = correlate(metric, human, grouping, kind, res)
    sig = paired_significance(metric, other, human, grouping, kind, res)
    assert (c.value, c.low, c.high, sig) == OLD_OUTPUTS[(level, kind)]
    assert c.flags == () and c.method == "percentile"


@pytest.mark.parametrize("kind", CORRELATIONS)
def test_no_grouping_pools_every_scored_cell(kind):
    metric, human, _, res = _golden_data()
    ok = ~np.isnan(metric)
    by_kind: dict[str, Callable[..., Any]] = {"pearson": stats.pearsonr, "spearman": stats.spearmanr,
                                              "kendall": stats.kendalltau}
    ref = by_kind[kind]
    assert correlate(metric, human, "none", kind).value == pytest.approx(ref(metric[ok], human[ok])[0])
    # the bootstrap weights documents by their draw counts: the same as materialising each resample
    c = correlate(metric, human, "none", kind, res)
    from evalcore.stats.correlation import _grouping_values

    fast = _grouping_values(metric, human, "none", kind, res[:60])
    slow = [correlation_rows(metric[r].ravel()[None], human[r].ravel()[None], kind)[0] for r in res[:60]]
    assert fast == pytest.approx(slow, abs=1e-12)
    assert c.low < c.value < c.high


def test_pooled_kendall_built_in_blocks_equals_one_block(monkeypatch):
    import evalcore.stats.correlation as me

    metric, human, _, res = _golden_data()
    whole = me._grouping_values(metric, human, "none", "kendall", res)
    spear = me._grouping_values(metric, human, "none", "spearman", res)
    monkeypatch.setattr(me, "_BLOCK_FLOATS", 300)  # ~1 row of cells per block, 2 resamples per chunk
    assert me._grouping_values(metric, human, "none", "kendall", res) == pytest.approx(whole, abs=1e-12)
    assert me._grouping_values(metric, human, "none", "spearman", res) == pytest.approx(spear, abs=1e-12)


def test_bca_agrees_with_scipy_and_differs_from_percentile_on_skewed_data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    y = x + rng.normal(scale=1.5, size=60) ** 2
    res = resample_documents(60, 20000, seed=1)
    bca = correlate(x[:, None], y[:, None], "none", "pearson", res, ci="bca")
    pct = correlate(x[:, None], y[:, None], "none", "pearson", res, ci="percentile")
    ref = stats.bootstrap((x, y), lambda a, b, axis=-1: stats.pearsonr(a, b, axis=axis)[0], paired=True,
                          vectorized=True, n_resamples=20000, method="BCa", random_state=2).confidence_interval
    assert bca.method == "bca" and bca.value == pct.value
    assert bca.low == pytest.approx(ref.low, abs=0.02) and bca.high == pytest.approx(ref.high, abs=0.02)
    assert abs(pct.low - ref.low) > 0.04  # the correction matters here: percentile is off


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
def test_bca_is_seeded_and_contains_the_estimate_on_regular_data(grouping):
    rng = np.random.default_rng(4)
    human = rng.random((40, 6))
    metric = human + rng.normal(0, 0.4, human.shape)
    a = correlate(metric, human, grouping, "spearman", resample_documents(40, 500, seed=9), ci="bca")
    b = correlate(metric, human, grouping, "spearman", resample_documents(40, 500, seed=9), ci="bca")
    assert a == b and a.low <= a.value <= a.high and not a.flags


def test_estimate_outside_its_interval_is_flagged_and_warned():
    from evalcore.stats.correlation import OutsideIntervalWarning

    rng = np.random.default_rng(5)
    human = rng.random((10, 5))
    metric = human.copy()
    metric[1:] = rng.random((9, 5))  # only document 0 agrees with the humans
    only_doc0 = np.zeros((50, 10), dtype=int)  # resamples that always draw document 0
    with pytest.warns(OutsideIntervalWarning, match="outside its percentile bootstrap interval"):
        c = correlate(metric, human, "item", "pearson", only_doc0)
    assert (c.low, c.high) == (1.0, 1.0) and c.value < 1.0
    assert c.flags and c.flags[0].startswith("outside-interval")
    assert c.as_dict()["flags"] == list(c.flags)
    with pytest.warns(OutsideIntervalWarning):
        b = correlate(metric, human, "item", "pearson", only_doc0, ci="bca")
    assert any(f.startswith("bca-degenerate") for f in b.flags)
    assert any(f.startswith("outside-interval") for f in b.flags)


def test_tables_cover_groupings_and_keep_flags():
    from evalcore.io.tables import correlation_markdown
    from evalcore.stats.correlation import correlation_table, matrices, significance_table

    rng = np.random.default_rng(6)
    keys = [(f"d{t}", f"s{s}") for t in range(12) for s in range(5)]
    human = {k: {"rel": float(rng.random())} for k in keys}
    scores = {k: {"good": human[k]["rel"] + float(rng.normal(0, .2)), "bad": float(rng.random())} for k in keys}
    topics, systems = sorted({t for t, _ in keys}), sorted({s for _, s in keys})
    mm = matrices(scores, ["good", "bad"], topics, systems)
    hm = matrices(human, ["rel"], topics, systems)
    table = correlation_table(mm, hm, 200, 0, groupings=("none", "item", "system"), ci="bca")
    assert list(table) == ["none", "item", "system"]
    good = table["none"]["rel"]["good"]["pearson"]
    assert good["ci_low"] <= good["value"] <= good["ci_high"] and "flags" not in good
    sig = significance_table(mm, hm, [("good", "bad")], 200, 0, groupings=("none",))
    assert sig["none"]["rel"]["good>bad"]["kendall"] == 1.0
    md = correlation_markdown(table, sig)
    assert "all pairs (no grouping)" in md and "good>bad" in md and "Flagged" not in md


def test_unknown_grouping_or_ci_method_and_shape_mismatch_raise():
    with pytest.raises(ValueError, match="unknown grouping"):
        correlate(np.ones((3, 2)), np.ones((3, 2)), "summary", "pearson")
    with pytest.raises(ValueError, match="unknown CI method"):
        correlate(np.ones((3, 2)), np.ones((3, 2)), "item", "pearson", ci="normal")
    with pytest.raises(ValueError, match="differ in shape"):
        correlate(np.ones((3, 2)), np.ones((3, 3)), "item", "pearson")


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
def test_closed_form_jackknife_equals_leaving_each_document_out(grouping):
    from evalcore.stats.correlation import _grouping_values, _jackknife

    rng = np.random.default_rng(3)
    human = rng.random((25, 6))
    metric = human + rng.normal(0, .5, human.shape)
    metric[rng.random(metric.shape) < .2] = np.nan
    metric[:24, 5] = np.nan  # a system scored on one document only: absent when it is left out
    keep = np.array([np.delete(np.arange(25), d) for d in range(25)])
    for kind in CORRELATIONS:
        slow = _grouping_values(metric, human, grouping, kind, keep)
        assert _jackknife(metric, human, grouping, kind) == pytest.approx(slow[~np.isnan(slow)], abs=1e-12)


def test_resamples_without_a_defined_correlation_are_flagged_and_shown_in_tables():
    from evalcore.io.tables import correlation_markdown

    human = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    metric = np.array([[1.0, 3.0, 2.0], [5.0, 6.0, 7.0]])  # document 1 is constant for the humans
    c = correlate(metric, human, "item", "spearman", np.ones((20, 2), dtype=int))
    assert c.value == 0.5 and np.isnan(c.low) and c.flags[0].startswith("no-interval")
    entry: dict[str, dict[str, object]] = {k: {"value": 0.5, "ci_low": 0.1, "ci_high": 0.2} for k in CORRELATIONS}
    entry["spearman"]["flags"] = ["outside-interval: test"]
    md = correlation_markdown({"item": {"rel": {"m": entry}}})
    assert "[ρ 0.10, 0.20] !" in md and "- item / rel / m / spearman: outside-interval: test" in md


def test_grouped_correlation_leaves_out_small_and_constant_groups():
    # the parapeval benchmark's mean per source: a two-item group always correlates +-1, a
    # constant group not at all; both are left out, not averaged in
    x = [1, 2, 3, 1, 2, 3, 5, 6, 1, 2, 3]
    y = [1, 2, 4, 3, 2, 1, 1, 0, 7, 7, 7]
    groups = ["a"] * 3 + ["b"] * 3 + ["pair"] * 2 + ["flat"] * 3
    expected = np.mean([stats.pearsonr([1, 2, 3], [1, 2, 4])[0], -1.0])
    assert grouped_correlation(x, y, groups) == pytest.approx(expected)
    assert grouped_correlation(x, y, groups, "kendall") == pytest.approx(0.0)
    assert np.isnan(grouped_correlation([1, 2], [2, 1], ["one", "one"]))


def test_percentile_interval_drops_undefined_resamples_and_flags_an_outside_value():
    boot = np.array([0.1, np.nan, 0.2, 0.3, 0.4])
    c = percentile_interval(0.25, boot)
    assert (c.low, c.high) == percentile_bounds(np.array([0.1, 0.2, 0.3, 0.4])) and not c.flags
    assert percentile_interval(0.9, boot).flags == ("outside-interval",)
    assert np.isnan(percentile_interval(np.nan, boot).low)
    assert np.isnan(percentile_interval(0.5, np.array([np.nan])).high)


def test_resample_counts_weigh_the_resampled_documents():
    counts = resample_counts(4, 50, seed=9)
    idx = resample_documents(4, 50, seed=9)
    assert counts.shape == (50, 4) and (counts.sum(axis=1) == 4).all()
    assert all((np.bincount(row, minlength=4) == c).all() for row, c in zip(idx, counts))


def test_share_better_skips_resamples_where_either_is_undefined():
    a = np.array([0.5, 0.2, np.nan, 0.9])
    b = np.array([0.1, 0.4, 0.3, np.nan])
    assert share_better(a, b) == 0.5
    assert np.isnan(share_better(np.array([np.nan]), np.array([1.0])))


def test_one_document_has_a_value_but_no_interval():
    """Resampling one document (one topic, one segment) repeats it: every resample is the same,
    so the interval is undefined, never a zero-width one."""
    from evalcore.io.tables import interval
    from evalcore.stats.correlation import correlate, resample_documents

    metric, human = np.array([[0.1, 0.5, 0.9]]), np.array([[0.2, 0.4, 0.8]])
    c = correlate(metric, human, "system", "kendall", resample_documents(1, 200))
    assert c.value == pytest.approx(1.0, abs=1e-12)
    assert np.isnan(c.low) and np.isnan(c.high) and c.flags[0].startswith("no-interval: 1 document")
    assert interval(c.as_dict()) == "[no interval] !"
    two = correlate(np.array([[0.1, 0.5, 0.9], [0.3, 0.2, 0.6]]), np.array([[0.2, 0.4, 0.8], [0.1, 0.3, 0.5]]),
                    "system", "kendall", resample_documents(2, 200))
    assert not np.isnan(two.low) and interval(two.as_dict(), "τ").startswith("[τ ")
