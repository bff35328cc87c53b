"""The scorer interface every summary metric follows (rouge-score / sacrebleu pattern)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

from evalcore import __version__


@dataclass(frozen=True)
class Score:
    """Precision, recall and F of one candidate; ``value`` is the metric's headline number and
    ``note`` what a reader should know about it (e.g. DICOMER's flags for degenerate input)."""

    precision: float
    recall: float
    f: float
    value: float
    note: str | None = field(default=None, kw_only=True)


class Metric(ABC):
    """Construct with options, then ``score(references, candidate)`` or ``score_batch(items)``.

    ``references`` is a sequence of model/reference summaries (at least one).
    """

    name: str = ""

    @abstractmethod
    def score_batch(self, items: Sequence[tuple[Sequence[str], str]]) -> list[Score]:
        """Scores for many (references, candidate) pairs; shared texts are preprocessed once."""

    def score(self, references: Sequence[str] | str, candidate: str) -> Score:
        """Score of one candidate against one or several references."""
        refs = [references] if isinstance(references, str) else list(references)
        return self.score_batch([(refs, candidate)])[0]

    @abstractmethod
    def signature_fields(self) -> str:
        """The option fields of the reproducibility signature."""

    def signature(self) -> str:
        """sacrebleu-style signature naming everything that changes the numbers."""
        return f"{self.name}|{self.signature_fields()}|v:{__version__}"


def check_item(references: Sequence[str], candidate: str) -> None:
    """Reject inputs no metric can score, with a message that says which part is wrong."""
    if not isinstance(candidate, str) or not candidate.strip():
        raise ValueError("candidate summary is empty")
    if isinstance(references, str) or not references:
        raise ValueError("no reference summaries given")
    for k, ref in enumerate(references):
        if not isinstance(ref, str) or not ref.strip():
            raise ValueError(f"reference summary #{k + 1} is empty")
