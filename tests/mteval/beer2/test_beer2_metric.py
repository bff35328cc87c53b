"""The ``beer2`` metric with the shipped default model: scaling as upstream applies it, the
numbers upstream's own files pin down, references, corpus score and bad input."""

import json

import numpy as np
import pytest

from evalcore.io.models import ModelFileError
from evalcore.metric import Item
from mteval.beer2.metric import Beer2
from mteval.beer2.model import Beer2Model, default_model_dir, model_digest

# upstream's output scaling (models/default/output_scaling): human-scale score = W0 + W1 * raw
W0, W1 = 8.580459341342790, 20.51272094172102


@pytest.fixture(scope="module")
def metric():
    return Beer2()


@pytest.fixture(scope="module")
def model():
    return Beer2Model(default_model_dir())


def test_identical_pair_gives_upstreams_top_raw_score(metric, model):
    """An identical pair has every P, R, F, G = 1 and no length disbalance, so its raw score is the
    sum of the 60 non-length weights. Upstream's models/default/correlation.csv (raw scores of the
    WMT13 absolute judgments, computed by upstream's Scala) tops out at 4.207598785930006: that
    segment's hypothesis equals its reference, and our pipeline gives the same number."""
    score = metric.score("Das ist ein kleiner Test .", "Das ist ein kleiner Test .")
    non_length = [w for w, n in zip(model.weights, model.names) if not n.startswith("len_")]
    assert score.raw == pytest.approx(sum(non_length), abs=1e-12)
    # within 1e-12, not bit for bit: correlation.csv comes from TrainApp's in-memory liblinear
    # weights, of which core_model keeps 16 significant digits (a double needs up to 17)
    assert score.raw == pytest.approx(4.207598785930006, abs=1e-12)
    assert score.value == pytest.approx((W0 + W1 * 4.207598785930006) / 100)  # 0.9489


def test_feature_scaling_and_weights(model):
    # raw = sum_i w_i (x_i - min_i) / (max_i - min_i): move one length feature by hand
    x = np.zeros((1, len(model.names)))
    template_names = model.template.feature_names()
    x[0, template_names.index("len_disbalance_word.d.1.0")] = 0.5
    scaled = model.scale_features(x)[0]
    k = model.names.index("len_disbalance_word.d.1.0")
    assert scaled[k] == pytest.approx(0.5 / 3.666666666666667)  # feature_values_scaling row 25: 0 .. 3.667
    assert np.count_nonzero(scaled) == 1
    assert model.raw(x)[0] == pytest.approx(model.weights[k] * 0.5 / 3.666666666666667)


def test_output_scaling_clips_to_0_and_1(model):
    raws = np.array([-1.0, 0.0, 2.0, (100 - W0) / W1 + 0.01, 5.0])
    assert model.score(raws) == pytest.approx([0.0, W0 / 100, (W0 + 2 * W1) / 100, 1.0, 1.0])


def test_hand_checked_pair_end_to_end(metric, model):
    """The value is the output scaling of w . scaled features, features from the template."""
    template = model.template
    values = template.values([(template.pieces("a b a"), template.pieces("a b"))])
    raw = float(model.raw(values)[0])
    got = metric.score("a b", "a b a")
    assert got.raw == pytest.approx(raw)
    assert got.value == pytest.approx((W0 + W1 * raw) / 100)


def test_case_and_spacing_follow_upstream(metric):
    # no lower-casing: case changes the score; runs of spaces do not (Java split(" +"))
    ref = "The cat sat on the mat ."
    assert metric.score(ref, "the cat sat on the mat .").value < metric.score(ref, ref).value
    assert metric.score(ref, "The  cat sat   on the mat .").value == metric.score(ref, ref).value


def test_best_reference_wins_and_corpus_is_the_mean(metric):
    refs = ("The cat sat on the mat .", "A dog barked loudly .")
    cand = "The cat sat on a mat ."
    each = [metric.score(r, cand).value for r in refs]
    assert metric.score(refs, cand).value == max(each)
    items = [(refs, cand), (refs, "A dog barked .")]
    scores = [metric.score(*it).value for it in items]
    assert metric.corpus_score(items).value == pytest.approx(np.mean(scores))


def test_empty_hypothesis_scores_zero_and_empty_reference_is_an_error_record(metric):
    results = metric.score_batch([Item("", ("A reference .",), id="h-empty"),
                                  Item("A hypothesis .", ("   ",), id="r-empty"),
                                  Item("A hypothesis .", ("A reference .",), id="fine")])
    assert [r.ok for r in results] == [True, False, True]
    assert results[0].value == 0.0 and results[0].notes[-1].startswith("empty")
    assert results[1].item == "r-empty" and "reference 1 is empty" in results[1].message


def test_non_english_text_is_scored_without_notes(metric):
    # trained on into- and out-of-English pairs (cs, de, fr, hi, ru targets): no English notes
    de = metric.score("Der Rat hat den Haushalt am Montag gebilligt .", "Der Rat billigte den Haushalt am Montag .")
    assert 0 < de.value < 1 and not de.notes
    # unsegmented Chinese: one "word" per text, character features still compare
    zh = metric.score("委员会周一批准了预算。", "委员会在周一批准了预算。")
    other = metric.score("委员会周一批准了预算。", "天气很好。")
    assert zh.value > other.value


def test_signature_names_model_and_version(metric):
    sig = str(metric.signature())
    assert sig.startswith("beer2|model:default:") and "upstream:beer-2.0" in sig


def test_sidecar_digest_matches_and_tampering_is_refused(tmp_path):
    side = json.loads((default_model_dir().parent / "default.json").read_text())
    assert side["sha256"] == model_digest(default_model_dir())
    copy = tmp_path / "default"
    copy.mkdir()
    for f in default_model_dir().iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    (tmp_path / "default.json").write_text(json.dumps(side))
    (copy / "output_scaling").write_text((copy / "output_scaling").read_text().replace("8.58", "9.58"))
    with pytest.raises(ModelFileError, match="SHA-256"):
        Beer2Model(copy)
    (tmp_path / "default.json").unlink()
    (copy / "feature_names_mapping").write_text("0 char1.a\n")
    with pytest.raises(ModelFileError, match="feature names"):
        Beer2Model(copy)
