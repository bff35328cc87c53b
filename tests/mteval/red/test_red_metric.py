"""The ``red`` and ``redp`` metrics end to end (spaCy parses the references): ordering of good and
bad translations, several references, and bad input as in mteval's other metrics."""

import pytest

from evalcore.metric import Item
from mteval.red.metric import TABLE1, Red, RedP

REF = "The council approved the new budget on Monday."
GOOD = "The council approved the new budget on Monday."
CLOSE = "On Monday the council approved a new budget."
BAD = "Budget the Monday on council new approved the."


@pytest.fixture(scope="module", params=["red", "redp"])
def metric(request):
    return Red() if request.param == "red" else RedP(w_par=0.0)  # paraphrase tables: the conformance suite


def test_better_translations_score_higher(metric):
    good, close, bad = (r.value for r in metric.score_batch([(REF, c) for c in (GOOD, CLOSE, BAD)]))
    assert good > close > bad > 0


def test_stems_and_synonyms_only_help_redp():
    hyp = "The councils approve the new budgets on Monday."
    without_stems = RedP(w_par=0.0, w_stem=0.0).score(REF, hyp)
    assert RedP(w_par=0.0).score(REF, hyp).components["f1"] > without_stems.components["f1"]
    assert Red().score(REF, hyp).value < Red().score(REF, GOOD).value


def test_several_references_are_averaged(metric):
    other = "On Monday, the council passed its budget."
    both = metric.score([REF, other], CLOSE).value
    assert both == pytest.approx((metric.score(REF, CLOSE).value + metric.score(other, CLOSE).value) / 2)


def test_bad_input(metric):
    results = metric.score_batch([Item("", (REF,), id="empty"), Item(". , !", (REF,), id="punct"),
                                  Item("委员会周一批准了预算。", (REF,), id="zh"), Item(GOOD, ("?!",), id="ref")])
    assert results[0].ok and results[0].value == 0.0 and results[0].notes[-1].startswith("empty")
    assert results[1].ok and results[1].value == 0.0 and results[1].notes
    assert not results[2].ok and "100% of letters are not Latin script" in results[2].message
    assert not results[3].ok and "reference 1 has no word" in results[3].message
    assert metric.score(REF, "   ").value == 0.0  # the single-item API scores it alike


@pytest.mark.parametrize("params", [{"alpha": 1.0}, {"alpha": 0}, {"weights": (0.5, 0.5)}, {"language": "de"},
                                    {"weights": (1, 2, 0)}])
def test_parameters_are_checked(params):
    with pytest.raises(ValueError):
        Red(**params).validate()


def test_redp_defaults_are_the_papers_table_1():
    m = RedP()
    assert {k: getattr(m, k) for k in TABLE1} == TABLE1
    with pytest.raises(ValueError):
        RedP(w_fun=1.5).validate()
