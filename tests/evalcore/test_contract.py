"""The metric contract on toy metrics: typed inputs, error records, notes, signatures, isolation."""

import math
import pickle

import pytest

from evalcore.io.textfiles import InputError
from evalcore.metric import Item, ReferenceFreeMetric, ReferenceMetric, Score, SourceMetric
from evalcore.metric.batch import score_with
from evalcore.metric.inputs import EMPTY_NOTE, InputLimits, check_text, clean_text, judge_english
from evalcore.metric.records import ErrorRecord


class Overlap(ReferenceMetric):
    """Share of candidate words found in the best reference (a toy with two components)."""

    name = "overlap"
    signature_keys = {"lowercase": "lc"}

    def __init__(self, lowercase: bool = True, fail_on: str | None = None):
        self.lowercase = lowercase
        self.fail_on = fail_on

    def _score_items(self, items):
        out = []
        for it in items:
            if self.fail_on and self.fail_on in it.candidate:
                raise RuntimeError("cannot read this one")
            norm = (lambda t: t.lower()) if self.lowercase else (lambda t: t)
            cand = norm(it.candidate).split()
            best = max(sum(w in norm(r).split() for w in cand) / len(cand) for r in it.references)
            out.append(Score(best, {"hits": best * len(cand)}))
        return out


class Length(ReferenceFreeMetric):
    name = "length"

    def __init__(self, neutral: float | None = None):
        self.neutral = neutral

    def neutral_score(self):
        return None if self.neutral is None else Score(self.neutral)

    def _score_items(self, items):
        return [Score(len(it.candidate.split())) for it in items]


class Same(SourceMetric):
    name = "same"

    def _score_items(self, items):
        return [Score(float(it.source == it.candidate)) for it in items]


def test_reference_metric_scores_pairs_and_items_alike():
    m = Overlap()
    a = m.score(["the cat sat"], "The cat ran")
    b = m.score_batch([(["the cat sat"], "The cat ran"), Item("The cat ran", ("the cat sat",))])
    assert a.value == pytest.approx(2 / 3) and a.hits == pytest.approx(2)
    assert [r.value for r in b] == [a.value, a.value]


class EmptyZero(Overlap):
    """Overlap cannot read an empty text (it divides by the word count): it declares its value."""

    empty_value = 0.0


def test_empty_candidate_is_scored_with_a_note_never_dropped():
    # a metric that reads empty text scores it; a learned metric's neutral value is not given
    for metric in (Length(), Length(neutral=5.0)):
        score = metric.score(" \t ")
        assert score.value == 0 and EMPTY_NOTE in score.notes
    # a metric that cannot read it gives its declared value without being run
    rec = EmptyZero(fail_on="x").score_batch([("the cat", ""), ("the cat", "the cat"), ("the cat", "\x00 ")])
    assert [r.value for r in rec] == [0.0, 1.0, 0.0] and EMPTY_NOTE in rec[0].notes and not rec[1].notes
    # an empty reference leaves nothing to score against: an error record
    rec = EmptyZero().score_batch([(" ", "the cat")])
    assert not rec[0].ok and "reference 1 is empty" in rec[0].message
    # over the size cap, whitespace is still refused
    rec = EmptyZero().score_batch([("the cat", " " * 20)], InputLimits(10))
    assert not rec[0].ok and "too long" in rec[0].message


def test_swapped_arguments_name_the_mistake():
    with pytest.raises(InputError, match="swap"):
        Overlap().score("the cat sat", ["the cat"])  # type: ignore[arg-type]  # wrong type on purpose


def test_a_failing_item_costs_only_itself():
    results = Overlap(fail_on="boom").score_batch([("a b", "a b"), ("a b", "boom a"), ("a b", "b")])
    assert [r.ok for r in results] == [True, False, True]
    assert not results[1].ok and "cannot read this one" in results[1].message and results[1].item == "item 2"


def test_one_metric_failing_never_costs_another():
    class Broken(ReferenceFreeMetric):
        name = "broken"

        def _score_items(self, items):
            raise OSError("cache folder is read-only")

    items = [Item("a b c", ("a b",)), Item("a", ("a",))]
    rows = score_with([Broken(), Overlap()], items)
    assert all(not r["broken"].ok for r in rows)
    assert [r["overlap"].value for r in rows] == [pytest.approx(2 / 3), 1.0]


def test_oversized_text_is_an_error_record_naming_the_item():
    rec = Overlap().score_batch([Item("word " * 50, ("word",), id="doc7/sysA")], InputLimits(max_chars=100))
    assert isinstance(rec[0], ErrorRecord) and rec[0].item == "doc7/sysA" and "too long" in rec[0].message


def test_control_characters_are_stripped_before_scoring():
    assert clean_text("a\x00b\tc\n") == "ab\tc\n"
    assert Length().score("one\x00 two").value == Length().score("one two").value


def test_unjudgeable_text_gets_a_flag_or_the_neutral_value():
    assert judge_english("مرحبا بالعالم هذا نص عربي") and judge_english("🙂🙂🙂 !!!")
    assert judge_english("The committee met on Tuesday to discuss the budget.") == ()
    flagged = Length().score("🙂🙂🙂 !!!")
    assert flagged.value == 2 and any(n.startswith("no-words") for n in flagged.notes)
    neutral = Length(neutral=0.5).score("🙂🙂🙂 !!!")
    assert neutral.value == 0.5 and any(n.startswith("neutral") for n in neutral.notes)


def test_text_in_another_script_than_the_metrics_language_is_an_error_record():
    """Chinese read as English: an error record naming the script, for a plain and a learned metric."""
    for metric in (Length(), Length(neutral=0.5)):
        record = metric.score_batch([Item("这是一个中文句子", id="zh-1")])[0]
        assert not record.ok and record.item == "zh-1"
        assert "candidate: 100% of letters are not Latin script, the script of lang=en" in record.message


def test_source_metric_reads_pairs():
    assert Same().score("a b", "a b").value == 1.0
    assert Same().score_batch([("a b", "a c")])[0].value == 0.0


def test_signature_follows_every_parameter_and_round_trips():
    m = Overlap(lowercase=False)
    assert str(m.signature()).startswith("overlap|lc:no|fail_on:none|v:")
    assert str(type(m)(**m.get_params()).signature()) == str(m.signature())
    assert str(Overlap().signature()) != str(m.signature())


def test_scores_and_metrics_pickle():
    s = Score(0.5, {"p": 1.0}, ("note",))
    assert pickle.loads(pickle.dumps(s)) == s
    m = pickle.loads(pickle.dumps(Overlap(lowercase=False)))
    assert m.get_params() == {"lowercase": False, "fail_on": None}


def test_score_json_is_strict():
    assert Score(math.nan).as_dict() == {"value": None}


def test_check_text_rejects_bytes_and_other_types():
    for data in (b"\xff\xfe", b"a b"):
        with pytest.raises(InputError, match="must be a string, got bytes"):
            check_text(data, "x")
    with pytest.raises(InputError, match="must be a string"):
        check_text(3, "x")
