import numpy as np
import pytest

from evalcore.persist import ModelFileError
from summeval.cremer import KERNELS, feature_matrix, load_model, make_cremer, save_model
from summeval.metrics.cremer import Cremer


def test_kernels_fit_and_rbf_captures_an_interaction():
    rng = np.random.default_rng(0)
    x = feature_matrix(rng.random(300), rng.random(300))
    y = x[:, 0] * x[:, 1] * 4 + 1  # responsiveness needs both content and readability
    errors = {k: np.mean((make_cremer(k).fit(x, y).predict(x) - y) ** 2) for k in KERNELS}
    assert errors["rbf"] < errors["linear"]
    with pytest.raises(ValueError):
        make_cremer("sigmoid")


def test_save_and_load_round_trip_with_a_checked_sidecar(tmp_path):
    x = feature_matrix([0.1, 0.5, 0.9, 0.3], [1.0, -1.0, 0.5, 0.0])
    model = make_cremer("linear").fit(x, [1, 3, 5, 2])
    info = {"features": ["tesla-s", "dicomer"], "target": "t:overall", "trained_on": "four toy summaries",
            "licence": "test data"}
    path = save_model(model, "linear", info, tmp_path)
    loaded, side = load_model("linear", tmp_path)
    assert np.allclose(loaded.predict(x), model.predict(x))
    assert side["signature"] == "cremer-lf|variant:CREMER-LF|features:tesla-s+dicomer|target:t:overall|v:0.1.0"
    assert len(side["sha256"]) == 64 and side["trained_on"] == "four toy summaries"
    path.write_bytes(path.read_bytes() + b"tampered")
    with pytest.raises(ModelFileError, match="does not match the SHA-256"):
        load_model("linear", tmp_path)


def test_shipped_models_have_sidecars_of_the_persistence_scheme():
    for kernel in KERNELS:
        _, info = load_model(kernel)  # checks the file against the sidecar's SHA-256
        assert {"signature", "trained_on", "licence", "sha256"} <= set(info)
        assert info["n_summaries"] == 1600 and info["target"] == "summeval:mean"


def test_cremer_signatures_and_model_hashes_are_those_of_0_1_0():
    # the shipped models were given sidecars without being re-pickled: same bytes, same hashes
    expected = {"rbf": "cremer|variant:CREMER-RBF|features:tesla-s+dicomer|target:summeval:mean|model:2376e1b69af2",
                "linear": "cremer-lf|variant:CREMER-LF|features:tesla-s+dicomer|target:summeval:mean|model:286560021ed5",
                "poly": "cremer-pf|variant:CREMER-PF|features:tesla-s+dicomer|target:summeval:mean|model:dd57762ec071"}
    for kernel, sig in expected.items():
        assert str(Cremer(kernel).signature()) == f"{sig}|v:0.1.0"


def test_cremer_score_carries_its_inputs_and_no_precision_recall_f():
    s = Cremer().score(["The council approved the budget. It will fund two new schools next year."],
                       "The council approved the budget. The money pays for two new schools.")
    assert set(s.components) == {"tesla_s", "dicomer"}
    with pytest.raises(AttributeError):
        s.precision
    with pytest.raises(ValueError, match="kernel"):
        Cremer("sigmoid").score("a b", "a b")


def test_missing_model_is_a_clear_error(tmp_path):
    from evalcore.resources import ResourceError

    with pytest.raises(ResourceError, match="summeval train cremer"):
        load_model("rbf", tmp_path)


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
