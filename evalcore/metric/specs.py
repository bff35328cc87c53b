"""What the metric registry reads: the specs that entry points announce, and the names they give.

Entry points of the ``aesop_eval.metrics`` group announce metrics. An entry point names either
a table (a dict of :class:`MetricSpec`, how each suite package lists its metrics: listing them
imports no metric, so a CLI starts fast) or one :class:`~evalcore.metric.Metric` subclass (how a
third-party package adds a metric with one line of its ``pyproject.toml``): the class's own
attributes (``name``, ``reads``, ``package``, ``extra``, its docstring) make its entry. An entry
point that cannot be loaded, or announces something else, is skipped with a :class:`PluginWarning`
naming it and its distribution; the suite's own metrics and commands work on.

A metric's name is stated here once: :func:`configuration_name` names an instance by the
registered configuration it has (the contract's ``Metric.name`` reads it). This module lies below
the contract (:mod:`evalcore.metric.base` reads names from it), so it imports no metric class.
"""

from __future__ import annotations

import functools
import importlib
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib.metadata import EntryPoint, entry_points
from typing import Any

ENTRY_POINT_GROUP = "aesop_eval.metrics"
#: the distribution whose entry points are the suite's own (registered before any plugin's)
SUITE_DISTRIBUTION = "aesop-eval"


class PluginWarning(UserWarning):
    """A metric entry point was skipped (it failed to load, or announces no usable metric)."""


#: a metric name: lower-case ASCII words of letters and digits joined by ``-`` or ``_`` (no space,
#: tab, bracket, dot or comma: the name is a TSV and CSV column, a ``-m`` argument, a JSON key,
#: and brackets name configurations, dots a metric's components in ``parapeval``'s columns)
METRIC_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
#: the longest metric name
MAX_NAME = 64
#: names the commands' outputs or options use for something else: columns of the TSV and JSON
#: outputs (``system``, ``errors``, ``lines``...) and ``-m all``
RESERVED_NAMES = frozenset({
    "all", "topic", "system", "systems", "item", "items", "line", "lines", "lines_scored", "complete", "error",
    "errors", "path", "scores", "scored", "partial_scores", "incomplete", "empty_lines", "components", "notes",
    "signature", "summaries", "segments", "significance", "rank", "n", "id", "summary", "references", "lang",
    "human", "original", "paraphrase", "candidate", "source", "reference", "text"})


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a metric's registered name (a reserved column, characters a TSV
    header or ``-m`` cannot carry), or None when it can."""
    if not isinstance(name, str) or not name:
        return "a metric name must be a non-empty string"
    if not METRIC_NAME.fullmatch(name) or len(name) > MAX_NAME:
        return (f"{name!r} is not a metric name: lower-case ASCII letters and digits, words joined by - or _, "
                f"at most {MAX_NAME} characters (no space, tab, bracket, dot or comma)")
    if name in RESERVED_NAMES:
        return f"{name!r} is a column or word the outputs use already (reserved: {', '.join(sorted(RESERVED_NAMES))})"
    return None


@dataclass(frozen=True)
class MetricSpec:
    """Where a registered metric lives (``module:Class``), the constructor arguments its name
    stands for, what it reads, one line for ``--list-metrics``, the pip extra it needs (empty:
    the base install), the package whose command offers it, and the distribution of the plugin
    that registered it (empty: the suite itself)."""

    target: str
    summary: str
    reads: str = "references"
    kwargs: dict = field(default_factory=dict)
    package: str = ""
    extra: str = ""
    plugin: str = ""

    @classmethod
    def of_class(cls, metric_class: type[Any], plugin: str = "") -> MetricSpec:
        """The entry of a metric class, every field read from the class's own attributes."""
        summary = " ".join((metric_class.__doc__ or "").strip().split("\n\n")[0].split())
        if metric_class.lower_is_better and "lower is better" not in summary:
            summary += " (lower is better)"
        return cls(f"{metric_class.__module__}:{metric_class.__qualname__}", summary, metric_class.reads, {},
                   metric_class.package or metric_class.__module__.split(".")[0], metric_class.extra, plugin)

    @property
    def installed(self) -> bool:
        """Whether the optional dependencies this metric needs are installed."""
        from evalcore.extras import is_installed

        return is_installed(self.extra)

    def load(self):
        """The metric class (imports its module); :class:`~evalcore.extras.MissingExtraError`
        naming the ``pip install`` when its extra is missing."""
        from evalcore.extras import require

        require(self.extra, f"metric {self.target.partition(':')[2] or self.target}")
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)


def _distribution(ep: EntryPoint) -> str:
    """The name of the distribution that declares ``ep`` ("" where unknown)."""
    dist = getattr(ep, "dist", None)
    return dist.metadata["Name"] if dist is not None else ""


def _is_suite(ep: EntryPoint) -> bool:
    """Whether ``ep`` is one of the suite's own (its tables register before any plugin's)."""
    return _distribution(ep).replace("_", "-").lower() == SUITE_DISTRIBUTION


def _is_metric_class(value: object) -> bool:
    """Whether ``value`` is a subclass of the contract's ``Metric``, known by its bases' names: this
    module lies below the contract, so it cannot import the class."""
    return isinstance(value, type) and any(
        (c.__module__, c.__qualname__) == ("evalcore.metric.base", "Metric") for c in value.__mro__)


