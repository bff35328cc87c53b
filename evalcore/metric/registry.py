"""The metric registry: metric name -> where its class lives, read lazily.

Each package lists its metrics in one explicit table (``<package>/registry.py``, a dict of
:class:`MetricSpec`) and announces the table through the ``aesop_eval.metrics`` entry point group
in ``pyproject.toml``. Listing metrics reads those tables only; choosing one imports only that
metric's module, so a CLI starts fast and ``evalcore`` never imports the packages above it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evalcore.metric.base import Metric

ENTRY_POINT_GROUP = "aesop_eval.metrics"


@dataclass(frozen=True)
class MetricSpec:
    """Where a registered metric lives (``module:Class``), the constructor arguments its name
    stands for, what it reads, one line for ``--list-metrics``, and the pip extra it needs
    (empty: the base install)."""

    target: str
    summary: str
    reads: str = "references"
    kwargs: dict = field(default_factory=dict)
    package: str = ""
    extra: str = ""

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


@functools.lru_cache(maxsize=1)
def _tables() -> dict[str, MetricSpec]:
    table: dict[str, MetricSpec] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        for name, spec in ep.load().items():
            if name in table:
                raise RuntimeError(f"metric {name!r} is registered by both {table[name].package} and {ep.name}")
            table[name] = MetricSpec(spec.target, spec.summary, spec.reads, dict(spec.kwargs), ep.name, spec.extra)
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
    """The text ``--list-metrics`` prints: name, what it reads, package, summary (a metric whose
    extra is missing is marked with the install command); ``also`` adds metrics registered by
    other packages that the command offers too."""
    from evalcore.extras import install_command

    rows = {**registered(package), **{name: spec(name) for name in also}}
    rows = dict(sorted(rows.items()))
    width = max((len(n) for n in rows), default=4)
    return "\n".join(f"{n:<{width}}  {s.reads:<10}  {s.package:<9}  {s.summary}"
                     + ("" if s.installed else f"  [not installed: {install_command(s.extra)}]")
                     for n, s in rows.items())
