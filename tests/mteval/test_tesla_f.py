"""TESLA-F: the paper's [0, 1] scaling, the seeded pairwise ranker, cross-validation by segment,
the model file and its header, and the metric end to end on a tiny synthetic ranking set."""

import numpy as np
import pytest

from evalcore.io.models import ModelFileError
from evalcore.resources.registry import ResourceError
from mteval.data.wmt12 import Ranking
from mteval.learn.model import LinearModel, fit_ranker, load_linear_model, save_linear_model
from mteval.learn.ranked import HypKey, RankedSet
from mteval.lexical.bpng_features import PivotFeatures
from mteval.tesla.features import TeslaFeatures, fill_undefined, model_matrix
from mteval.tesla.lm_features import LMFeatures
from mteval.tesla.metric import ResourceMismatchWarning, TeslaF
from mteval.tesla.train import cross_validated, feature_names, fit, ranking_arrays, raw_features

REFS = ["The cat sat on the mat.", "The dog sat on the rug.", "The dog barks.", "A cat was sitting on the mat.",
        "The feline sat on the rug.", "The cat barks on the mat."]
#: per reference: outputs from best to worst, as a judge would rank them
OUTPUTS = [
    ["The cat sat on the mat.", "The feline sat on a mat.", "Dog rug barks the."],
    ["The dog sat on the rug.", "A dog sat on the mat.", "Cat the on."],
    ["The dog barks.", "A dog barks loudly.", "Mat the."],
    ["A cat was sitting on the mat.", "The cat sat on the mat.", "Rug dog barks."],
    ["The feline sat on the rug.", "The cat sat on a rug.", "Barks mat dog."],
    ["The cat barks on the mat.", "A cat barks on a rug.", "Sat feline."],
]


def test_scaling_follows_the_paper():
    model = LinearModel(("btng_ms1", "lm_news"), np.array([2.0, 0.5]), 1.0)
    # min = 1 + min(0, 2) + min(-7.5, 0) = -6.5; max = 1 + max(0, 2) + max(-7.5, 0) = 3
    assert model.bounds() == (-6.5, 3.0)
    assert model.raw(np.array([[0.5, -3.0]]))[0] == pytest.approx(0.5)
    assert model.scaled(np.array([[0.5, -3.0]]))[0] == pytest.approx(7.0 / 9.5)
    assert model.scaled(np.array([[0.0, -15.0]]))[0] == pytest.approx(0.0)
    assert model.scaled(np.array([[1.0, 0.0]]))[0] == pytest.approx(1.0)
    negative = LinearModel(("btng_ms1", "lm_news"), np.array([-1.0, 0.5]))
    assert negative.bounds() == (-8.5, 0.0)
    with pytest.raises(ValueError, match="all-zero"):
        LinearModel(("btng_ms1",), np.zeros(1)).scaled(np.array([[0.3]]))


def test_scaling_keeps_the_order():
    model = LinearModel(("a", "b", "lm_x"), np.array([0.3, -0.2, 0.05]), 0.1)
    X = np.random.default_rng(0).uniform([0, 0, -15], [1, 1, 0], size=(50, 3))
    assert np.array_equal(np.argsort(model.raw(X)), np.argsort(model.scaled(X)))


def _synthetic(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 3))
    groups = np.repeat(np.arange(30), 4)
    y = 2.0 * X[:, 0] - X[:, 1] + 0.1 * rng.normal(size=120)
    return X, y, groups


def test_ranker_is_seeded_and_learns_the_direction():
    X, y, groups = _synthetic(1)
    a = fit_ranker(X, y, groups, ["f0", "f1", "f2"], seed=3)
    b = fit_ranker(X, y, groups, ["f0", "f1", "f2"], seed=3)
    assert np.array_equal(a.weights, b.weights) and a.bias == b.bias
    assert a.weights[0] > 0 > a.weights[1] and abs(a.weights[2]) < a.weights[0] / 3


def test_undefined_f_measures_take_their_kinds_mean():
    rows = np.array([[1.0, np.nan, 0.5, 0.2, np.nan, np.nan],
                     [np.nan, np.nan, np.nan, np.nan, np.nan, np.nan]])
    filled = fill_undefined(rows, n_btng=3)
    assert filled[0].tolist() == [1.0, 0.75, 0.5, 0.2, 0.2, 0.2]
    assert filled[1].tolist() == [0.0] * 6


def test_model_file_round_trip_and_tampering(tmp_path, tamper_model_file):
    model = LinearModel(("btng_ms1", "lm_news"), np.array([0.7, 0.02]), -0.1)
    path = save_linear_model(model, tmp_path / "m.npz", {"signature": "toy", "trained_on": "toy", "licence": "toy"},
                             "tesla-f")
    loaded, info = load_linear_model(path)
    assert loaded.names == model.names and np.array_equal(loaded.weights, model.weights) and loaded.bias == model.bias
    assert info["features"] == ["btng_ms1", "lm_news"] and info["metric"] == "tesla-f"
    assert '"weights":[0.7,0.02]' in np.load(path)["__tree__"].tobytes().decode()  # plain numbers
    tamper_model_file(path)
    with pytest.raises(ModelFileError, match="SHA-256"):
        load_linear_model(path)


