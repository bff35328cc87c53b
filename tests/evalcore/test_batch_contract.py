"""The Python API's batch contract: any iterable, a score or an error record for every entry
whatever it holds, aggregates that skip and count error records, and strict parameters."""

import math

import pytest

from evalcore.io.textfiles import InputError
from evalcore.metric import ErrorRecord, Item, ReferenceMetric, Score, SourceMetric
from evalcore.metric.registry import declared_options, get_metric, registered


class Overlap(ReferenceMetric):
    """Share of candidate words found in the first reference."""

    name = "overlap"

    def _score_items(self, items):
        return [Score(sum(w in it.references[0].split() for w in it.candidate.split()) / len(it.candidate.split()))
                for it in items]


class Same(SourceMetric):
    name = "same"

    def _score_items(self, items):
        return [Score(float(it.source == it.candidate)) for it in items]


MALFORMED_REFERENCE_ITEMS = [
    None, 5, 2.5, b"a b", "a b", ["a b", "a b"], (["a b"],), (["a b"], "a b", "x"), (None, "x"), (5, "x"),
    (["a b"], None), (["a b"], b"a b"), ([["a b"]], "a b"), ([1], "a b"), ([None], "a b"), ((), "a b"),
    ("a b", ["a b"]), ({"a b"}, "a b"),
    Item(None, ("a b",)), Item("a b", None), Item("a b", (b"a b",)),  # type: ignore[arg-type]  # malformed on purpose
]


@pytest.mark.parametrize("metric", [Overlap(), get_metric("tesla-s")], ids=["toy", "tesla-s"])
def test_a_malformed_entry_is_an_error_record_and_the_batch_survives(metric):
    good = (["a b"], "a b")
    results = metric.score_batch([good, *MALFORMED_REFERENCE_ITEMS, good])
    assert len(results) == len(MALFORMED_REFERENCE_ITEMS) + 2
    assert results[0].ok and results[-1].ok and results[0].value == results[-1].value
    bad = results[1:-1]
    assert all(isinstance(r, ErrorRecord) for r in bad), [r for r in bad if r.ok]
    assert [r.item for r in bad] == [f"item {k + 2}" for k in range(len(bad))]
    assert "bytes" in bad[MALFORMED_REFERENCE_ITEMS.index(b"a b")].message


def test_the_reported_tesla_s_batch_keeps_its_good_item():
    good, bad = get_metric("tesla-s").score_batch([(["a b"], "a b"), (None, "x")])
    assert good.ok and good.value == pytest.approx(1.0)
    assert isinstance(bad, ErrorRecord)
    assert "references must be a string or a list of strings, got NoneType" in bad.message


def test_bytes_are_an_error_record_naming_the_item_never_a_score():
    bytes_item = Item(b"a b", ("a b",), id="doc3")  # type: ignore[arg-type]  # wrong type on purpose
    (rec,) = Overlap().score_batch([bytes_item])
    assert isinstance(rec, ErrorRecord) and rec.item == "doc3" and "got bytes" in rec.message
    (rec,) = Same().score_batch([(b"a b", "a b")])
    assert isinstance(rec, ErrorRecord) and "source must be a string, got bytes" in rec.message


def test_source_metrics_turn_malformed_entries_into_error_records():
    results = Same().score_batch([("a", "a"), ("a",), None, ("a", "a", "a"), (None, "a"), ("a", 3)])
    assert results[0].ok and not any(r.ok for r in results[1:])


def test_any_iterable_is_a_batch():
    pairs = [(["a b"], "a b"), (["a b"], "a c")]
    expected = [r.value for r in Overlap().score_batch(pairs)]
    assert [r.value for r in Overlap().score_batch(p for p in pairs)] == expected
    assert [r.value for r in Overlap().score_batch(iter(pairs))] == expected
    assert Overlap().corpus_score(p for p in pairs).value == pytest.approx(0.75)


def test_one_malformed_item_scored_alone_is_an_input_error():
    for refs, cand in ((None, "x"), (5, "x"), (["a"], None), ([None], "x"), (["a"], b"a")):
        with pytest.raises(InputError):
            Overlap().score(refs, cand)  # type: ignore[arg-type]  # wrong types on purpose


def test_a_string_is_not_a_batch_of_characters():
    with pytest.raises(ValueError, match="score_batch takes an iterable of items, got a str"):
        Overlap().score_batch("a b")


def test_aggregate_skips_error_records_and_counts_them():
    m = Overlap()
    records = m.score_batch([(["a b"], "a b"), (None, "x"), (["a b"], "a c")])
    agg = m.aggregate(records)
    assert agg.value == pytest.approx(0.75) and agg.n_errors == 1
    assert agg.notes == ("1 of 3 items have error records and are not in this score",)
    assert m.aggregate([r for r in records if r.ok]).notes == ()
    assert math.isnan(m.aggregate([records[1]]).value)


def test_sufficient_statistics_aggregate_skips_error_records_too():
    bleu = get_metric("bleu")
    records = bleu.score_batch([(["the cat sat on the mat"], "the cat sat on the mat"), (None, "x")])
    assert bleu.aggregate(records).value == pytest.approx(bleu.aggregate(records[:1]).value)
    assert bleu.aggregate(records).n_errors == 1


def test_unknown_parameters_raise_naming_the_valid_ones():
    with pytest.raises(ValueError, match=r"tesla-s: unknown parameter 'alfa'; valid: .*\balpha\b"):
        get_metric("tesla-s", alfa=0.5)
    assert get_metric("tesla-s", alpha=0.5).alpha == 0.5


def test_commands_forward_only_the_options_a_metric_declares():
    shared = {"tokenize": "13a", "language": "en", "alpha": 0.5}
    assert declared_options("bleu", shared) == {"tokenize": "13a"}
    assert "tokenize" not in declared_options("tesla-s", shared)
    for name in registered("summeval"):
        if name.startswith("tesla-s"):
            get_metric(name, **declared_options(name, shared))
