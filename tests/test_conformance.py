"""Conformance suite over every registered metric (scikit-learn's ``check_estimator`` idea):
batch equals one-by-one, order invariance, pickling, determinism across processes, the input rule
(empty and oversized input -> error record; unjudgeable text -> flagged score) and signatures
that follow every parameter."""

import json
import pickle
import subprocess
import sys

import pytest

from evalcore.metric import Item, InputLimits
from evalcore.metric.inputs import EMPTY_NOTE
from evalcore.metric.registry import get_metric, registered

REFS = ("The council approved the new budget on Monday after a long debate. Taxes will not rise.",
        "After a long debate, the city council passed the budget on Monday; taxes stay the same.")
CANDIDATES = (
    "The city council approved the budget on Monday. It does not raise taxes.",
    "A long debate ended on Monday. The council then passed a budget, so taxes stay flat.",
    "Monday saw the budget approved. However, the debate was long because members disagreed.",
)
SOURCE = "The council approved the new budget on Monday after a long debate."
NAMES = sorted(registered())


def _items(reads: str, candidates=CANDIDATES) -> list[Item]:
    if reads == "references":
        return [Item(c, REFS, id=f"c{k}") for k, c in enumerate(candidates)]
    if reads == "source":
        return [Item(c, source=SOURCE, id=f"c{k}") for k, c in enumerate(candidates)]
    return [Item(c, id=f"c{k}") for k, c in enumerate(candidates)]


@pytest.fixture(scope="module", params=NAMES)
def metric(request):
    return get_metric(request.param)


def _values(results):
    assert all(r.ok for r in results), [str(r) for r in results if not r.ok]
    return [r.value for r in results]


def test_every_package_registers_metrics():
    assert {s.package for s in registered().values()} >= {"summeval", "coherence", "parapeval", "mteval"}


def test_batch_equals_one_by_one(metric):
    items = _items(metric.reads)
    batch = _values(metric.score_batch(items))
    if metric.scope == "topic":  # a topic is scored together; other topics in the batch change nothing
        other = [Item(c, ("A different topic's reference about the weather.",), id=f"o{k}")
                 for k, c in enumerate(CANDIDATES)]
        mixed = _values(metric.score_batch([x for pair in zip(items, other) for x in pair]))
        assert mixed[::2] == pytest.approx(batch, rel=1e-9, abs=1e-12)
        return
    assert metric.scope == "item"
    single = [_values(metric.score_batch([it]))[0] for it in items]
    assert batch == pytest.approx(single, rel=1e-9, abs=1e-12)


def test_order_does_not_change_scores(metric):
    items = _items(metric.reads)
    forward = _values(metric.score_batch(items))
    backward = _values(metric.score_batch(items[::-1]))[::-1]
    assert forward == pytest.approx(backward, rel=1e-9, abs=1e-12)


def test_pickled_metric_scores_the_same(metric):
    items = _items(metric.reads)
    clone = pickle.loads(pickle.dumps(metric))
    assert _values(clone.score_batch(items)) == pytest.approx(_values(metric.score_batch(items)), rel=1e-12)
    assert str(clone.signature()) == str(metric.signature())


def test_deterministic_across_processes(metric):
    items = _items(metric.reads)
    here = _values(metric.score_batch(items))
    code = ("import json, sys; from evalcore.metric.registry import get_metric; "
            "from tests.test_conformance import _items; "
            f"m = get_metric({metric.name!r}); "
            "print(json.dumps([r.value for r in m.score_batch(_items(m.reads))]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    assert json.loads(out.stdout.strip().splitlines()[-1]) == pytest.approx(here, rel=1e-12)


def test_empty_input_is_scored_with_a_note_and_oversized_input_is_an_error_record(metric):
    good = _items(metric.reads)[0]
    empty = Item("   ", good.references, good.source, id="empty-one")
    huge = Item("word " * 400, good.references, good.source, id="huge-one")
    results = metric.score_batch([empty, good, huge], InputLimits(max_chars=1000))
    assert [r.ok for r in results] == [True, True, False]
    assert EMPTY_NOTE in results[0].notes and results[2].item == "huge-one" and "too long" in results[2].message


@pytest.mark.parametrize("text", ["这是一个关于预算的中文句子。委员会周一批准了预算。", "🙂🙂🙂 ✨✨ 🎉🎉🎉 !!!"])
def test_unjudgeable_text_gets_a_defined_flagged_score(metric, text):
    result = metric.score_batch(_items(metric.reads, (text,)))[0]
    assert result.ok, str(result)
    assert result.value == result.value  # defined, not NaN
    if metric.english:  # language-independent metrics (sacrebleu's) owe other scripts no note
        assert result.notes, "text an English pipeline cannot judge must carry a note"


def test_signature_follows_every_parameter(metric):
    """Every parameter is in the signature: directly, through a derived fact that stands for it
    (a model file -> its hash: ``signature_via``), or it is declared unable to change a number
    (``signature_exempt``, e.g. a cache switch)."""
    cls = type(metric)
    params = metric.get_params()
    assert str(cls(**params).signature()) == str(metric.signature())
    sig = metric.signature()
    for p in params:
        if p in cls.signature_exempt:
            continue
        if cls.signature_via.get(p) == "name":  # e.g. ROUGE's kind: rouge-2 is the metric's name
            assert str(params[p]) in metric.name
            continue
        if p in cls.signature_via:
            assert cls.signature_via[p] in {**sig.params, **sig.extras}, f"{p} should appear as {cls.signature_via[p]!r}"
            continue
        assert cls.signature_keys.get(p, p) in sig.params, f"parameter {p} is missing from the signature"
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


def test_signature_prints_in_short_form(metric):
    text = str(metric.signature())
    assert text.startswith(metric.name + "|") and "|v:" in text
