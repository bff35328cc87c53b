"""``readability``: features of TAC's five linguistic-quality questions from one parse, the
pairwise model, the metric's contract (records, languages, signature) and training across sets."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from coherence.readability.features import FEATURES, LENGTH_FEATURES, NAMES
from coherence.readability.model import CLIP, ReadabilityModel
from evalcore.learn.groups import z_within
from evalcore.metric import Item

GOOD = ("The council met on Monday. It approved the budget after a long debate. "
        "The mayor said the budget would fund two schools.")
REPEATED = "The council met on Monday. The council met on Monday. The council met on Monday."
PRONOUN_FIRST = "He said it would rain. They left early."


@pytest.fixture(scope="module")
def extractor():
    from coherence.readability.extract import Extractor

    return Extractor("auto", cache=False)


def _row(extractor, text: str) -> dict[str, float]:
    return dict(zip(NAMES, extractor.features([text])[0].tolist()))


def test_every_feature_is_named_and_documented():
    assert len(NAMES) == len(set(NAMES)) == 16
    assert {f.question for f in FEATURES} == {"length", "grammaticality", "non-redundancy", "referential clarity",
                                              "structure", "focus"}
    assert LENGTH_FEATURES == {"log_words", "log_sentences"}
    assert all(f.what for f in FEATURES)


def test_features_see_what_each_question_asks(extractor):
    good, repeated, pronoun = (_row(extractor, t) for t in (GOOD, REPEATED, PRONOUN_FIRST))
    assert repeated["repeated_trigrams"] > 0.5 and good["repeated_trigrams"] == 0
    assert repeated["max_sentence_overlap"] == 1.0
    assert pronoun["pronoun_start"] == 1.0 and good["pronoun_start"] == 0.0
    assert pronoun["unresolved_pronouns"] > 0 and good["unresolved_pronouns"] == 0
    assert good["log_sentences"] == pytest.approx(math.log(3))
    assert good["lm_worst_sentence"] <= good["lm_per_word"] < 0
    assert 0 <= good["fragment_share"] < 1 and good["oov_share"] >= 0


def test_one_sentence_has_no_transitions(extractor):
    row = _row(extractor, "The council approved the budget.")
    for name in ("adjacent_similarity", "entity_continuity", "focus_similarity", "max_sentence_overlap", "dicomer"):
        assert math.isnan(row[name]), name


def test_lines_end_sentences_for_features(extractor):
    row = _row(extractor, "Council approves budget\nMayor welcomes the vote")
    assert row["log_sentences"] == pytest.approx(math.log(2))


def test_model_learns_a_preference_and_reads_nan_as_the_mean():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, len(NAMES)))
    y = 2.0 * X[:, NAMES.index("repeated_trigrams")] * -1 + 0.1 * rng.normal(size=300)
    groups = np.repeat(np.arange(30), 10)
    sets = np.where(groups < 15, "a", "b")
    model = ReadabilityModel(C=1.0).fit(X, y, groups, sets)
    weights = model.weights()
    assert weights["repeated_trigrams"] < 0
    assert abs(weights["repeated_trigrams"]) == max(abs(w) for w in weights.values())
    row = X[:1].copy()
    row[0, NAMES.index("dicomer")] = np.nan
    filled = X[:1].copy()
    filled[0, NAMES.index("dicomer")] = model.mean_[NAMES.index("dicomer")]
    assert model.decision_function(row) == pytest.approx(model.decision_function(filled))
    extreme = X[:1].copy()
    extreme[0, 0] = 1e9  # clipped at CLIP SDs
    assert model._z(extreme)[0, 0] == CLIP


def test_standardised_within_groups():
    z = z_within([1, 2, 3, 10, 20, 30, 7], ["a", "a", "a", "b", "b", "b", "c"])
    assert z[:3] == pytest.approx(z[3:6]) and z[:3] == pytest.approx([-1.224744871, 0, 1.224744871]) and z[6] == 0


def test_metric_scores_explains_and_refuses():
    from evalcore.metric.registry import get_metric

    metric = get_metric("readability")
    results = metric.score_batch([Item(GOOD, id="good"), Item(REPEATED, id="repeated"), Item("", id="empty"),
                                  Item("Der Rat tagte am Montag. Er billigte den Haushalt.", id="de", lang="de")])
    good, repeated, empty, german = results
    assert good.ok and repeated.ok and good.value > repeated.value
    assert set(good.components) == {"length", "grammaticality", "non-redundancy", "referential clarity",
                                    "structure", "focus"}
    assert good.value == pytest.approx(sum(good.components.values()))
    model = metric._engine().model
    assert empty.ok and empty.value == pytest.approx(model.worst().sum()) and empty.value < repeated.value
    assert any(n.startswith("empty:") for n in empty.notes)
    assert not german.ok and "de" in german.message
    signature = str(metric.signature())
    for part in ("readability|", "features:rf1", "trained:summeval", "sentences:auto", "lm:default:4g:", "model:"):
        assert part in signature


def test_shipped_models_name_every_feature_and_their_licence():
    from coherence.readability.metric import load_readability_model

    model, info = load_readability_model(None)
    assert info["sets"] == ["summeval"] and "use" not in info
    assert set(info["feature_descriptions"]) == set(NAMES)
    assert set(model.features) <= set(NAMES) and info["feature_set"] in ("all", "no-length")
    opt_in, opt_info = load_readability_model("all")
    assert opt_info["sets"] == ["summeval", "dialsummeval", "webnlg"] and opt_info["use"] == "non-commercial"
    assert json.dumps(info["leave_one_set_out"])  # the selection record ships with the model


def test_readability_all_is_opt_in():
    from evalcore.metric.registry import get_metric

    assert "use:non-commercial" in str(get_metric("readability-all").signature())
