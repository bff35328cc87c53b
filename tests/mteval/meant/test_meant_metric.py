"""The `meant`/`umeant` metric classes with a stand-in labeller (hand-made frames): batch labelling,
backoff flags, several references, role weights, signatures and languages without a labeller."""

import pytest

from evalcore.metric import Item
from evalcore.resources.registry import ResourceError
from mteval.meant.metric import Meant
from mteval.meant.up_counts import up_weights
from mteval.srl.frames import Argument, Frame, FramedSentence

REF = "The council approved the budget on Monday"
MT = "On Monday the budget was approved by the council"
FRAMES = {
    REF: (Frame(2, "approve", "verbal", (Argument("ARG0", 1, (0, 2)), Argument("ARG1", 4, (3, 5)),
                                         Argument("ARGM-TMP", 6, (5, 7)))),),
    MT: (Frame(5, "approve", "verbal", (Argument("ARGM-TMP", 1, (0, 2)), Argument("ARG1", 3, (2, 4)),
                                        Argument("ARG0", 8, (6, 9)))),),
}


class HandLabeller:
    """Whitespace tokens; frames from FRAMES, none for other texts; counts the texts it labels."""

    def __init__(self):
        self.labelled = []

    def label(self, texts):
        self.labelled.extend(texts)
        return [FramedSentence(tuple(t.split()), FRAMES.get(t, ())) for t in texts]

    def describe(self):
        return {"lang": "en", "parser": "whitespace", "model": "hand"}


@pytest.fixture
def labeller(monkeypatch):
    hand = HandLabeller()
    monkeypatch.setattr(Meant, "_labeller", lambda self: hand)
    return hand


def test_hand_made_pair_through_the_metric(labeller):
    score = Meant(similarity="exact").score(REF, MT)
    assert score.value == pytest.approx(0.95)
    assert (score.precision, score.aligned_frames, score.backoff) == pytest.approx((0.95, 1, 0))
    assert not score.notes


def test_each_distinct_text_is_labelled_once_per_batch(labeller):
    items = [Item(MT, (REF,)), Item(REF, (REF,)), Item(MT, (REF,))]
    results = Meant(similarity="exact").score_batch(items)
    assert [r.ok for r in results] == [True] * 3 and results[1].value == pytest.approx(1.0)
    assert sorted(labeller.labelled) == sorted([MT, REF])


def test_no_predicate_backs_off_with_a_note_and_an_empty_line_scores_zero(labeller):
    results = Meant(similarity="exact").score_batch([Item("the budget on Monday", (REF,)), Item("  ", (REF,))])
    flagged, empty = results
    assert flagged.ok and 0 < flagged.value < 1 and flagged.backoff == 1.0
    assert "backoff: no frame in the candidate" in flagged.notes[0]
    assert empty.ok and empty.value == 0.0 and empty.notes[-1].startswith("empty")


def test_non_english_text_gets_a_defined_flagged_score(labeller):
    result = Meant(similarity="exact").score_batch([Item("委员会周一批准了预算。", (REF,))])[0]
    assert result.ok and result.value == 0.0 and result.notes


def test_best_of_several_references(labeller):
    metric = Meant(similarity="exact")
    both = metric.score([REF, "something else entirely"], MT).value
    assert both == pytest.approx(metric.score(REF, MT).value)
    assert Meant(similarity="exact", multi_ref="mean").score([REF, "something else entirely"], MT).value < both


def test_umeant_weights_are_the_shipped_up_counts(labeller):
    metric = Meant(similarity="exact", role_weights="umeant")
    assert metric.name == "umeant" and Meant().name == "meant" and Meant(filler_similarity="itg").name == "imeant"
    w = up_weights()
    assert w.pred == pytest.approx(0.25 * w.of("agent")) and sum(w.roles) == pytest.approx(1.0)
    assert w.of("experiencer") > w.of("agent") > w.of("negation") > 0  # ARG1 is PropBank's commonest role
    # weights change the value: agent (0.8) weighs less than under equal weights
    assert metric.score(REF, MT).value != pytest.approx(Meant(similarity="exact").score(REF, MT).value)
    assert "umeant-up:" in str(metric.signature())


def test_signature_names_the_ambiguous_reading_and_decisions(labeller):
    sig = str(Meant(similarity="exact").signature())
    assert sig.startswith("meant|") and "den:all" in sig and "decisions:" in sig and "lexsim:name=exact" in sig


@pytest.mark.parametrize("param, value", [("role_weights", "tuned"), ("denominator", "some"), ("multi_ref", "min")])
def test_bad_parameters_are_refused(labeller, param, value):
    with pytest.raises(ValueError, match=param):
        Meant(**{param: value}).validate()


def test_language_without_labeller_stops_with_what_is_missing():
    with pytest.raises(ResourceError, match="no semantic role labeller for 'de'.*German"):
        Meant(similarity="exact", language="de").validate()


def test_english_similarities_are_refused_for_other_languages(labeller):
    with pytest.raises(ValueError, match="English-only"):
        Meant(language="fr").validate()


def test_imeant_scores_fillers_by_itg(labeller):
    imeant = Meant(similarity="exact", filler_similarity="itg")
    assert imeant.name == "imeant" and "itg:inside" in str(imeant.signature())
    assert imeant.score(REF, REF).value == pytest.approx(1.0)
    value = imeant.score(REF, MT).value
    assert 0 < value < 1 and value != pytest.approx(Meant(similarity="exact").score(REF, MT).value)
