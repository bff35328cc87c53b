import numpy as np
import pytest

from evalcore.io.models import ModelFileError
from evalcore.metric import Item
from summeval.cremer.metric import CremerSVR
from summeval.cremer.model import (
    DICOMER_SCALING,
    KERNELS,
    SINGLE_SUMMARY_NOTE,
    cremer_features,
    feature_matrix,
    load_cremer,
    make_cremer,
    monotone_in_tesla,
    save_cremer,
    scale_dicomer,
)
from tests.scored import scored


def test_kernels_fit_and_rbf_captures_an_interaction():
    rng = np.random.default_rng(0)
    x = feature_matrix(rng.random(300), rng.random(300))
    y = x[:, 0] * x[:, 1] * 4 + 1  # responsiveness needs both content and readability
    errors = {k: np.mean((make_cremer(k).fit(x, y).predict(x) - y) ** 2) for k in KERNELS}
    assert errors["rbf"] < errors["linear"]
    with pytest.raises(ValueError):
        make_cremer("sigmoid")


def test_save_and_load_round_trip_with_a_checked_header(tmp_path, tamper_model_file):
    x = feature_matrix([0.1, 0.5, 0.9, 0.3], [1.0, -1.0, 0.5, 0.0])
    model = make_cremer("linear").fit(x, [1, 3, 5, 2])
    info = {"features": ["tesla-s", "dicomer"], "target": "t:overall", "trained_on": "four toy summaries",
            "licence": "test data"}
    path = save_cremer(model, "linear", info, tmp_path)
    loaded, side = load_cremer("linear", tmp_path)
    assert np.allclose(loaded.predict(x), model.predict(x))
    assert side["signature"] == ("cremer-lf|variant:CREMER-LF|features:tesla-s+dicomer|tesla:topic-z"
                                 "|dicomer:topic-z-judged|target:t:overall|v:0.2.0")
    assert len(side["sha256"]) == 64 and side["trained_on"] == "four toy summaries"
    assert side["metric"] == "cremer-lf" and side["format"] == "aesop-model/1"
    tamper_model_file(path)
    with pytest.raises(ModelFileError, match="does not match the SHA-256"):
        load_cremer("linear", tmp_path)


def test_shipped_models_have_headers_of_the_model_file_format():
    for kernel in KERNELS:
        _, info = load_cremer(kernel)  # checks the file against the header's SHA-256
        assert {"metric", "version", "signature", "trained_on", "licence", "sha256"} <= set(info)
        assert info["n_summaries"] == 1600 and info["target"] == "summeval:mean"


def test_cremer_signatures_name_the_variant_scaling_and_model_file():
    names = {"linear": "cremer-lf", "rbf": "cremer-rbf", "poly": "cremer-pf"}
    for kernel, name in names.items():
        info = load_cremer(kernel)[1]
        assert str(CremerSVR(kernel).signature()) == (
            f"{name}|variant:{KERNELS[kernel]}|features:tesla-s+dicomer|tesla:topic-z|dicomer:topic-z-judged"
            f"|target:summeval:mean|model:{info['sha256'][:12]}|sentences:auto|v:0.2.0")
        assert info["tesla_scaling"] == "topic-z" and info["dicomer_scaling"] == DICOMER_SCALING
        assert "valid_for" in info and "SummEval" in info["trained_on"]
        assert "non-commercial" in info["licence"]  # says that none was used
    assert CremerSVR().kernel == "linear"  # CREMER-LF is the paper's default


def test_shipped_default_is_monotone_in_tesla_s_at_fixed_dicomer():
    model, info = load_cremer("linear")
    assert monotone_in_tesla(model, np.linspace(-5, 5, 21), n=81, span=4.0)
    for kernel in KERNELS:  # the header records the same check for every variant
        other, side = load_cremer(kernel)
        assert isinstance(side["monotone_in_tesla_s"], bool)
    assert info["monotone_in_tesla_s"] is True


def test_monotone_check_catches_a_model_that_falls_with_tesla_s():
    rng = np.random.default_rng(1)
    x = feature_matrix(rng.normal(size=200), rng.normal(size=200))
    falling = make_cremer("linear").fit(x, -x[:, 0] + 0.1 * x[:, 1])
    rising = make_cremer("linear").fit(x, x[:, 0] + 0.1 * x[:, 1])
    assert not monotone_in_tesla(falling, [0.0]) and monotone_in_tesla(rising, [-1.0, 0.0, 1.0])