@pytest.fixture(scope="module")
def ranked() -> RankedSet:
    keys: list[HypKey] = []
    items: list[tuple[tuple[str, ...], str]] = []
    rankings: list[Ranking] = []
    for seg, (ref, outputs) in enumerate(zip(REFS, OUTPUTS), 1):
        for k, hyp in enumerate(outputs):
            keys.append(("xx-en", seg, f"sys{k}"))
            items.append(((ref,), hyp))
        rankings.append(Ranking("xx-en", seg, "judge", ("sys0", "sys1", "sys2"), (1, 2, 3)))
        rankings.append(Ranking("xx-en", seg, "judge2", ("sys1", "sys2"), (1, 2)))
    return RankedSet(keys, items, rankings, [])


@pytest.fixture(scope="module")
def extractors(toy_tables, toy_lms):
    return TeslaFeatures(PivotFeatures.from_paths(toy_tables)), LMFeatures(toy_lms)


@pytest.fixture(scope="module")
def features(ranked, extractors, tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("AESOP_CACHE", str(tmp_path_factory.mktemp("cache")))
    tesla, lms = extractors
    raw = raw_features(ranked, tesla, lms, log=lambda msg: None)
    messages: list[str] = []
    cached = raw_features(ranked, tesla, lms, log=messages.append)  # the second read comes from the cache
    subset = RankedSet(ranked.keys[:4], ranked.items[:4], [], [])
    from_subset = raw_features(subset, tesla, lms, log=messages.append)  # rows are cached one by one
    mp.undo()
    assert np.array_equal(raw, cached, equal_nan=True) and np.array_equal(raw[:4], from_subset, equal_nan=True)
    n = len(ranked.items)
    assert messages[0].startswith(f"features: {n} of {n} outputs cached") and len(messages) == 2, messages
    return model_matrix(raw, len(lms.names()))


def test_ranking_arrays_follow_the_rankings(ranked):
    rows, y, groups = ranking_arrays(ranked.rankings[:2], ranked.index())
    assert rows.tolist() == [0, 1, 2, 1, 2] and y.tolist() == [-1, -2, -3, -1, -2]
    assert groups.tolist() == [0, 0, 0, 1, 1]


def test_training_is_deterministic_and_ranks_unseen_segments(ranked, extractors, features):
    names = feature_names(*extractors)
    a, b = fit(features, ranked, names, seed=0), fit(features, ranked, names, seed=0)
    assert np.array_equal(a.weights, b.weights)
    oof = cross_validated(features, ranked, names, folds=3, seed=0)
    assert np.array_equal(oof, cross_validated(features, ranked, names, folds=3, seed=0))
    best_first = oof.reshape(len(REFS), 3)
    assert (best_first[:, 0] > best_first[:, 2]).mean() >= 5 / 6


def test_metric_end_to_end(ranked, extractors, features, toy_tables, toy_lms, tmp_path):
    tesla, lms = extractors
    names = feature_names(tesla, lms)
    info = {"signature": "toy", "trained_on": "toy rankings", "licence": "toy", "pivots": ["fr", "zh"],
            "lms": ["news", "bible"], "pivot_tables": list(tesla.pivots.signature_fields()["pivots"]),
            "lm_files": list(lms.signature_fields()["lms"])}
    path = save_linear_model(fit(features, ranked, names), tmp_path / "toy.npz", info, "tesla-f")
    metric = TeslaF(model=path, tables=toy_tables, lms=toy_lms)
    good = metric.score([REFS[0]], OUTPUTS[0][0])
    bad = metric.score([REFS[0]], OUTPUTS[0][2])
    assert 0 <= bad.value < good.value <= 1 and set(names) <= set(good.components)
    raw = TeslaF(model=path, scale=False, tables=toy_tables, lms=toy_lms).score([REFS[0]], OUTPUTS[0][0])
    assert raw.value == pytest.approx(good.components["raw"])
    out = metric.score_batch([([REFS[0]], ""), (["!!"], "The cat."), ([REFS[1]], OUTPUTS[1][1])])
    assert [r.ok for r in out] == [True, False, True] and out[0].notes[-1].startswith("empty")  # scored
    # one output scores bit-identically alone and anywhere in a batch (two systems with one output tie)
    items = [([r], o) for r, outs in zip(REFS, OUTPUTS) for o in outs]
    batch = [x.value for x in metric.score_batch(items + items[:1])]
    assert batch[:-1] == [metric.score(*it).value for it in items] and batch[-1] == batch[0]
    sig = str(metric.signature())
    assert "model:toy:" in sig and "lms:" in sig and "scale:yes" in sig
    other = TeslaF(model=path, tables={"fr": toy_tables["zh"], "zh": toy_tables["zh"]}, lms=toy_lms)
    with pytest.warns(ResourceMismatchWarning, match="trained with pivot tables"):
        other.validate()
    with pytest.raises(ResourceError, match="'fr'"):
        TeslaF(model=path, tables={"fr": tmp_path / "absent.sqlite"}, lms=toy_lms).validate()
