import numpy as np
import pytest

import summeval.cremer as cremer
from summeval.cremer import KERNELS, document_folds, feature_matrix, load_model, make_cremer, save_model


def test_kernels_fit_and_rbf_captures_an_interaction():
    rng = np.random.default_rng(0)
    x = feature_matrix(rng.random(300), rng.random(300))
    y = x[:, 0] * x[:, 1] * 4 + 1  # responsiveness needs both content and readability
    errors = {k: np.mean((make_cremer(k).fit(x, y).predict(x) - y) ** 2) for k in KERNELS}
    assert errors["rbf"] < errors["linear"]
    with pytest.raises(ValueError):
        make_cremer("sigmoid")


def test_save_and_load_round_trip(tmp_path):
    x = feature_matrix([0.1, 0.5, 0.9, 0.3], [1.0, -1.0, 0.5, 0.0])
    model = make_cremer("linear").fit(x, [1, 3, 5, 2])
    save_model(model, "linear", {"features": ["tesla-s", "dicomer"], "target": "t"}, tmp_path)
    loaded, info = load_model("linear", tmp_path)
    assert np.allclose(loaded.predict(x), model.predict(x)) and len(info["model_hash"]) == 12


def test_missing_model_is_a_clear_error(tmp_path):
    from evalcore.resources import ResourceError

    with pytest.raises(ResourceError, match="summeval train cremer"):
        load_model("rbf", tmp_path)


def test_document_folds_follow_the_benchmark_rule():
    topics = ["b", "a", "c", "a", "f", "e", "d", "g"]
    # sorted ids a..g -> folds 0,1,2,3,4,0,1
    assert document_folds(topics).tolist() == [1, 0, 2, 0, 0, 4, 3, 1]


def test_dicomer_training_values_never_see_their_document(monkeypatch):
    topics = np.array(["d1", "d1", "d2", "d2", "d3", "d3", "d4", "d4", "d5"])
    within = np.array([True] * 8 + [False])
    seen = []

    def fake_fit_predict(analyses, coherence, topics_, train, test, seed=0):
        assert not set(topics_[train]) & set(topics_[test]) and not train[8]
        seen.append(np.flatnonzero(test))
        return np.flatnonzero(test).astype(float)

    monkeypatch.setattr(cremer, "dicomer_fit_predict", fake_fit_predict)
    values = cremer.dicomer_out_of_fold([None] * 9, np.zeros(9), topics, within, n_folds=4)
    assert values[:8].tolist() == list(range(8)) and np.isnan(values[8])
    assert sorted(np.concatenate(seen).tolist()) == list(range(8))


def test_polynomial_kernel_keeps_the_sign_of_a_linear_signal():
    rng = np.random.default_rng(1)
    x = feature_matrix(rng.normal(size=200), rng.normal(size=200))
    y = 2 * x[:, 0] + 3  # a homogeneous degree-2 kernel could not learn this
    assert np.corrcoef(make_cremer("poly").fit(x, y).predict(x), y)[0, 1] > 0.95


def test_fit_cremer_picks_parameters_from_its_grid_with_grouped_folds():
    from summeval.cremer import PARAM_GRIDS, fit_cremer, svr_params

    rng = np.random.default_rng(2)
    x = feature_matrix(rng.random(120), rng.random(120))
    y = x[:, 0] + 0.5 * x[:, 1] + rng.normal(0, 0.05, 120)
    model = fit_cremer("linear", x, y, np.repeat(np.arange(12), 10))
    params = svr_params(model)
    grid = PARAM_GRIDS["linear"]
    assert params["C"] in grid["regressor__svr__C"] and params["epsilon"] in grid["regressor__svr__epsilon"]
    assert np.corrcoef(model.predict(x), y)[0, 1] > 0.9


def test_epsilon_means_the_same_on_any_judgment_scale():
    rng = np.random.default_rng(3)
    x = feature_matrix(rng.random(200), rng.random(200))
    y = x[:, 0] + 0.3 * x[:, 1] + rng.normal(0, 0.05, 200)
    small, large = make_cremer("rbf").fit(x, y), make_cremer("rbf").fit(x, 1 + 40 * y)  # 0-1 vs a wide scale
    # equal up to the SVR solver's tolerance (1e-3 in standardised units)
    assert np.abs(1 + 40 * small.predict(x) - large.predict(x)).max() < 1e-3 * np.std(40 * y)