def test_cremer_standardises_tesla_s_within_each_topic_and_notes_a_lone_summary():
    refs = ("The council approved the budget. It will fund two new schools next year.",)
    cands = ["The council approved the budget. The money pays for two new schools.",
             "The budget was approved.", "Schools are buildings where children learn."]
    scores = scored(CremerSVR().score_batch([Item(c, refs, id=str(k)) for k, c in enumerate(cands)]))
    z = np.array([s.components["tesla_s_z"] for s in scores])
    assert z.mean() == pytest.approx(0.0, abs=1e-9) and z.std() == pytest.approx(1.0)
    assert all(SINGLE_SUMMARY_NOTE not in s.notes for s in scores)
    assert scores[0].value > scores[2].value  # the close paraphrase is the most responsive
    lone = CremerSVR().score_batch([Item(cands[0], refs, id="0"),
                                    Item(cands[1], ("Another topic's reference.",), id="1")])
    assert all(SINGLE_SUMMARY_NOTE in s.notes for s in lone)


def test_dicomer_is_standardised_within_topic_over_judged_summaries_and_unjudged_ones_get_the_mean():
    values = np.array([-1.0, -0.5, -0.4, 3.0, -2.0, -1.0, 7.0])
    judged = np.array([True, True, False, True, True, False, True])
    topics = np.array(["a", "a", "a", "b", "b", "b", "c"])
    z = scale_dicomer(values, judged, topics)
    assert z[[0, 1]] == pytest.approx([-1.0, 1.0]) and z[[3, 4]] == pytest.approx([1.0, -1.0])
    assert z[2] == 0.0 and z[5] == 0.0  # the neutral value, whatever its raw number, is the topic's mean
    assert z[6] == 0.0  # one judged summary: no contrast within its topic
    # the raw scale (chat summaries score lower than news) does not matter
    assert np.allclose(scale_dicomer(values * 3 - 2, judged, topics), z)


def test_cremer_features_refuse_a_model_trained_with_another_scaling():
    from evalcore.resources.registry import ResourceError

    info = {"tesla_scaling": "topic-z", "dicomer_scaling": DICOMER_SCALING,
            "tesla_s_training": {"mean": 0.0, "sd": 1.0}}
    x, alone = cremer_features([0.1, 0.3], [-1.0, -2.0], [True, True], ["a", "a"], info)
    assert x == pytest.approx(np.array([[-1.0, 1.0], [1.0, -1.0]])) and not alone.any()
    with pytest.raises(ResourceError, match="summeval train cremer"):
        cremer_features([0.1, 0.3], [-1.0, -2.0], [True, True], ["a", "a"], {**info, "dicomer_scaling": "raw"})


def test_cremer_score_carries_its_inputs_and_no_precision_recall_f():
    s = CremerSVR().score(["The council approved the budget. It will fund two new schools next year."],
                       "The council approved the budget. The money pays for two new schools.")
    assert set(s.components) == {"tesla_s", "tesla_s_z", "dicomer"}
    with pytest.raises(AttributeError):
        s.precision  # noqa: B018 - the attribute access is what raises
    with pytest.raises(ValueError, match="kernel"):
        CremerSVR("sigmoid").score("a b", "a b")


def test_missing_model_is_a_clear_error(tmp_path):
    from evalcore.resources.registry import ResourceError

    with pytest.raises(ResourceError, match="summeval train cremer"):
        load_cremer("rbf", tmp_path)


def test_polynomial_kernel_keeps_the_sign_of_a_linear_signal():
    rng = np.random.default_rng(1)
    x = feature_matrix(rng.normal(size=200), rng.normal(size=200))
    y = 2 * x[:, 0] + 3  # a homogeneous degree-2 kernel could not learn this
    assert np.corrcoef(make_cremer("poly").fit(x, y).predict(x), y)[0, 1] > 0.95


def test_fit_cremer_picks_parameters_from_its_grid_with_grouped_folds():
    from summeval.cremer.model import PARAM_GRIDS, fit_cremer, svr_params

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


def test_opt_in_news_chat_model_says_non_commercial_everywhere():
    metric = CremerSVR(training="news-chat")
    model, info = load_cremer("linear", training="news-chat")
    assert metric.name == "cremer-news-chat"
    sig = str(metric.signature())
    assert sig.startswith("cremer-news-chat|variant:CREMER-LF|") and "|use:non-commercial|" in sig
    assert f"model:{info['sha256'][:12]}" in sig and "target:summeval+dialsummeval:mean-z" in sig
    assert info["licence"].startswith("OPT-IN, NON-COMMERCIAL") and "CC BY-NC-ND" in info["licence"]
    assert "DialSummEval" in info["trained_on"] and info["n_summaries"] == 1600 + 1300
    assert "use" not in str(CremerSVR().signature())  # the default carries no such term
    assert monotone_in_tesla(model, np.linspace(-5, 5, 21), n=81, span=4.0) and info["monotone_in_tesla_s"]


