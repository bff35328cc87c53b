"""A test set read from a plain-text tree: source, references and system outputs, aligned by line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError
from mteval.io import Segments, check_aligned, read_segments


@dataclass(frozen=True)
class TestSet:
    """One language pair's files: ``systems`` maps a system name to its output (a
    :class:`~mteval.io.Segments`, whose bad lines carry messages naming file and line; an empty
    output line is a segment to score, an empty source or reference line an error)."""

    pair: str
    source: Segments
    references: tuple[Segments, ...]
    systems: dict[str, Segments]

    def __len__(self) -> int:
        return len(self.source)

    @property
    def target(self) -> str:
        return self.pair.split("-")[1]


def load_testset(pair: str, source: Path, references: list[Path], systems: dict[str, Path]) -> TestSet:
    """Read and line-align every file; a missing file or a count mismatch is an InputError."""
    for path in [source, *references, *systems.values()]:
        if not path.is_file():
            raise InputError(f"{path}: no such file")
    if not systems:
        raise InputError(f"{pair}: no system outputs found")
    src = read_segments(source)
    refs = tuple(read_segments(r) for r in references)
    outputs = {name: read_segments(p, output=True) for name, p in sorted(systems.items())}
    check_aligned([src, *refs, *outputs.values()])
    return TestSet(pair, src, refs, outputs)
