"""The metric registry: metric name -> where its class lives.

Entry points of the ``aesop_eval.metrics`` group announce metrics. An entry point names either
a table (a dict of :class:`MetricSpec`, how each suite package lists its metrics: listing them
imports no metric, so a CLI starts fast) or one :class:`~evalcore.metric.Metric` subclass (how a
third-party package adds a metric with one line of its ``pyproject.toml``): the class's own
attributes (``name``, ``reads``, ``package``, ``extra``, its docstring) make its entry. An entry
point that cannot be loaded, or announces something else, is skipped with a :class:`PluginWarning`
naming it and its distribution; the suite's own metrics and commands work on.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalcore.metric.base import Metric

ENTRY_POINT_GROUP = "aesop_eval.metrics"
#: the distribution whose entry points are the suite's own (registered before any plugin's)
SUITE_DISTRIBUTION = "aesop-eval"


class PluginWarning(UserWarning):
    """A metric entry point was skipped (it failed to load, or announces no usable metric)."""


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
    def of_class(cls, metric_class: type[Metric], plugin: str = "") -> MetricSpec:
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


def _entries(ep: EntryPoint) -> dict[str, MetricSpec]:
    """The metrics one entry point announces, by name; ValueError says why it announces none."""
    from evalcore.extras import EXTRAS
    from evalcore.metric.base import Metric

    plugin = "" if _is_suite(ep) else _distribution(ep) or ep.value
    value = ep.load()
    if isinstance(value, type) and issubclass(value, Metric):
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


def get_metric(name: str, **params):
    """A configured metric by registered name; ``params`` override the name's defaults. A
    parameter the metric does not have is a ValueError naming the valid ones (a misspelt
    ``alfa`` never runs silently with the default alpha)."""
    from evalcore.extras import require

    s = spec(name)
    require(s.extra, f"metric {name!r}")
    cls = s.load()
    valid = cls._param_names()
    unknown = sorted(set(params) - set(valid))
    if unknown:
        raise ValueError(f"{name}: unknown parameter{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(map(repr, unknown))}; valid: {', '.join(sorted(valid)) or 'none'}")
    return cls(**{**s.kwargs, **params})


def declared_options(name: str, options: Mapping[str, object]) -> dict:
    """The entries of a command's shared ``options`` that metric ``name`` declares as parameters:
    what a CLI passes to :func:`get_metric` when one option set serves a mixed list of metrics."""
    from evalcore.extras import require

    s = spec(name)
    require(s.extra, f"metric {name!r}")
    valid = set(s.load()._param_names())
    return {k: v for k, v in options.items() if k in valid}


def build_metrics(names: Sequence[str], options: Mapping[str, Mapping[str, object]] | None = None) -> list[Metric]:
    """Configured metrics for registered names, each checked (unknown names and bad values raise
    before any scoring). ``options`` (metric name -> parameters; None = the metric's default)
    never override what a name stands for (``--function-words`` does not turn ``tesla-s-pos``
    back into ``tesla-s``). Names that come to the same metric are computed once."""
    metrics: dict[str, Metric] = {}
    for name in names:
        fixed = spec(name).kwargs
        params = {k: v for k, v in (options or {}).get(name, {}).items() if v is not None and k not in fixed}
        metric = get_metric(name, **declared_options(name, params))
        metric.validate()
        metric.signature()  # loads what the signature names (a missing model fails here, not later)
        metrics.setdefault(metric.name, metric)
    return list(metrics.values())


def list_metrics(package: str | None = None, also: tuple[str, ...] = ()) -> str:
    """The text ``--list-metrics`` prints: name, what it reads, package, summary (a plugin's
    metric is marked with its distribution, a metric whose extra is missing with the install
    command); ``also`` adds metrics registered by other packages that the command offers too."""
    from evalcore.extras import install_command

    rows = {**registered(package), **{name: spec(name) for name in also}}
    rows = dict(sorted(rows.items()))
    width = max((len(n) for n in rows), default=4)
    return "\n".join(f"{n:<{width}}  {s.reads:<10}  {s.package:<9}  {s.summary}  [lang: {languages_text(s)}]"
                     + (f"  [plugin: {s.plugin}]" if s.plugin else "")
                     + ("" if s.installed else f"  [not installed: {install_command(s.extra)}]")
                     for n, s in rows.items())


#: the bases of evalcore's metric contract, whose ``languages`` is English
_CONTRACT_BASES = frozenset({"Metric", "ReferenceMetric", "ReferenceFreeMetric", "SourceMetric"})


def _class_languages(module: str, name: str, seen: int = 0) -> tuple[str, ...] | None:
    """The ``languages`` a class of ``module`` declares, read from the module's source without
    running it (a literal tuple, or the contract's default where no class up its chain in the module
    declares one); None where the source computes it."""
    import ast
    import importlib.util
    from pathlib import Path

    top, *parts = module.split(".")
    found = importlib.util.find_spec(top)  # the top package only: a subpackage's spec would run its __init__
    if found is None or not found.submodule_search_locations or seen > 8:
        return None
    base = Path(next(iter(found.submodule_search_locations))).joinpath(*parts)
    path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
    if not path.is_file():
        return None
    tree = ast.parse(path.read_text("utf-8"))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    node = classes.get(name)
    if node is None:
        return None
    for stmt in node.body:
        target: ast.expr
        if isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        elif isinstance(stmt, ast.Assign):
            target, value = stmt.targets[0], stmt.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "languages" and value is not None:
            try:
                return tuple(ast.literal_eval(value))
            except ValueError:
                return None
    bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
    if len(bases) == 1 and bases[0] in classes:
        return _class_languages(module, bases[0], seen + 1)
    if bases and all(b in _CONTRACT_BASES for b in bases):
        return ("en",)
    return None


def languages_text(entry: MetricSpec) -> str:
    """The languages a metric reads (its class's ``languages``), as ``--list-metrics`` shows them:
    read from the source where it spells them, else from the class (importing its module, when its
    extra is installed; "?" otherwise)."""
    module, _, attr = entry.target.partition(":")
    codes = _class_languages(module, attr)
    if codes is None and entry.installed:
        try:
            codes = tuple(getattr(importlib.import_module(module), attr).languages)
        except Exception:  # noqa: BLE001 - a listing never fails on one metric's import
            codes = None
    if codes is None:
        return "?"
    if codes == ("*",):
        return "any"
    return ",".join(codes) if len(codes) <= 6 else f"{','.join(codes[:3])} +{len(codes) - 3} (docs/languages.md)"
