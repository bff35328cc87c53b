"""Conformance suite over every registered metric: the library's checks
(:mod:`evalcore.metric.conformance`) run on each, and the checks themselves catch violations."""

import pytest

from evalcore.metric import ReferenceMetric, Score
from evalcore.metric import conformance as c
from evalcore.metric.registry import registered

NAMES = sorted(registered())


@pytest.fixture(scope="module", params=NAMES)
def metric(request):
    return c._configured(request.param)


def test_every_package_registers_metrics():
    assert {s.package for s in registered().values()} >= {"summeval", "coherence", "parapeval", "mteval"}


def test_batch_equals_one_by_one(metric):
    c.check_batch_equals_one_by_one(metric)


def test_order_does_not_change_scores(metric):
    c.check_order_does_not_change_scores(metric)


def test_pickled_metric_scores_the_same(metric):
    c.check_pickled_metric_scores_the_same(metric)


def test_deterministic_across_processes(metric):
    c.check_deterministic_across_processes(metric)


def test_empty_input_is_scored_with_a_note_and_oversized_input_is_an_error_record(metric):
    c.check_empty_input_is_scored_with_a_note_and_oversized_input_is_an_error_record(metric)


@pytest.mark.parametrize("text", c.UNJUDGEABLE)
def test_unjudgeable_text_gets_a_defined_flagged_score(metric, text):
    c.check_unjudgeable_text_gets_a_defined_flagged_score(metric, (text,))


def test_signature_follows_every_parameter(metric):
    c.check_signature_follows_every_parameter(metric)


def test_signature_prints_in_short_form(metric):
    c.check_signature_prints_in_short_form(metric)


def test_facts_are_declared(metric):
    c.check_facts_are_declared(metric)


def test_perfect_match_scores_at_least_as_well_as_garbage(metric):
    c.check_orientation(metric)


@pytest.mark.parametrize("name", NAMES)
def test_registry_entry_agrees_with_the_class(name):
    c.check_spec_agrees_with_class(name)


@pytest.mark.parametrize("package", sorted({s.package for s in registered().values()}))
def test_default_sets_hold_default_metrics_only(package):
    c.check_default_sets(package)


def test_every_check_runs_on_every_registered_metric():
    cases = c.conformance_cases("mteval")
    assert ("bleu", "orientation") in cases and ("xmeant", "spec") in cases
    assert len(cases) == len(registered("mteval")) * (len(c.CHECKS) + 1)
    mark = c.parametrize_registered("parapeval")
    assert mark.args[0] == "metric_name, check" and ("pem", "spec") in mark.args[1]


class Upside(ReferenceMetric):
    """Word overlap with the first reference, declared lower-is-better by mistake."""

    name = "upside"
    lower_is_better = True

    def _score_items(self, items):
        return [Score(float(len(set(it.candidate.split()) & set(it.references[0].split())))) for it in items]


def test_check_metric_passes_a_conforming_metric_and_names_a_violation():
    class Overlap(Upside):
        name = "overlap"
        lower_is_better = False

    c.check_metric(Overlap(), ["batch_equals_one_by_one", "facts_are_declared", "orientation"])
    with pytest.raises(AssertionError, match="metric upside: orientation: .*perfect match should be lower"):
        c.check_metric(Upside(), ["orientation"])


def test_facts_of_the_wrong_kind_fail_the_check():
    class Costly(Upside):
        lower_is_better = False
        cost = "expensive"

    with pytest.raises(AssertionError, match="cost must be one of light, medium, heavy"):
        c.check_metric(Costly(), ["facts_are_declared"])


def test_a_default_set_holding_an_opt_in_metric_fails(monkeypatch):
    import summeval.registry

    monkeypatch.setattr(summeval.registry, "ALL_METRICS", (*summeval.registry.ALL_METRICS, "cremer-news-chat"))
    with pytest.raises(AssertionError, match="ALL_METRICS holds 'cremer-news-chat', which is opt-in"):
        c.check_default_sets("summeval")


def test_check_metric_by_name_runs_every_check_and_the_registry_agreement():
    c.check_metric("bleu")
