"""Fuzz target of the Python API: ``get_metric(name).score_batch(items)`` with hostile entries
(odd types, bytes, lone surrogates, empty and oversized texts, swapped arguments, decomposed
Korean and zero-width padding around the size cap). An item and its cleaned twin (the texts as
the input rule leaves them: NFC, no control or invisible characters) get one verdict and value."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import replace
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.harness import Checker
from tests.fuzz.hostile import SURROGATE_ESCAPES, hostile_line

CHEAP = ("bleu", "chrf", "ter", "rouge-2", "tesla-s")
SLOW = ("tesla-m", "meteor", "dicomer")


def hostile_value() -> st.SearchStrategy:
    """What a caller may pass where a text belongs."""
    text = hostile_line()
    return st.one_of(text, text, text, text,
                     st.builds(lambda t, s: t + s, text, st.sampled_from(("\ud800", "\udfff") + SURROGATE_ESCAPES)),
                     text.map(lambda t: t.encode("utf-8", "surrogateescape")),
                     text.map(lambda t: t.encode("latin-1", "replace")),
                     text.map(lambda t: unicodedata.normalize("NFD", t + " 한국어 문장입니다")),
                     st.builds(lambda t, n: t.replace(" ", " " + "\u200b" * n, 3), text, st.integers(1, 20)),
                     st.sampled_from((None, 3, 1.5, float("nan"), b"", ["a list"], {"a": "dict"}, ("a", "tuple"))))


@st.composite
def entry(draw, reads: str):
    """One batch entry: an Item, the tuple the metric's ``score`` takes, or something else."""
    from evalcore.metric import Item

    cand = draw(hostile_value())
    refs = draw(st.one_of(st.lists(hostile_value(), max_size=3).map(tuple), hostile_value()))
    kind = draw(st.sampled_from(("item",) * 4 + ("tuple", "bare", "swapped")))
    if kind == "tuple":
        return (refs, cand) if reads != "source" else (draw(hostile_value()), cand)
    if kind == "bare":
        return cand
    if kind == "swapped":
        return (cand, refs)
    try:
        return Item(cand, refs if reads == "references" else (), draw(hostile_value()) if reads == "source" else None,
                    id=draw(st.sampled_from(("", "", "doc-1", "a\tb", "\u202eid"))))
    except TypeError:
        return cand


@st.composite
def api_case(draw) -> dict:
    from evalcore.metric.registry import spec

    name = draw(st.sampled_from(CHEAP + (SLOW if draw(st.integers(0, 24)) == 0 else ())))
    items = draw(st.lists(entry(spec(name).reads), max_size=6))
    return {"metric": name, "items": items, "max_chars": draw(st.sampled_from((None, None, 30)))}


def check_api(case: dict, workdir: Path) -> None:
    """A result per entry, in order, each a finite score or an error record naming the entry;
    the same result alone as in the batch, and again on a second call (caches change no score)."""
    from evalcore.metric import InputLimits
    from evalcore.metric.registry import get_metric

    check = Checker(workdir)
    check.commands.append(f"get_metric({case['metric']!r}).score_batch({case['items']!r}, "
                          f"InputLimits({case['max_chars']}))" if case["max_chars"] else
                          f"get_metric({case['metric']!r}).score_batch({case['items']!r})")
    limits = InputLimits(case["max_chars"]) if case["max_chars"] else None
    metric = get_metric(case["metric"])
    items = case["items"]
    try:
        results = metric.score_batch(items, limits)
    except Exception as exc:  # noqa: BLE001 - the finding
        check.fail("no-exception", f"score_batch raised {type(exc).__name__}: {exc}")
    check.expect(isinstance(results, list) and len(results) == len(items), "one-result-per-item",
                 lambda: f"{len(items)} items, {len(results) if isinstance(results, list) else results!r} results")
    for k, result in enumerate(results):
        if result.ok:
            check.expect(math.isfinite(result.value), "finite-score", f"item {k + 1}: value {result.value!r}")
        else:
            check.expect(isinstance(result.item, str) and bool(result.item) and bool(result.message),
                         "error-names-item",
                         f"item {k + 1}: error record {result!r}")
    again = metric.score_batch(items, limits)
    for k, (first, second) in enumerate(zip(results, again)):
        check.expect(_same(first, second), "same-score-twice", f"item {k + 1}: {first!r} then {second!r}")
    for k, raw in enumerate(items):
        twin = _cleaned_twin(raw)
        if twin is not None:
            cleaned = metric.score_batch([twin], limits)[0]
            alone = metric.score_batch([raw], limits)[0]
            check.expect(_same(alone, cleaned), "cleaned-twin",
                         f"item {k + 1}: {alone!r} as given, {cleaned!r} once cleaned")
    if metric.scope != "item":
        return
    for k, raw in enumerate(items):
        alone = metric.score_batch([raw], limits)
        check.expect(len(alone) == 1 and _same(alone[0], results[k]), "batch-independent",
                     f"item {k + 1}: {results[k]!r} in the batch, {alone!r} alone")


def _cleaned_twin(raw):
    """``raw`` with its texts as the input rule leaves them, when it is an Item of strings; else None."""
    from evalcore.io.textfiles import UnreadableText
    from evalcore.metric import Item
    from evalcore.metric.inputs import clean_text

    if not isinstance(raw, Item):
        return None
    def plain(text) -> bool:
        return isinstance(text, str) and not isinstance(text, UnreadableText)

    if not (plain(raw.candidate) and isinstance(raw.references, tuple) and all(map(plain, raw.references))
            and (raw.source is None or plain(raw.source))):
        return None
    return replace(raw, candidate=clean_text(raw.candidate), references=tuple(map(clean_text, raw.references)),
                   source=None if raw.source is None else clean_text(raw.source))


def _same(a, b) -> bool:
    if a.ok != b.ok:
        return False
    if not a.ok:
        return True
    return math.isclose(a.value, b.value, rel_tol=1e-9, abs_tol=1e-12) and set(a.components) == set(b.components)
