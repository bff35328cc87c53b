"""Fuzz target ``plugin-names``: a plugin metric registered under any name either is refused at
registration (a :class:`~evalcore.metric.registry.PluginWarning` naming it; the name stays out of
the registry) or fits every output: ``mteval score`` and ``summeval score`` with it write TSV whose
header has one column per name, none twice, and JSON with its scores under that name
(docs/adding-a-metric.md).

The plugin is one entry point made in-process (a module of one metric class, scoring 1.0), the
registry rebuilt around it and forgotten after the case."""

from __future__ import annotations

import contextlib
import sys
import types
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.harness import Checker, parse_output, write

#: words the outputs use (some reserved, some a suite metric's), and names close to valid ones
WORDS = ("lines", "errors", "error", "system", "topic", "complete", "lines_scored", "all", "item", "notes", "bleu",
         "rouge-1", "tesla-s", "word-overlap", "toy", "my_metric2", "scores", "path", "signature", "x")
ODD = ("\t", "\n", "\r", " ", "[", "]", ",", ".", "=", "|", "\"", "'", "é", "Ü", "\u200b", "\x00", "-", "_", "A")
MODULE = "fuzz_plugin_names"


@st.composite
def names_case(draw) -> dict:
    """A plugin's metric name: a word the outputs use, a near-valid name, or odd characters."""
    kind = draw(st.sampled_from(("word", "word", "joined", "odd", "random")))
    if kind == "word":
        name = draw(st.sampled_from(WORDS))
    elif kind == "joined":
        name = draw(st.sampled_from(WORDS)) + draw(st.sampled_from(ODD)) + draw(st.sampled_from(WORDS))
    elif kind == "odd":
        name = "".join(draw(st.lists(st.sampled_from(WORDS + ODD), min_size=1, max_size=4)))
    else:
        name = draw(st.text(min_size=0, max_size=12))
    return {"name": name, "package": draw(st.sampled_from(("mteval", "summeval")))}


@contextlib.contextmanager
def plugin(name: str, package: str) -> Iterator[list[str]]:
    """The registry with one plugin metric named ``name`` (offered by ``package``'s command);
    yields the PluginWarning messages its rebuilding gave."""
    from evalcore.metric import ReferenceMetric, Score, conformance, specs

    class Plugin(ReferenceMetric):
        """A fuzzed plugin name (scores 1.0)."""

        languages = ("*",)

        def _score_items(self, items):
            return [Score(1.0) for _ in items]

    Plugin.name = name  # a plugin states its name
    Plugin.package = package
    Plugin.__module__, Plugin.__qualname__ = MODULE, "Plugin"  # where the registry finds it
    module = types.ModuleType(MODULE)
    module.Plugin = Plugin  # type: ignore[attr-defined]  # a module made here
    sys.modules[MODULE] = module
    point = EntryPoint("fuzzed", f"{MODULE}:Plugin", specs.ENTRY_POINT_GROUP)
    real = specs.entry_points

    def with_plugin(**kwargs):
        return [*real(**kwargs), point]

    specs.entry_points = with_plugin
    specs._tables.cache_clear()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            specs._tables()
        yield [str(w.message) for w in caught if issubclass(w.category, specs.PluginWarning)]
    finally:
        specs.entry_points = real
        specs._tables.cache_clear()
        conformance._configured.cache_clear()
        sys.modules.pop(MODULE, None)


def check_names(case: dict, workdir: Path) -> None:
    from evalcore.metric.registry import registered
    from evalcore.metric.specs import name_problem

    check = Checker(workdir)
    name, package = case["name"], case["package"]
    suite = set(registered())
    with plugin(name, package) as messages:
        names = registered()
        problem = name_problem(name)
        if problem or name in suite or not isinstance(name, str) or not name:
            mine = names.get(name)
            check.expect(mine is None or not mine.plugin, "bad-name-refused",
                         f"{name!r} ({problem or 'a suite name'}) was registered for the plugin")
            check.expect(any(repr(name) in m or "has no name" in m for m in messages), "bad-name-refused",
                         f"{name!r} was skipped without a warning naming it: {messages}")
            return
        check.expect(name in names and bool(names[name].plugin), "good-name-registered",
                     f"{name!r} is a name, but the plugin was not registered: {messages}")
        _check_outputs(check, workdir, name, package)


def _check_outputs(check: Checker, workdir: Path, name: str, package: str) -> None:
    """The plugin's scores in TSV (one column per name, none twice) and JSON (under its name)."""
    if package == "mteval":
        ref = write(workdir, "ref.txt", b"the council met\nthe budget rose\n")
        hyp = write(workdir, "hyp.txt", b"the council met\na budget rose\n")
        argv = ["score", "-r", ref, "-i", hyp, "-m", name, "-m", "bleu"]
    else:
        data = (b'{"topic": "D1", "system": "A", "summary": "the council met", "references": ["the council met"]}\n'
                b'{"topic": "D1", "system": "B", "summary": "a budget", "references": ["the council met"]}\n')
        argv = ["score", "-i", write(workdir, "in.jsonl", data), "-m", name, "-m", "rouge-1"]
    for fmt in ("tsv", "json"):
        out = check.run(package, [*argv, "--format", fmt])
        check.expect(out.code == 0, "plugin-scores", f"{name!r}: exit {out.code}: {out.stderr[-300:]!r}")
        parsed = parse_output(check, out, fmt)
        if fmt == "tsv":
            header = parsed[0]
            check.expect(len(set(header)) == len(header) and header.count(name) == 1, "tsv-header-intact",
                         f"{name!r}: header {header!r}")
        else:
            rows = parsed["systems"] if package == "mteval" else parsed["summaries"]
            check.expect(all(r["scores"].get(name) == 1.0 for r in rows), "json-scores-named",
                         f"{name!r}: scores {[r['scores'] for r in rows]!r}")
