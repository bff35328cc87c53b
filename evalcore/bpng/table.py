"""What BPNG needs from a phrase table: N(e) for segmentation and t(f | e) for the network.

A table answers :meth:`PhraseTable.lookup` for a batch of English phrases at once (one query
per sentence for the on-disk store). :class:`MemoryPhraseTable` is the same thing in a dict,
for tests, worked examples and tables built on the fly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple, Protocol

Phrase = tuple[str, ...]


class PhraseEntry(NamedTuple):
    """One English phrase: its count N(e) and translations (pivot phrase, N(e, f)), most
    frequent first; t(f | e) = N(e, f) / N(e). A named tuple: stores cache many of them."""

    count: float  # type: ignore[assignment]  # the field N(e) shadows tuple.count, as stores expect
    translations: tuple[tuple[Phrase, float], ...]

    def distribution(self) -> list[tuple[Phrase, float]]:
        """The translation distribution t(f | e), most probable first."""
        return [(f, n / self.count) for f, n in self.translations]


class PhraseTable(Protocol):
    """Read-only phrase table over (preprocessed) English token tuples."""

    @property
    def total(self) -> float:
        """Sum over phrases of N(e): the denominator of Pr(p)."""

    def lookup(self, phrases: Iterable[Phrase]) -> dict[Phrase, PhraseEntry]:
        """Entries of the phrases that are in the table (absent ones are left out)."""

    def signature(self) -> str:
        """Reproducibility string of the bitext and settings that built the table."""


class ListedPhraseTable(PhraseTable, Protocol):
    """A phrase table that also lists its entries."""

    def items(self) -> Iterator[tuple[Phrase, PhraseEntry]]:
        """Every (English phrase, entry)."""


class MemoryPhraseTable:
    """A phrase table held in a dict: ``{english: (N(e), {pivot: N(e, f)})}``."""

    def __init__(self, entries: Mapping[Phrase, tuple[float, Mapping[Phrase, float]]], name: str = "memory"):
        self._entries = {
            tuple(e): PhraseEntry(float(n), tuple(sorted(((tuple(f), float(c)) for f, c in tr.items()),
                                                        key=lambda fc: (-fc[1], fc[0]))))
            for e, (n, tr) in entries.items()
        }
        self.total = float(sum(entry.count for entry in self._entries.values()))
        self.name = name

    def lookup(self, phrases: Iterable[Phrase]) -> dict[Phrase, PhraseEntry]:
        get = self._entries.get
        return {p: entry for p in phrases if (entry := get(p)) is not None}

    def items(self) -> Iterator[tuple[Phrase, PhraseEntry]]:
        """Every (phrase, entry) of the table (for compiling it, see :mod:`.compiled`)."""
        return iter(self._entries.items())

    def signature(self) -> str:
        return f"pt:{self.name}"
