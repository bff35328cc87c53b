"""BEER's training and metric on a tiny ranked set: pairwise preferences, the logistic ranker,
segment-grouped cross-validation, the feature cache, the model file, the metric end to end and
bad input; the shipped model's header."""


import numpy as np
import pytest

from evalcore.io.models import ModelFileError, read_header
from mteval.beer.features import FEATURES
from mteval.beer.metric import Beer, default_model_path
from mteval.beer.train import fit, raw_features
from mteval.data.wmt12 import Ranking
from mteval.learn.model import LinearModel, save_linear_model
from mteval.learn.pairwise import cross_validated, fit_logistic, preference_pairs, segment_folds
from mteval.learn.ranked import HypKey, RankedSet

REFS = ["The cat sat on the mat.", "The dog sat on the rug.", "The dog barks at night.",
        "A cat was sitting on the mat.", "The old man walked home slowly.", "She bought fresh bread today."]
#: per reference: outputs from best to worst
OUTPUTS = [
    ["The cat sat on the mat.", "The cat sat on a carpet.", "Mat the dog."],
    ["The dog sat on the rug.", "A dog sat on the mat.", "Rug on cat."],
    ["The dog barks at night.", "A dog barked at night.", "Night the."],
    ["A cat was sitting on the mat.", "The cat sat on the mat.", "Sitting rug."],
    ["The old man walked home slowly.", "The old man went home.", "Slowly a."],
    ["She bought fresh bread today.", "She bought bread.", "Today milk."],
]


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
        rankings.append(Ranking("xx-en", seg, "judge2", ("sys1", "sys2", "sys0"), (1, 1, 2)))
    return RankedSet(keys, items, rankings, [])


@pytest.fixture(scope="module")
def X(ranked, tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("AESOP_CACHE", str(tmp_path_factory.mktemp("cache")))
    first = raw_features(ranked, log=lambda msg: None)
    messages: list[str] = []
    again = raw_features(ranked, log=messages.append)
    mp.undo()
    assert np.array_equal(first, again) and messages[0].startswith("features: 18 of 18 outputs cached")
    return first


def test_preference_pairs_leave_ties_out(ranked):
    better, worse = preference_pairs(ranked.rankings[:2], ranked.index())
    # judge: 0>1, 0>2, 1>2; judge2: sys1 = sys2 (tie, left out) > sys0
    assert sorted(zip(better.tolist(), worse.tolist())) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0)]


def test_logistic_ranker_learns_the_direction():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    truth = 2.0 * X[:, 0] - X[:, 1]
    keys = [("p", k // 3 + 1, f"s{k % 3}") for k in range(60)]
    rankings = [Ranking("p", g + 1, "j", ("s0", "s1", "s2"),
                        tuple(int(r) for r in (-truth[3 * g:3 * g + 3]).argsort().argsort() + 1)) for g in range(20)]
    index = {k: i for i, k in enumerate(keys)}
    model = fit_logistic(X, rankings, index, ["a", "b", "c"])
    assert model.weights[0] > 0 > model.weights[1] and abs(model.weights[2]) < model.weights[0] / 2
    with pytest.raises(ValueError, match="nothing to learn"):
        fit_logistic(X, [], index, ["a", "b", "c"])


def test_folds_group_segments():
    keys = [("p", seg, s) for seg in range(1, 11) for s in ("a", "b")]
    folds = segment_folds(keys, 5, 0)
    assert sorted(folds) == list(range(1, 11)) and sorted(folds.values()) == sorted(list(range(5)) * 2)
    assert folds == segment_folds(keys, 5, 0)


def test_features_and_cross_validation(ranked, X):
    assert X.shape == (18, len(FEATURES))
    assert X[0, FEATURES.index("all_f")] == 1.0  # the first output of each segment is its reference
    a, b = fit(X, ranked), fit(X, ranked)
    assert np.array_equal(a.weights, b.weights)
    oof = cross_validated(X, ranked.keys, ranked.rankings, lambda train: fit(X, ranked, rankings=train), 3, 0)
    best_first = oof.reshape(len(REFS), 3)
    assert (best_first[:, 0] > best_first[:, 2]).all()


def test_metric_end_to_end(ranked, X, tmp_path):
    path = save_linear_model(fit(X, ranked), tmp_path / "toy.npz",
                             {"signature": "toy", "trained_on": "toy rankings", "licence": "toy"}, "beer")
    metric = Beer(model=path)
    good, bad = metric.score([REFS[0]], OUTPUTS[0][1]), metric.score([REFS[0]], OUTPUTS[0][2])
    assert bad.value < good.value and set(good.components) == set(FEATURES)
    out = metric.score_batch([([REFS[0]], ""), (["!!"], "The cat."), ([REFS[1]], OUTPUTS[1][1])])
    assert [r.ok for r in out] == [True, False, True] and out[0].notes[-1].startswith("empty")  # scored
    assert not out[1].ok and "no word" in out[1].message
    two = metric.score([REFS[0], REFS[3]], OUTPUTS[0][1])
    one = [metric.score([r], OUTPUTS[0][1]).value for r in (REFS[0], REFS[3])]
    assert two.value == pytest.approx(np.mean(one))  # linear: mean of features = mean of scores
    sig = str(metric.signature())
    assert "model:toy:" in sig and "unaligned:dropped" in sig and "align:exact+stem+syn/lsa" in sig


def test_bad_configuration(tmp_path):
    with pytest.raises(ValueError, match="English targets only"):
        Beer(language="de").validate()
    other = save_linear_model(LinearModel(("x",), np.ones(1)), tmp_path / "other.npz",
                              {"signature": "toy", "trained_on": "toy", "licence": "toy"}, "beer")
    with pytest.raises(ModelFileError, match="not BEER's"):
        Beer(model=other).validate()


def test_shipped_model_header():
    info = read_header(default_model_path())
    assert info["features"] == list(FEATURES) and "research" in info["licence"]
    assert "WMT12" in info["trained_on"] and info["signature"].startswith("beer|")
