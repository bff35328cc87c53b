"""The unit every summary reader produces: one summary to score with its references."""

from __future__ import annotations

from dataclasses import dataclass, field


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
