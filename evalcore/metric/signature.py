"""Reproducibility signatures in sacrebleu's short form, built from every constructor parameter.

``Signature(name, params, version)`` prints as ``name|key:value|...|v:0.2.0``; a metric's signature
changes whenever any of its parameters does, because it is derived from ``get_params()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


def _short(value: object) -> str:
    """A parameter value as it appears in the short form."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Path):
        return value.name
    if isinstance(value, (tuple, list)):
        return "+".join(_short(v) for v in value)
    return str(value).replace("|", "/")


@dataclass(frozen=True)
class Signature:
    """What produced a score: the metric's name, its parameters (short key -> value), and extra
    facts derived from them (a model hash, a tokenizer name), then the suite's version."""

    name: str
    params: Mapping[str, object] = field(default_factory=dict)
    extras: Mapping[str, object] = field(default_factory=dict)
    version: str = ""

    def __str__(self) -> str:
        fields = [self.name, *(f"{k}:{_short(v)}" for k, v in {**self.params, **self.extras}.items())]
        if self.version:
            fields.append(f"v:{self.version}")
        return "|".join(fields)

    def as_dict(self) -> dict:
        """JSON form: the short string plus its parts."""
        return {"name": self.name, "short": str(self), "params": {k: _short(v) for k, v in self.params.items()},
                "extras": {k: _short(v) for k, v in self.extras.items()}, "version": self.version}
