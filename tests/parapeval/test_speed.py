"""PEM's speed work on toy resources: one preprocessor for all pivots, batched look-ups and one
regressor call per batch with values unchanged."""

import numpy as np

from evalcore.bpng import PhraseTableStore
from parapeval.pem import metric as pem_module
from parapeval.pem.metric import PEM, PEMFeatures


def test_pivots_share_one_preprocessor(toy_store, toy_lm):
    """The old features built one Porter preprocessor per pivot: every text stemmed four times."""
    features = PEMFeatures({p: PhraseTableStore(toy_store) for p in ("fr", "de", "es")}, toy_lm)
    pres = list(features.preprocessors.values())
    assert len(pres) == 3 and all(p is pres[0] for p in pres)


def test_batched_features_equal_features_pair_by_pair(toy_store, toy_lm, toy_pairs, monkeypatch):
    monkeypatch.setattr(pem_module, "WINDOW_PAIRS", 3)  # several windows
    pairs = [(p.original, p.paraphrase) for p in toy_pairs]
    one_by_one = PEMFeatures({"fr": PhraseTableStore(toy_store)}, toy_lm)
    expected = [one_by_one.compute(o, p) for o, p in pairs]
    windows: list[int] = []
    X, pivots = PEMFeatures({"fr": PhraseTableStore(toy_store)}, toy_lm).compute_many(pairs, windows.append)
    assert windows == [3, 3, 3, 3]
    assert np.array_equal(X, np.array([x for x, _ in expected]))
    assert pivots == [p for _, p in expected]


def test_compiled_and_python_feature_paths_agree_bit_for_bit(toy_store, toy_lm, toy_pairs):
    features = PEMFeatures({"fr": PhraseTableStore(toy_store), "de": PhraseTableStore(toy_store)}, toy_lm, discount=0.1)
    pairs = [(p.original, p.paraphrase) for p in toy_pairs]
    assert np.array_equal(features.pivot_matrix(pairs, compiled=True), features.pivot_matrix(pairs, compiled=False))
    assert np.array_equal(features.target_scores(pairs, compiled=True), features.target_scores(pairs, compiled=False))


def test_a_batch_calls_the_regressor_once(toy_pem, toy_pairs, monkeypatch):
    fresh = PEM(**toy_pem.get_params())
    _, regressor = fresh.resources
    calls: list[int] = []
    predict = regressor.predict

    def counted_predict(X: np.ndarray) -> np.ndarray:
        calls.append(len(X))
        return predict(X)

    monkeypatch.setattr(regressor, "predict", counted_predict)
    results = fresh.score_batch([(p.original, p.paraphrase) for p in toy_pairs])
    assert calls == [len(toy_pairs)] and all(r.ok for r in results)
    assert [r.value for r in results] == [toy_pem.score(p.original, p.paraphrase).value for p in toy_pairs]






def test_target_f1_batch_equals_target_f1_bit_for_bit():
    import random

    from evalcore.text.preprocess import Doc
    from parapeval.pem.target_ngrams import target_bag, target_f1, target_f1_batch

    rng = random.Random(3)
    docs = [Doc(tuple(rng.choices(["a", "b", "c", "the", "."], k=rng.randint(0, 14))), ()) for _ in range(30)]
    pairs = [(rng.choice(docs), rng.choice(docs)) for _ in range(200)]
    for max_n in (1, 2, 4):
        want = [target_f1(target_bag(o, max_n), target_bag(p, max_n)) for o, p in pairs]
        assert target_f1_batch(pairs, max_n).tolist() == want


def test_compiled_svr_prediction_equals_libsvm_within_the_stated_tolerance(toy_model):
    """Within rbf_svr.RTOL (1e-12 relative) and ATOL (1e-12 absolute), not bit for bit: exp and the
    compiled code differ between CPUs (AVX-512 or not) and numba/scikit-learn versions by a few ulp."""
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVR

    from parapeval.pem import rbf_svr
    from parapeval.pem.model import load_pem

    rng = np.random.default_rng(5)
    X = rng.normal(size=(400, 3))
    y = X @ [0.5, -1.0, 2.0] + rng.normal(size=400)
    fitted = Pipeline([("scale", StandardScaler()), ("svr", SVR(C=3.0))]).fit(X, y)
    regressor, _ = load_pem(toy_model)
    for pipeline in (fitted, regressor.pipeline_):
        assert rbf_svr.supports(pipeline)
        Z = rng.normal(size=(300, 3)) * 3
        np.testing.assert_allclose(rbf_svr.predict(pipeline, Z), pipeline.predict(Z), rtol=rbf_svr.RTOL,
                                   atol=rbf_svr.ATOL)
        assert np.array_equal(rbf_svr.predict(pipeline, Z), rbf_svr.predict(pipeline, Z))  # same run, same bits
    linear = Pipeline([("svr", SVR(kernel="linear"))]).fit(X, X[:, 0])
    assert not rbf_svr.supports(linear)
