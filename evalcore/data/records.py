"""The unit every summary reader produces: one summary to score with its references, and the
checks the readers share (reference files that must not be empty, unique (topic, system))."""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from pathlib import Path

from evalcore.io.textfiles import InputError, read_text


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
    #: its language (ISO 639-1) when the input names one; None: the command's ``--lang``
    lang: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.topic, self.system)


def read_text_file(path: Path, topic: str = "", max_chars: int | None = None) -> str:
    """A reference (model) summary file's text; a file that is empty once cleaned (NUL bytes,
    invisible characters only), undecodable, binary or longer than ``max_chars`` is an error naming
    the file and ``topic``, since every peer of the topic would be scored against it."""
    from evalcore.metric.inputs import clean_text

    what = f"topic '{topic}': model summary {path}" if topic else str(path)
    try:
        text = read_text(path)
    except InputError as exc:
        raise InputError(f"topic '{topic}': {exc}" if topic else str(exc)) from None
    clean = clean_text(text)
    if not clean.strip():
        raise InputError(f"{what}: empty summary file" + (" (only control or invisible characters)"
                                                          if text.strip() else ""))
    if max_chars is not None and len(clean) > max_chars:  # counted as metrics read it: cleaned, NFC
        raise InputError(f"{what}: too long ({len(clean):,} characters > {max_chars:,}); every peer of the "
                         "topic is scored against it: raise the cap with --max-chars or AESOP_MAX_CHARS")
    return text


def check_unique(items: list[SummaryItem]) -> None:
    """Two summaries for the same (topic, system) is an error naming both origins."""
    seen: dict[tuple[str, str], str] = {}
    for item in items:
        if item.key in seen:
            raise InputError(f"duplicate summary for topic '{item.topic}', system '{item.system}': "
                             f"{seen[item.key]} and {item.origin}")
        seen[item.key] = item.origin


class UniqueKeys:
    """The (topic, system) keys of a long input, 8 bytes each (plus each distinct topic and system
    name once), for finding the first key that comes twice without holding the items."""

    def __init__(self) -> None:
        self._topics: dict[str, int] = {}
        self._systems: dict[str, int] = {}
        self._pairs = array("q")

    def add(self, topic: str, system: str) -> None:
        t = self._topics.setdefault(topic, len(self._topics))
        s = self._systems.setdefault(system, len(self._systems))
        self._pairs.append(t << 32 | s)

    def __len__(self) -> int:
        return len(self._pairs)

    def first_duplicate(self) -> tuple[int, int] | None:
        """(position of the key's first occurrence, position of the first key seen before), 0-based
        in the order added: the pair :func:`check_unique` names; None when every key is unique."""
        import numpy as np

        pairs = np.frombuffer(self._pairs, dtype=np.int64) if len(self._pairs) else np.zeros(0, np.int64)
        order = np.argsort(pairs, kind="stable")  # equal keys stay in input order
        ranked = pairs[order]
        again = np.flatnonzero(ranked[1:] == ranked[:-1]) + 1
        if not again.size:
            return None
        later = int(order[again].min())
        return int(order[np.searchsorted(ranked, pairs[later])]), later
