"""The pairwise ranker (RankSVM, spec 5.2)."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from evalcore.learn.ranking import RankSVM, preference_pairs


def synthetic(seed: int = 0, n_groups: int = 30, per_group: int = 6, dim: int = 8):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=dim)
    X = rng.normal(size=(n_groups * per_group, dim))
    groups = np.repeat(np.arange(n_groups), per_group)
    # group offsets make absolute scores useless across groups; ranks inside a group follow w
    X += np.repeat(rng.normal(scale=5.0, size=(n_groups, dim)), per_group, axis=0)
    return X, X @ w, groups, w


def test_preference_pairs_within_groups_only_different_labels():
    better, worse = preference_pairs([3, 1, 1, 2, 5], ["a", "a", "a", "b", "b"])
    assert sorted(zip(better.tolist(), worse.tolist())) == [(0, 1), (0, 2), (4, 3)]


def test_ranksvm_learns_known_ranking_dense_and_sparse():
    X, y, groups, w = synthetic()
    for data in (X, sp.csr_matrix(X)):
        model = RankSVM(C=1.0, seed=1).fit(data, y, groups)
        assert model.score(data, y, groups) >= 0.97
        cos = model.coef_ @ w / np.linalg.norm(model.coef_) / np.linalg.norm(w)
        assert cos > 0.95
    Xt, yt, gt, _ = synthetic(seed=0)
    assert RankSVM(C=1.0).fit(X, y, groups).score(Xt, yt, gt) >= 0.97


def test_ranksvm_separable_pairs_are_all_correct_and_deterministic():
    X = np.array([[3.0, 0.0], [2.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    y, groups = [4, 3, 2, 1], [0, 0, 0, 0]
    a, b = RankSVM(seed=3).fit(X, y, groups), RankSVM(seed=3).fit(X, y, groups)
    assert a.score(X, y, groups) == 1.0
    assert np.array_equal(a.coef_, b.coef_)
    # SVMlight default: squared norms of the six difference vectors are 2, 4, 10, 2, 4, 2
    assert a.C_ == pytest.approx(1.0 / 4.0)
    assert clone(a).get_params() == {"C": "svmlight", "seed": 3, "max_iter": 20000, "tol": 1e-4}


def test_ranksvm_single_pair_and_no_pairs():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert RankSVM().fit(X, [1, 0], [0, 0]).score(X, [1, 0], [0, 0]) == 1.0
    with pytest.raises(ValueError, match="no training pairs"):
        RankSVM().fit(X, [1, 1], [0, 0])
    with pytest.raises(ValueError):
        RankSVM().fit(X, [1, 0, 1], [0, 0])
