"""The metric registry: metric name -> a configured metric.

:mod:`evalcore.metric.specs` reads what the entry points announce and names configurations; this
module makes metrics from names (:func:`get_metric`, :func:`build_metrics`) and lists them
(:func:`list_metrics`).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from evalcore.metric.specs import (
    ENTRY_POINT_GROUP,
    SUITE_DISTRIBUTION,
    MetricSpec,
    PluginWarning,
    configuration_name,
    registered,
    registered_name,
    spec,
)

if TYPE_CHECKING:
    from evalcore.metric.base import Metric

__all__ = ["ENTRY_POINT_GROUP", "SUITE_DISTRIBUTION", "MetricSpec", "PluginWarning", "build_metrics",
           "configuration_name", "declared_options", "get_metric", "list_metrics", "lower_is_better", "registered",
           "registered_name", "spec"]

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


def lower_is_better(name: str) -> bool | None:
    """The orientation fact (``Metric.lower_is_better``) of the registered metric a score column
    is named after (a registered name, or a configuration's bracket name ``rouge-su4[max_gap=2]``);
    None for a name the registry does not know. A metric whose extra is missing answers from its
    summary, which the conformance suite keeps saying "lower is better" exactly when the fact does."""
    try:
        s = spec(name.partition("[")[0])
    except ValueError:
        return None
    if not s.installed:
        return "lower is better" in s.summary
    return bool(s.load().lower_is_better)


def declared_options(name: str, options: Mapping[str, object]) -> dict:
    """The entries of a command's shared ``options`` that metric ``name`` declares as parameters:
    what a CLI passes to :func:`get_metric` when one option set serves a mixed list of metrics."""
    from evalcore.extras import require

    s = spec(name)
    require(s.extra, f"metric {name!r}")
    valid = set(s.load()._param_names())
    return {k: v for k, v in options.items() if k in valid}


def build_metrics(names: Sequence[str], options: Mapping[str, Mapping[str, object]] | None = None,
                  per_item: Collection[str] = ()) -> list[Metric]:
    """Configured metrics for registered names, each checked (unknown names and bad values raise
    before any scoring). ``options`` (metric name -> parameters; None = the metric's default)
    never override what a name stands for (``--function-words`` does not turn ``tesla-s-pos``
    back into ``tesla-s``). Names that come to the same metric are computed once. ``per_item``:
    options the items carry too (``lang``): a metric that refuses such a value is built without
    it, and each item gets its error record from the metric (a refusal per item and per metric,
    not of the whole run)."""
    metrics: dict[str, Metric] = {}
    for name in names:
        fixed = spec(name).kwargs
        params = {k: v for k, v in (options or {}).get(name, {}).items() if v is not None and k not in fixed}
        try:
            metric = _checked(name, params)
        except ValueError:
            carried = {k: v for k, v in params.items() if k not in per_item}
            if carried == params:
                raise
            metric = _checked(name, carried)  # fails again (raises) unless an item-carried value was refused
        metrics.setdefault(metric.name, metric)
    return list(metrics.values())


def _checked(name: str, params: Mapping[str, object]) -> Metric:
    """The metric ``name`` with ``params`` (those it declares), validated, its signature loaded
    (a missing model fails here, not later)."""
    metric = get_metric(name, **declared_options(name, params))
    metric.validate()
    metric.signature()
    return metric


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
