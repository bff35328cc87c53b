"""The unit every summary reader produces: one summary to score with its references, and the
checks the readers share (reference files that must not be empty, unique (topic, system))."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from evalcore.textio import InputError, read_utf8


@dataclass(frozen=True)
class SummaryItem:
    """A candidate summary of ``topic`` by ``system``, with the reference summaries to match.

    ``origin`` says where it came from (file, or file:line) for error messages; ``human`` holds
    human scores when the input carries them (SummEval), keyed by dimension.
    """

    topic: str
    system: str
    summary: str
    references: tuple[str, ...]
    origin: str = ""
    human: dict[str, float] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.topic, self.system)


def read_text_file(path: Path) -> str:
    """A reference (model) summary file's text; empty or undecodable files are errors naming the
    file, since every peer of its topic is scored against it."""
    text = read_utf8(path)
    if not text.strip():
        raise InputError(f"{path}: empty summary file")
    return text


def check_unique(items: list[SummaryItem]) -> None:
    """Two summaries for the same (topic, system) is an error naming both origins."""
    seen: dict[tuple[str, str], str] = {}
    for item in items:
        if item.key in seen:
            raise InputError(f"duplicate summary for topic {item.topic!r}, system {item.system!r}: "
                             f"{seen[item.key]} and {item.origin}")
        seen[item.key] = item.origin
