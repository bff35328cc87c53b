"""PDTB relation records: the one typed structure every reader, parser and writer exchanges.

Spans are character offsets ``(start, end)`` (end exclusive) into the exact text parsed;
sentence indices are filled in when the parser (or an adapter given the text) knows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

Span = tuple[int, int]

REL_TYPES = ("Explicit", "Implicit", "AltLex", "AltLexC", "EntRel", "NoRel", "Hypophora")
LEVEL1 = ("Temporal", "Contingency", "Comparison", "Expansion")
L1_LABELS = LEVEL1 + ("EntRel", "NoRel")
EXPLICIT_TYPES = frozenset({"Explicit"})

# Known misspellings and PDTB-2 abbreviations of level-1 classes (spec 1.2, GDTB quirks).
_L1_ALIASES = {"Cmparison": "Comparison", "Temp": "Temporal", "Cont": "Contingency",
               "Comp": "Comparison", "Exp": "Expansion"}


class RelationError(ValueError):
    """A relation record that cannot be interpreted; the message names its origin."""


def level1(rel_type: str, sense: str | None, hypophora: str = "EntRel") -> str:
    """The level-1 class of a relation: first sense component, EntRel/NoRel as their own class.

    Raises :class:`RelationError` for an unknown class rather than guessing.
    """
    if rel_type in ("EntRel", "NoRel"):
        return rel_type
    if rel_type == "Hypophora":
        return hypophora
    head = (sense or "").split(".", 1)[0].strip()
    head = _L1_ALIASES.get(head, head)
    if head in L1_LABELS:
        return head
    raise RelationError(f"unknown level-1 sense {sense!r} for a {rel_type} relation")


@dataclass(frozen=True)
class Relation:
    """One discourse relation; ``l1`` is derived from type and sense unless given."""

    rel_type: str
    sense: str | None
    arg1: tuple[Span, ...]
    arg2: tuple[Span, ...]
    connective: tuple[Span, ...] = ()
    connective_text: str | None = None
    provider: str = "gold"
    score: float | None = None
    doc_id: str | None = None
    arg1_sentences: tuple[int, ...] = ()
    arg2_sentences: tuple[int, ...] = ()
    note: str | None = None
    l1: str = field(default="")

    def __post_init__(self) -> None:
        if self.rel_type not in REL_TYPES:
            raise RelationError(f"unknown relation type {self.rel_type!r}")
        if not self.l1:
            object.__setattr__(self, "l1", level1(self.rel_type, self.sense))

    @property
    def explicit(self) -> bool:
        """DICOMER's E/N flag: only Explicit relations are E."""
        return self.rel_type in EXPLICIT_TYPES

    def with_sentences(self, sentence_of_offset) -> Relation:
        """A copy with sentence indices computed by ``sentence_of_offset(char) -> int``."""
        def sents(spans: tuple[Span, ...]) -> tuple[int, ...]:
            found = set()
            for start, end in spans:
                found.update({sentence_of_offset(start), sentence_of_offset(max(start, end - 1))})
            return tuple(sorted(found))
        return replace(self, arg1_sentences=sents(self.arg1), arg2_sentences=sents(self.arg2))


def parse_spans(value: str, where: str = "") -> tuple[Span, ...]:
    """``"3..10;15..20"`` -> ``((3, 10), (15, 20))``; empty string -> ``()``."""
    spans = []
    for part in filter(None, value.strip().split(";")):
        try:
            start, end = part.split("..")
            span = (int(start), int(end))
        except ValueError:
            raise RelationError(f"{where}: bad span {part!r}") from None
        if span[0] > span[1] or span[0] < 0:
            raise RelationError(f"{where}: bad span {part!r}")
        spans.append(span)
    return tuple(spans)


def format_spans(spans: tuple[Span, ...]) -> str:
    """Inverse of :func:`parse_spans`."""
    return ";".join(f"{s}..{e}" for s, e in spans)
