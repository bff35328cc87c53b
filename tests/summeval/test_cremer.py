import numpy as np
import pytest

from summeval.bench.responsiveness import document_folds
from summeval.cremer import KERNELS, feature_matrix, load_model, make_cremer, save_model


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
