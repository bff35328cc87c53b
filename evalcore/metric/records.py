"""Score records: what a metric returns for one item. A :class:`Score` carries only what its metric
defines (a headline ``value`` and named ``components``); an :class:`ErrorRecord` stands in for an
item a metric could not score, so a batch never loses an item."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Literal


@dataclass(frozen=True)
class Score:
    """One item's score: ``value`` is the headline number, ``components`` the metric's named parts
    (e.g. TESLA-S ``precision``, ``recall``, ``unigram_f``); ``notes`` say what a reader should know
    (text the pipeline cannot judge, a neutral value given instead of a judgment)."""

    value: float
    components: Mapping[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    ok: ClassVar[Literal[True]] = True  # a literal, so that checking ``ok`` tells a type checker which record it is

    def __post_init__(self):
        object.__setattr__(self, "value", float(self.value))  # rouge-score returns int 0 on no overlap
        object.__setattr__(self, "components",
                           MappingProxyType({k: float(v) for k, v in dict(self.components).items()}))
        object.__setattr__(self, "notes", tuple(self.notes))

    def __getattr__(self, name: str) -> float:
        """Components read as attributes (``score.recall``), as in rouge-score's tuples."""
        if name.startswith("_") or name == "components":
            raise AttributeError(name)
        try:
            return self.components[name]
        except KeyError:
            raise AttributeError(f"this score has no component {name!r}; it has "
                                 f"{', '.join(self.components) or 'none'}") from None

    def __reduce__(self):
        return (Score, (self.value, dict(self.components), self.notes))

    def with_notes(self, *notes: str) -> Score:
        """The same score with ``notes`` appended (duplicates dropped)."""
        return Score(self.value, dict(self.components), tuple(dict.fromkeys((*self.notes, *notes))))

    def as_dict(self) -> dict:
        """JSON-ready form; non-finite numbers become ``None`` (strict JSON has no NaN)."""
        out: dict = {"value": finite_or_none(self.value)}
        if self.components:
            out["components"] = {k: finite_or_none(v) for k, v in self.components.items()}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True)
class ErrorRecord:
    """Why ``metric`` gave no score for the item named ``item``."""

    item: str
    metric: str
    message: str

    ok: ClassVar[Literal[False]] = False
    value = math.nan
    notes = ()

    def __str__(self) -> str:
        return f"{self.item}: {self.metric}: {self.message}"

    def as_dict(self) -> dict:
        return {"error": self.message}


def finite_or_none(x: float | None) -> float | None:
    """``x`` as a float, or None when it is missing, NaN or infinite."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None