def _entries(ep: EntryPoint) -> dict[str, MetricSpec]:
    """The metrics one entry point announces, by name; ValueError says why it announces none."""
    from evalcore.extras import EXTRAS

    plugin = "" if _is_suite(ep) else _distribution(ep) or ep.value
    value = ep.load()
    if _is_metric_class(value):
        if not value.name:
            raise ValueError(f"{value.__qualname__} has no name")
        entries = {value.name: MetricSpec.of_class(value, plugin)}
    elif isinstance(value, Mapping) and all(isinstance(s, MetricSpec) for s in value.values()):
        entries = {name: replace(s, kwargs=dict(s.kwargs), package=s.package or ep.name, plugin=plugin)
                   for name, s in value.items()}
    else:
        raise ValueError(f"{ep.value} is a {type(value).__name__}, neither a Metric subclass nor a dict of MetricSpec")
    for name, s in entries.items():
        if s.extra and s.extra not in EXTRAS:
            raise ValueError(f"metric {name!r} needs extra {s.extra!r}, which aesop-eval does not have "
                             f"(known: {', '.join(EXTRAS)})")
    return entries


@functools.lru_cache(maxsize=1)
def _tables() -> dict[str, MetricSpec]:
    _configurations.cache_clear()  # a rebuilt table may register other configurations
    table: dict[str, MetricSpec] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (not _is_suite(e), e.name)):
        where = f"{ep.name} = {ep.value!r}" + (f" (distribution {_distribution(ep)})" if _distribution(ep) else "")
        try:
            entries = _entries(ep)
        except Exception as exc:  # noqa: BLE001 - a broken plugin costs its own metrics, never the CLI
            warnings.warn(f"metric entry point {where} is skipped: {type(exc).__name__}: {exc}", PluginWarning,
                          stacklevel=2)
            continue
        for name, s in entries.items():
            problem = name_problem(name)
            if problem:
                warnings.warn(f"metric {name!r} of entry point {where} is skipped: {problem}", PluginWarning,
                              stacklevel=2)
                continue
            if name in table:
                warnings.warn(f"metric {name!r} of entry point {where} is skipped: {table[name].plugin or 'the suite'}"
                              " registers that name already", PluginWarning, stacklevel=2)
                continue
            table[name] = s
    return table


def registered(package: str | None = None) -> dict[str, MetricSpec]:
    """Every registered metric (or one package's), by name."""
    return {n: s for n, s in sorted(_tables().items()) if package is None or s.package == package}


def spec(name: str) -> MetricSpec:
    try:
        return _tables()[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r}; available: {', '.join(sorted(_tables()))}") from None


def _target(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _defaults(cls: type[Any]) -> dict[str, object]:
    """The constructor's default value of every parameter that has one."""
    import inspect

    return {p.name: p.default for p in inspect.signature(cls.__init__).parameters.values()
            if p.default is not inspect.Parameter.empty}


def _same(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an array-valued parameter: different from any spec's value
        return False


@functools.cache
def _configurations(cls: type) -> tuple[tuple[str, dict[str, object], frozenset[str]], ...]:
    """(name, configuration, parameters its spec states) of every registered name of ``cls`` (or
    of its nearest registered base class), most general first: the configuration is the
    constructor's defaults with the spec's arguments, restricted to the parameters some spec of the
    class states."""
    for klass in cls.__mro__:
        specs = [(n, s) for n, s in _tables().items() if s.target == _target(klass)]
        if specs:
            keys = {k for _, s in specs for k in s.kwargs}
            defaults = _defaults(klass)
            configs = [(n, {k: s.kwargs.get(k, defaults.get(k)) for k in sorted(keys)}, frozenset(s.kwargs))
                       for n, s in specs]
            return tuple(sorted(configs, key=lambda c: (sum(not _same(v, defaults.get(k)) for k, v in c[1].items()),
                                                        c[0])))
    return ()


def configuration_name(cls: type, params: Mapping[str, object]) -> str:
    """The name of ``cls`` configured with ``params``, stated by the registry alone: the registered
    name whose arguments the configuration has; otherwise the nearest registered name with what
    contradicts a spec in brackets (``rouge-su4[max_gap=2]``, ``imeant[role_weights=umeant]``): a
    value differing from one its own spec states, or a value another spec states. A value no spec
    states leaves the name alone (``TeslaS(function_words="none")`` is ``tesla-s``; its signature
    shows the value). "" for a class the registry does not know (one registered by its own ``name``)."""
    configs = _configurations(cls)
    if not configs:
        return ""
    explicit: dict[str, list[object]] = {}
    for _, config, own in configs:
        for k in own:
            explicit.setdefault(k, []).append(config[k])

    def differing(config: dict[str, object], own: frozenset[str]) -> list[tuple[str, object]]:
        return [(k, params[k]) for k, v in config.items() if k in params and not _same(params[k], v)
                and (k in own or any(_same(params[k], s) for s in explicit.get(k, ())))]

    name, config, own = min(configs, key=lambda c: len(differing(c[1], c[2])))
    diff = differing(config, own)
    return name + (f"[{','.join(f'{k}={v}' for k, v in diff)}]" if diff else "")


def registered_name(target: str, **params: object) -> str:
    """:func:`configuration_name` of the class at ``target`` (``module:Class``), imported on call:
    what a model file's header names before any metric object exists."""
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    return configuration_name(cls, {**_defaults(cls), **params})


