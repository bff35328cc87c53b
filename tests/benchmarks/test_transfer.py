"""Helpers of `python -m benchmarks transfer` and the synthetic DICOMER training data, on small
synthetic inputs: within-topic standardisation, sentence-move orders, GDTB windows and their
genre filter, the length-controlled partial correlation and the cross-domain target checks."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.summeval.transfer import (
    SETTINGS,
    SHIPPED,
    DicomerSpec,
    Readability,
    partial_spearman,
    target_rows,
)
from coherence.dicomer.analysis import Analysis
from coherence.dicomer.synthetic import OPEN_GENRES, Synthetic, moved_orders, window_starts
from evalcore.stats.correlation import resample_documents
from summeval.cremer.model import scale_tesla, topic_z


def test_topic_z_standardises_each_topic_and_zeroes_a_constant_one():
    values = np.array([1.0, 2.0, 3.0, 10.0, 30.0, 5.0, 5.0])
    topics = np.array(["a", "a", "a", "b", "b", "c", "c"])
    z = topic_z(values, topics)
    for t in ("a", "b"):
        assert z[topics == t].mean() == pytest.approx(0.0)
        assert z[topics == t].std() == pytest.approx(1.0)
    assert np.array_equal(z[topics == "c"], [0.0, 0.0])
    # the scale of the raw values (e.g. the number of references) does not matter
    assert np.allclose(topic_z(values * 7 + 3, topics), z)


def test_scale_tesla_falls_back_to_the_training_distribution_for_a_lone_summary():
    values = np.array([0.2, 0.4, 0.9])
    scaled, alone = scale_tesla(values, np.array(["a", "a", "b"]), {"mean": 0.5, "sd": 0.2})
    assert alone.tolist() == [False, False, True]
    assert scaled[:2] == pytest.approx([-1.0, 1.0])
    assert scaled[2] == pytest.approx((0.9 - 0.5) / 0.2)


@pytest.mark.parametrize("n,k", [(5, 5), (3, 10), (2, 3)])
def test_moved_orders_move_exactly_one_sentence(n, k):
    orders = moved_orders(n, k, seed=7)
    assert orders == moved_orders(n, k, seed=7)  # seeded
    assert len(orders) == len(set(orders)) == min(k, (n - 1) ** 2)  # distinct orders of one move
    for order in orders:
        assert sorted(order) == list(range(n)) and list(order) != list(range(n))
        # removing the moved sentence leaves the others in their original order
        assert any([s for s in order if s != i] == [s for s in range(n) if s != i] for i in range(n))


def test_moved_orders_depend_on_the_seed():
    assert moved_orders(6, 5, 0) != moved_orders(6, 5, 1)


def test_window_starts_are_non_overlapping_spread_and_bounded():
    assert window_starts(4, width=5) == []
    assert window_starts(5, width=5, per_doc=2) == [0]
    starts = window_starts(40, width=5, per_doc=3)
    assert starts == [0, 20, 35]  # 8 windows: the first, the middle (index 3.5 rounds to 4) and the last
    assert all(b - a >= 5 for a, b in zip(starts, starts[1:])) and starts[-1] + 5 <= 40


WINDOWS = "N F A n1 n2 f1 ni fi ai".split()


def _window(name: str) -> Analysis:
    """A stand-in analysis of one synthetic text, told apart from the others by its sentence count."""
    return Analysis(WINDOWS.index(name), (), ())


def _names(texts: list[Analysis]) -> list[str]:
    return [WINDOWS[t.n_sentences] for t in texts]


def test_synthetic_groups_keep_open_genres_and_label_originals_above_negatives():
    w = _window
    syn = Synthetic(genres=["news", "fiction", "academic"], originals=[w("N"), w("F"), w("A")],
                    permuted=[[w("n1"), w("n2")], [w("f1")], []], inserted=[[w("ni")], [w("fi")], [w("ai")]])
    texts, y, groups = syn.groups(("perm",), "open")
    assert _names(texts) == ["N", "n1", "n2"] and y == [1.0, 0.0, 0.0] and len(set(groups)) == 1
    assert "fiction" not in OPEN_GENRES and "news" in OPEN_GENRES
    texts, y, groups = syn.groups(("perm", "insert"), "all")
    assert _names(texts) == ["N", "n1", "n2", "F", "f1", "N", "ni", "F", "fi", "A", "ai"]
    assert sum(y) == 5 and len(set(groups)) == 5  # a window without negatives forms no group
    assert syn.genre_counts("open") == {"academic": 1, "news": 1}
    with pytest.raises(ValueError, match="genres"):
        syn.groups(("perm",), "some")
    with pytest.raises(ValueError, match="perm or insert"):
        syn.groups(("shuffle",), "all")


def test_partial_spearman_removes_what_length_explains():
    rng = np.random.default_rng(0)
    length = rng.normal(size=(30, 12))
    quality = rng.normal(size=(30, 12))
    human = length + quality
    resamples = resample_documents(30, 200, 0)
    only_length = partial_spearman(length + 0.01 * rng.normal(size=length.shape), human, length, resamples)
    assert abs(only_length["value"]) < 0.2
    informative = partial_spearman(quality, human, length, resamples)
    assert informative["value"] > 0.5
    assert informative["ci_low"] <= informative["value"] <= informative["ci_high"]


def test_partial_spearman_of_a_constant_metric_is_nan():
    resamples = resample_documents(4, 10, 0)
    out = partial_spearman(np.ones((4, 5)), np.arange(20.0).reshape(4, 5), np.arange(20.0).reshape(4, 5), resamples)
    assert np.isnan(out["value"])


def _report(values: dict[str, float]) -> dict:
    def cell(v: float) -> dict[str, float]:
        return {"value": v, "ci_low": v - 0.05, "ci_high": v + 0.05}

    metrics = {m: {"dims": {d: {"all": {"summary/spearman": cell(v), "system/kendall": cell(v)}}
                            for d in ("coherence", "mean")}} for m, v in values.items()}
    return {"settings": {name: {"metrics": metrics} for name, src, tgt in SETTINGS}}


def test_target_rows_check_both_cross_domain_directions():
    values = {SHIPPED: 0.10, "rouge-2": 0.07, "length": 0.2, "CREMER-LF": 0.4, "tesla-s": 0.3,
              "CREMER-LF-noDICOMER": 0.45}
    rows = target_rows(_report(values))
    assert {r[0] for r in rows} == {n for n, src, tgt in SETTINGS if src != tgt}
    met = {(r[0], r[1]): r[4] for r in rows}
    setting = SETTINGS[0][0]
    assert met[(setting, "DICOMER coherence ρ > 0, CI excludes 0")] == "yes"
    assert met[(setting, "DICOMER coherence ρ > rouge-2")] == "yes"
    assert met[(setting, "DICOMER coherence ρ > length")] == "no"
    assert met[(setting, "CREMER mean summary/spearman > tesla-s")] == "yes"
    assert met[(setting, "CREMER mean system/kendall > CREMER-LF-noDICOMER")] == "no"


def test_the_runner_offers_transfer(tmp_path, monkeypatch):
    from benchmarks.__main__ import main
    from benchmarks.summeval import transfer

    seen: dict[str, object] = {}
    monkeypatch.setattr(transfer, "run", lambda out, data, **kw: seen.update(out=out, **kw))
    assert main(["transfer", "--out", str(tmp_path), "--cremer-tuning", "shipped"]) == 0
    assert (seen["cremer_tuning"], seen["n_boot"], seen["experiments"]) == ("shipped", 1000, False)
    assert (tmp_path / "run-transfer.json").is_file()


def test_cremer_inputs_of_the_bench_scale_dicomer_as_the_shipped_metric_does():
    from benchmarks.summeval.transfer import CremerSpec, _cremer_x
    from summeval.cremer.model import scale_dicomer

    tesla, dicomer = np.array([-1.0, 1.0, 0.5, -0.5]), np.array([-0.9, -0.3, -0.4, 2.0])
    judged, topics = np.array([True, True, False, True]), np.array(["a", "a", "a", "b"])
    shipped = _cremer_x(CremerSpec("x", "linear"), tesla, dicomer, judged, topics)
    assert np.array_equal(shipped[:, 1], scale_dicomer(dicomer, judged, topics))
    assert shipped[:, 1] == pytest.approx([-1.0, 1.0, 0.0, 0.0])
    raw = _cremer_x(CremerSpec("x", "linear", dicomer_scaling="raw"), tesla, dicomer, judged, topics)
    assert np.array_equal(raw[:, 1], dicomer)
    assert _cremer_x(CremerSpec("x", "linear", None), tesla, None, None, topics).shape == (4, 1)
    with pytest.raises(ValueError, match="dicomer_scaling"):
        _cremer_x(CremerSpec("x", "linear", dicomer_scaling="rank"), tesla, dicomer, judged, topics)


def test_non_negative_least_squares_never_weighs_a_feature_against_the_target():
    from benchmarks.summeval.transfer import non_negative_least_squares

    rng = np.random.default_rng(4)
    x = rng.normal(size=(200, 2))
    y = 2 * x[:, 0] - x[:, 1] + rng.normal(0, 0.1, 200)
    model = non_negative_least_squares().fit(x, y)
    coef = model.regressor_.named_steps["ls"].coef_
    assert coef[0] > 0 and coef[1] == 0.0  # the falling feature is dropped, not given a negative weight


class _JudgesEveryText(DicomerSpec):
    """A readability model that reads evidence in every text."""

    def judged(self, analysis: Analysis) -> bool:
        return True


class _FixedOutOfFold(Readability):
    """Out-of-fold DICOMER values given by the test: no model is fitted."""

    def __init__(self, values: np.ndarray):
        super().__init__({}, None, 0)
        self.values = values

    def out_of_fold(self, spec: DicomerSpec, source: str, within: np.ndarray, n_folds: int) -> np.ndarray:
        return self.values


def test_news_chat_rows_train_on_both_sets_with_targets_standardised_within_each():
    from benchmarks.summeval.transfer import DIALSUMMEVAL, SUMMEVAL, CremerSpec, Domain, _with_other_set

    chat = Domain(name=DIALSUMMEVAL, topics=np.array(["d1", "d1", "d2", "d2"]), systems=np.array(["s1", "s2"] * 2),
                  human={"mean": np.array([1.0, 2.0, 3.0, 4.0])}, analyses=[Analysis(0, (), ())] * 4,
                  baselines={"tesla-s": np.array([0.1, 0.3, 0.2, 0.6])}, licence="", one_ref_tesla=np.zeros(4))
    read = _FixedOutOfFold(np.array([0.5, -0.5, 1.0, 0.0]))
    spec = CremerSpec("x", "linear", dicomer="d", both_sets=True)
    x, y = np.zeros((2, 2)), np.array([10.0, 30.0])
    # only the other set (the chats) is read: the news set is absent
    x2, y2, groups = _with_other_set(spec, {DIALSUMMEVAL: chat}, SUMMEVAL, read, {"d": _JudgesEveryText("d")},
                                     x, y, np.array(["n1", "n1"]))
    assert x2.shape == (6, 2) and list(groups) == ["n1", "n1", "dialsummeval:d1", "dialsummeval:d1",
                                                   "dialsummeval:d2", "dialsummeval:d2"]
    assert y2[:2] == pytest.approx([-1.0, 1.0]) and y2[2:].mean() == pytest.approx(0.0)
    assert x2[2:, 0] == pytest.approx([-1.0, 1.0, -1.0, 1.0])  # TESLA-S z within each dialogue
