"""The metric contract as checks any package runs on its metrics (scikit-learn's
``check_estimator`` idea): batch equals one-by-one, order invariance, pickling, determinism across
processes, the input rule (empty input -> a score with a note; oversized input -> error record;
unjudgeable text -> flagged score; text in another script than the metric's language -> error
record), signatures that follow every parameter, declared facts, orientation, and a registry
entry
that agrees with its class.

A package checks one metric with :func:`check_metric`, or every metric it registers from pytest::

    from evalcore.metric.conformance import parametrize_registered, run_case

    @parametrize_registered("mypackage")
    def test_conformance(metric_name, check):
        run_case(metric_name, check)

Each check raises AssertionError with a message naming what broke.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points

import numpy as np

from evalcore.extras import EXTRAS
from evalcore.metric.base import (
    COSTS,
    Item,
    Metric,
    ReferenceFreeMetric,
    ReferenceMetric,
    SourceMetric,
    SourceReferenceMetric,
)
from evalcore.metric.inputs import EMPTY_NOTE, InputLimits
from evalcore.text.languages import script_mismatch

REFS = ("The council approved the new budget on Monday after a long debate. Taxes will not rise.",
        "After a long debate, the city council passed the budget on Monday; taxes stay the same.")
CANDIDATES = (
    "The city council approved the budget on Monday. It does not raise taxes.",
    "A long debate ended on Monday. The council then passed a budget, so taxes stay flat.",
    "Monday saw the budget approved. However, the debate was long because members disagreed.",
)
SOURCE = "The council approved the new budget on Monday after a long debate."
#: text that shares no content word with :data:`REFS` (the orientation check's bad candidate)
GARBAGE = "Purple elephants quietly juggle seven frozen violins beneath an orange lighthouse."
#: text an English pipeline cannot judge: another script, emoji only
UNJUDGEABLE = ("这是一个关于预算的中文句子。委员会周一批准了预算。", "🙂🙂🙂 ✨✨ 🎉🎉🎉 !!!")
READS = {"references": ReferenceMetric, "candidate": ReferenceFreeMetric, "source": SourceMetric,
         "source+references": SourceReferenceMetric}


@dataclass(frozen=True)
class Texts:
    """The check texts of one language: references, candidates, a source, unrelated text."""

    refs: tuple[str, ...]
    candidates: tuple[str, ...]
    source: str
    garbage: str


#: the check texts by the language a metric reads (its own language; English for any other)
TEXTS = {
    "en": Texts(REFS, CANDIDATES, SOURCE, GARBAGE),
    "zh": Texts(("委员会经过长时间辩论后于周一批准了新预算。税收不会增加。",
                 "经过长时间的辩论，市议会周一通过了预算；税收保持不变。"),
                ("市议会周一批准了预算。它不会增加税收。",
                 "周一长时间的辩论结束了。议会随后通过了预算，税收保持不变。",
                 "周一预算获得批准。不过，由于议员意见不一，辩论时间很长。"),
                "委员会经过长时间辩论后于周一批准了新预算。",
                "紫色的大象在橙色的灯塔下安静地抛着七把冰冻的小提琴。"),
}


def texts_of(metric: Metric) -> Texts:
    """The check texts in the language ``metric`` reads (English where it reads any)."""
    return TEXTS.get(metric.own_language(), TEXTS["en"])


def items_for(reads: str, candidates: Iterable[str] | None = None, texts: Texts = TEXTS["en"]) -> list[Item]:
    """The check items of a metric that reads ``reads``: the candidates (the texts' own by default)
    with references, with a source, with both, or alone."""
    candidates = texts.candidates if candidates is None else candidates
    if reads == "references":
        return [Item(c, texts.refs, id=f"c{k}") for k, c in enumerate(candidates)]
    if reads == "source":
        return [Item(c, source=texts.source, id=f"c{k}") for k, c in enumerate(candidates)]
    if reads == "source+references":
        return [Item(c, texts.refs, source=texts.source, id=f"c{k}") for k, c in enumerate(candidates)]
    return [Item(c, id=f"c{k}") for k, c in enumerate(candidates)]


def metric_items(metric: Metric, candidates: Iterable[str] | None = None) -> list[Item]:
    """:func:`items_for` in the language ``metric`` reads."""
    return items_for(metric.reads, candidates, texts_of(metric))


def _values(results) -> list[float]:
    bad = [str(r) for r in results if not r.ok]
    assert not bad, f"items failed: {bad}"
    return [r.value for r in results]


def _close(a, b, rel: float, what: str) -> None:
    assert np.allclose(a, b, rtol=rel, atol=1e-12, equal_nan=True), f"{what}: {list(a)} != {list(b)}"


# ---- checks on a configured metric -----------------------------------------------------------

def check_batch_equals_one_by_one(metric: Metric) -> None:
    """A batch gives each item the value it gets alone; a topic-scoped metric's other topics in
    the batch change nothing."""
    items = metric_items(metric)
    batch = _values(metric.score_batch(items))
    if metric.scope == "topic":  # a topic is scored together; other topics in the batch change nothing
        other = [Item(c, ("A different topic's reference about the weather.",), id=f"o{k}")
                 for k, c in enumerate(texts_of(metric).candidates)]
        mixed = _values(metric.score_batch([x for pair in zip(items, other) for x in pair]))
        _close(mixed[::2], batch, 1e-9, "another topic in the batch changes the values")
        return
    assert metric.scope == "item", f"scope must be 'item' or 'topic', got {metric.scope!r}"
    single = [_values(metric.score_batch([it]))[0] for it in items]
    _close(batch, single, 1e-9, "batch values differ from one-by-one values")


def check_order_does_not_change_scores(metric: Metric) -> None:
    """Reversing a batch reverses its values and changes none."""
    items = metric_items(metric)
    forward = _values(metric.score_batch(items))
    backward = _values(metric.score_batch(items[::-1]))[::-1]
    _close(forward, backward, 1e-9, "the batch order changes the values")


def check_pickled_metric_scores_the_same(metric: Metric) -> None:
    """A pickled copy (what a worker process gets) scores and signs the same."""
    items = metric_items(metric)
    clone = pickle.loads(pickle.dumps(metric))
    _close(_values(clone.score_batch(items)), _values(metric.score_batch(items)), 1e-12,
           "a pickled copy scores differently")
    assert str(clone.signature()) == str(metric.signature()), "a pickled copy signs differently"


_CHILD = ("import json, pickle, sys; from evalcore.metric.conformance import metric_items; "
          "m = pickle.loads(sys.stdin.buffer.read()); "
          "print(json.dumps([r.value if r.ok else str(r) for r in m.score_batch(metric_items(m))]))")


def check_deterministic_across_processes(metric: Metric) -> None:
    """Another Python process (same code, same parameters) gives the same values."""
    here = _values(metric.score_batch(metric_items(metric)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(os.path.abspath(p or ".") for p in sys.path)}
    out = subprocess.run([sys.executable, "-c", _CHILD], input=pickle.dumps(metric), capture_output=True,
                         check=False, env=env)
    assert out.returncode == 0, f"the other process failed: {out.stderr.decode(errors='replace')[-2000:]}"
    there = json.loads(out.stdout.decode().strip().splitlines()[-1])
    _close(_values_or_fail(there), here, 1e-12, "another process gives other values")


def _values_or_fail(values: list) -> list[float]:
    bad = [v for v in values if isinstance(v, str)]
    assert not bad, f"items failed in the other process: {bad}"
    return values


def check_empty_input_is_scored_with_a_note_and_oversized_input_is_an_error_record(metric: Metric) -> None:
    """An empty candidate gets a score with the empty-input note; an oversized one an error record
    naming it; the item between them scores."""
    good = metric_items(metric)[0]
    empty = Item("   ", good.references, good.source, id="empty-one")
    huge = Item("word " * 400, good.references, good.source, id="huge-one")
    results = metric.score_batch([empty, good, huge], InputLimits(max_chars=1000))
    assert [r.ok for r in results] == [True, True, False], [str(r) for r in results]
    assert EMPTY_NOTE in results[0].notes, f"an empty candidate's score lacks the note {EMPTY_NOTE!r}: {results[0]}"
    assert results[2].item == "huge-one" and "too long" in results[2].message, str(results[2])


def check_unjudgeable_text_gets_a_defined_flagged_score(metric: Metric, texts: Iterable[str] = UNJUDGEABLE) -> None:
    """Text mostly in another script than the language the metric reads: an error record naming
    the script; emoji only (or another script, for a metric of any language): a defined value,
    with a note where the metric reads English."""
    lang = metric.own_language()
    for text in texts:
        result = metric.score_batch(metric_items(metric, (text,)))[0]
        if script_mismatch(text, lang):
            assert not result.ok and "of letters are not" in result.message, f"{text!r} read as {lang}: {result}"
            continue
        assert result.ok, f"{text!r}: {result}"
        assert result.value == result.value, f"{text!r}: NaN"
        if metric.english:  # language-independent metrics (sacrebleu's) owe other scripts no note
            assert result.notes, f"{text!r}: text an English pipeline cannot judge must carry a note"


def check_signature_follows_every_parameter(metric: Metric) -> None:
    """Every parameter is in the signature: directly, through a derived fact that stands for it
    (a model file -> its hash: ``signature_via``), or it is declared unable to change a number
    (``signature_exempt``, e.g. a cache switch)."""
    cls = type(metric)
    params = metric.get_params()
    assert str(cls(**params).signature()) == str(metric.signature()), "get_params does not round-trip"
    sig = metric.signature()
    for p in params:
        if p in cls.signature_exempt:
            continue
        if cls.signature_via.get(p) == "name":  # e.g. ROUGE's kind: rouge-2 is the metric's name
            assert str(params[p]) in metric.name, f"{p}={params[p]!r} is not in the name {metric.name!r}"
            continue
        if p in cls.signature_via:
            shown = {**sig.params, **sig.extras}
            assert cls.signature_via[p] in shown, f"{p} should appear as {cls.signature_via[p]!r}"
            continue
        implicit = p in cls.signature_implicit and params[p] == cls.signature_implicit[p]
        assert implicit or cls.signature_keys.get(p, p) in sig.params, f"parameter {p} is missing from the signature"
        probe = cls(**params)
        probe.__dict__[p] = _another(params[p])
        assert probe.signature().params != sig.params, f"changing {p} does not change the signature"


def _another(value):
    """A different value of the same kind (a flag flipped, a number moved), else a marker string."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value / 2 if value else 0.5
    return "__changed__"


def check_signature_prints_in_short_form(metric: Metric) -> None:
    """``name|key:value|...|v:version``."""
    text = str(metric.signature())
    assert text.startswith(metric.name + "|") and "|v:" in text, text


def check_facts_are_declared(metric: Metric) -> None:
    """The facts tools read are declared with the right kinds (see :class:`~evalcore.metric.Metric`)."""
    cls = type(metric)
    assert metric.reads in READS and isinstance(metric, READS[metric.reads]), \
        f"reads={metric.reads!r} but the class is not a {READS.get(metric.reads, Metric).__name__}"
    assert isinstance(cls.lower_is_better, bool), f"lower_is_better must be True or False, got {cls.lower_is_better!r}"
    assert isinstance(cls.default, bool), f"default must be True or False, got {cls.default!r}"
    assert cls.default or cls.default_note, "a metric left out of default sets says why (default_note)"
    assert cls.cost in COSTS, f"cost must be one of {', '.join(COSTS)}, got {cls.cost!r}"
    assert isinstance(cls.languages, tuple) and cls.languages and all(isinstance(x, str) for x in cls.languages), \
        f"languages must be a non-empty tuple of codes (or ('*',)), got {cls.languages!r}"
    assert "en" in cls.languages or not metric.english, \
        f"languages={cls.languages!r} has no English, yet the English input notes apply (english=True)"
    assert cls.trained_on is None or (isinstance(cls.trained_on, str) and cls.trained_on), \
        f"trained_on must be None or a description, got {cls.trained_on!r}"
    assert all(isinstance(s, str) and s.count(":") == 1 for s in cls.in_sample), \
        f"in_sample holds 'benchmark:set' names, got {cls.in_sample!r}"
    assert not cls.in_sample or cls.trained_on, "a metric with in-sample sets says what it was trained on"
    unknown = set(cls.opt_in) - set(cls._param_names())
    assert not unknown, f"opt_in names parameters the metric does not have: {sorted(unknown)}"
    assert isinstance(metric.is_opt_in(), bool)


def check_orientation(metric: Metric) -> None:
    """Where a perfect match exists (a candidate equal to its references), it scores at least as
    well as unrelated text, in the metric's orientation (``lower_is_better``)."""
    if metric.reads != "references":
        return
    texts = texts_of(metric)
    perfect, garbage = _values(metric.score_batch(
        [Item(texts.refs[0], texts.refs, id="perfect"), Item(texts.garbage, texts.refs, id="garbage")]))
    better = perfect <= garbage if metric.lower_is_better else perfect >= garbage
    order = "lower" if metric.lower_is_better else "higher"
    assert better, (f"a candidate equal to a reference scores {perfect}, unrelated text {garbage}: with "
                    f"lower_is_better={metric.lower_is_better} the perfect match should be {order} or equal")


#: every check on a configured metric, by name
CHECKS: dict[str, Callable[[Metric], None]] = {
    "batch_equals_one_by_one": check_batch_equals_one_by_one,
    "order_does_not_change_scores": check_order_does_not_change_scores,
    "pickled_metric_scores_the_same": check_pickled_metric_scores_the_same,
    "deterministic_across_processes": check_deterministic_across_processes,
    "empty_input_is_scored_with_a_note_and_oversized_input_is_an_error_record":
        check_empty_input_is_scored_with_a_note_and_oversized_input_is_an_error_record,
    "unjudgeable_text_gets_a_defined_flagged_score": check_unjudgeable_text_gets_a_defined_flagged_score,
    "signature_follows_every_parameter": check_signature_follows_every_parameter,
    "signature_prints_in_short_form": check_signature_prints_in_short_form,
    "facts_are_declared": check_facts_are_declared,
    "orientation": check_orientation,
}


# ---- checks on a registered name -------------------------------------------------------------

def check_spec_agrees_with_class(name: str) -> None:
    """The registry entry (what ``--list-metrics`` shows without importing the class) agrees with
    the configured class: its name, what it reads, its orientation in the summary, its package and
    a declared extra."""
    from evalcore.metric.registry import get_metric, spec

    s = spec(name)
    metric = get_metric(name)
    assert s.reads == metric.reads, f"{name}: the registry says it reads {s.reads!r}, the class reads {metric.reads!r}"
    says_lower = "lower is better" in s.summary
    assert says_lower == metric.lower_is_better, \
        (f"{name}: lower_is_better={metric.lower_is_better} but the summary "
         f"{'says' if says_lower else 'omits'} 'lower is better'")
    module = s.target.partition(":")[0]
    assert s.plugin or module.split(".")[0] == s.package, f"{name}: registered by {s.package} but lives in {module}"
    assert not s.extra or s.extra in EXTRAS, f"{name}: extra {s.extra!r} is not declared in evalcore.extras"
    assert not metric.extra or metric.extra == s.extra, \
        f"{name}: the class needs extra {metric.extra!r}, the registry says {s.extra!r}"
    assert not metric.package or metric.package == s.package, \
        f"{name}: the class is offered by {metric.package}, the registry says {s.package}"
    assert metric.name == name, f"{name}: the configured metric calls itself {metric.name!r}"


def check_default_sets(package: str) -> None:
    """A package's default sets (``DEFAULT_METRICS``, ``ALL_METRICS`` in its registry module) hold
    registered metrics that are in default sets and not opt-in."""
    from evalcore.metric.registry import ENTRY_POINT_GROUP, get_metric, registered

    (ep,) = [e for e in entry_points(group=ENTRY_POINT_GROUP) if e.name == package]
    module = importlib.import_module(ep.module)
    for attr in ("DEFAULT_METRICS", "ALL_METRICS"):
        for name in getattr(module, attr, ()):
            assert name in registered(), f"{package}.{attr}: {name!r} is not registered"
            metric = get_metric(name)
            assert metric.default and not metric.is_opt_in(), \
                (f"{package}.{attr} holds {name!r}, which is "
                 f"{'opt-in' if metric.is_opt_in() else 'not a default metric'}")


# ---- running ---------------------------------------------------------------------------------

@functools.cache
def _configured(name: str) -> Metric:
    """One configured metric per name and process (its models load once for every check)."""
    from evalcore.metric.registry import get_metric

    return get_metric(name)


def run_case(name: str, check: str) -> None:
    """Run one check (a key of :data:`CHECKS`, or ``spec``) on the registered metric ``name``."""
    if check == "spec":
        check_spec_agrees_with_class(name)
        return
    try:
        CHECKS[check](_configured(name))
    except AssertionError as exc:
        raise AssertionError(f"metric {name}: {check}: {exc}") from None


def check_metric(metric: Metric | str, checks: Iterable[str] | None = None) -> None:
    """Run every check (or those named) on a metric or a registered name; AssertionError names the
    metric, the check and what broke."""
    name = metric if isinstance(metric, str) else metric.name
    instance = _configured(metric) if isinstance(metric, str) else metric
    for check in checks or CHECKS:
        try:
            CHECKS[check](instance)
        except AssertionError as exc:
            raise AssertionError(f"metric {name}: {check}: {exc}") from None
    if isinstance(metric, str) and checks is None:
        check_spec_agrees_with_class(metric)


def conformance_cases(package: str | None = None) -> list[tuple[str, str]]:
    """(metric name, check) for every registered metric (of one package) and every check,
    ``spec`` included: what :func:`run_case` takes."""
    from evalcore.metric.registry import registered

    return [(name, check) for name in registered(package) for check in (*CHECKS, "spec")]


def parametrize_registered(package: str | None = None):
    """A ``pytest.mark.parametrize("metric_name, check", ...)`` over :func:`conformance_cases`."""
    import pytest

    cases = conformance_cases(package)
    return pytest.mark.parametrize("metric_name, check", cases, ids=[f"{n}-{c}" for n, c in cases])