def test_training_names_a_model_file_and_refuses_unknown_sets(tmp_path):
    from summeval.cremer.model import metric_name, model_path

    assert model_path("linear", tmp_path, "news-chat").name == "cremer_news_chat_linear.npz"
    assert model_path("rbf", tmp_path).name == "cremer_rbf.npz"
    assert metric_name("rbf", "news-chat") == "cremer-news-chat[kernel=rbf]" and metric_name("poly") == "cremer-pf"
    with pytest.raises(ValueError, match="training must be one of"):
        model_path("linear", tmp_path, "tac")
    with pytest.raises(ValueError, match="training must be one of"):
        CremerSVR(training="tac").signature()
    with pytest.raises(Exception, match="--with-dialsummeval"):
        load_cremer("linear", tmp_path, "news-chat")


def test_news_chat_training_refuses_a_dicomer_that_saw_summaries(monkeypatch, tmp_path):
    from evalcore.resources.registry import ResourceError
    from summeval.cremer import train as cremer_training

    monkeypatch.setattr(cremer_training, "_dicomer_saw_summaries", lambda: True)
    with pytest.raises(ResourceError, match="trained on summaries"):
        cremer_training.train_on_news_and_chat(tmp_path / "summeval.json", tmp_path / "dialsummeval", folder=tmp_path)


def test_weighted_cremer_with_weight_zero_is_tesla_s_exactly():
    from summeval.cremer.combination import combine

    rng = np.random.default_rng(1)
    tesla, readability = rng.random(40), rng.normal(size=40)
    topics = np.repeat(np.arange(8), 5)
    assert np.array_equal(combine(tesla, readability, topics, 0.0), tesla)
    moved = combine(tesla, readability, topics, 0.5)
    for t in range(8):  # within a topic: z(TESLA-S) + 0.5 z(readability), on TESLA-S's scale
        m = topics == t
        z = lambda v: (v - v.mean()) / v.std()  # noqa: E731
        assert np.allclose(z(moved[m]) * 0 + (moved[m] - tesla[m]) / tesla[m].std(), 0.5 * z(readability[m]))


def test_weight_is_the_one_whose_worst_set_gains_most():
    from summeval.cremer.combination import choose_weight

    rng = np.random.default_rng(2)
    topics = np.repeat(np.arange(20), 5)
    tesla, readability = rng.random(100), rng.normal(size=100)
    human = {"helps": tesla + 0.3 * readability, "hurts": tesla - 0.3 * readability}
    sets = {"a": (tesla, readability, topics), "b": (tesla, readability, topics)}

    def criterion(truth: dict[str, str]):
        return lambda name, v: float(np.corrcoef(v, human[truth[name]])[0, 1])

    both, gains = choose_weight(sets, criterion({"a": "helps", "b": "helps"}))
    assert both > 0 and min(gains[f"{both:g}"].values()) > 0
    assert gains["0"] == {"a": 0.0, "b": 0.0}
    mixed, gains = choose_weight(sets, criterion({"a": "helps", "b": "hurts"}))
    assert mixed == 0.0  # helps one set, hurts the other: no weight


def test_shipped_cremer_signs_its_weight_and_scores_every_summary():
    from summeval.cremer.metric import Cremer, load_weighted

    model, info = load_weighted()
    metric = Cremer()
    sig = str(metric.signature())
    assert sig.startswith("cremer|content:tesla-s|readability:readability|") and f"weight:{model['weight']:g}" in sig
    assert info["chosen_on"] == "summeval+dialsummeval" and set(info["gains"]) == {f"{w:g}" for w in
                                                                                    info["weights_searched"]}
    refs = ("The council approved the budget on Monday.",)
    items = [Item("The council approved the budget.", refs, id="a"), Item("Budget budget budget.", refs, id="b"),
             Item("The council met. It approved the budget on Monday.", refs, id="c")]
    got = scored(metric.score_batch(items))
    from summeval.tesla_s.metric import TeslaS

    tesla = [s.value for s in TeslaS().score_batch(items)]
    if model["weight"] == 0:
        assert [s.value for s in got] == tesla
    else:
        assert [s.value for s in got] != tesla
