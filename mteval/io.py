"""Plain-text test sets as sacrebleu reads them: one segment a line, files aligned by line.

Each line is decoded on its own, so one undecodable line, or an empty reference or source line,
costs that segment only: it becomes an error message naming ``file:line``, never a silent drop,
and the other lines are scored. An empty (or whitespace-only) line of system output is a
translation, the worst kind: it is kept, and the metrics score it. Files whose line counts differ
cannot be aligned at all: that is an :class:`InputError` naming both files and where the shorter
one ends.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError, LineError, decode_lines, read_bytes, shown
from evalcore.metric import Item


@dataclass(frozen=True)
class Segments:
    """The lines of one file: ``lines[k]`` is segment k+1's text, or None where ``errors[k]``
    says why it cannot be read (not UTF-8; empty, in a reference or source file)."""

    path: str
    lines: tuple[str | None, ...]
    errors: dict[int, str]

    def __len__(self) -> int:
        return len(self.lines)

    def text(self, k: int) -> str:
        """Segment k+1's text; a line with an error has none (callers skip those first)."""
        line = self.lines[k]
        if line is None:
            raise ValueError(f"{self.path}: line {k + 1}: {self.errors.get(k, 'no text')}")
        return line

    @property
    def name(self) -> str:
        return "stdin" if self.path == "-" else shown(Path(self.path).name)


def read_segments(path: str | Path, output: bool = False) -> Segments:
    """One segment per line of ``path`` (``-`` = standard input), read by the input rule of
    :mod:`evalcore.io.textfiles` (UTF-16 decoded, binary data an InputError, an undecodable line an
    error naming it); a final newline ends the last line rather than adding an empty one.
    ``output``: a system's output, whose empty lines are segments to score, not errors."""
    name = str(path)
    data = sys.stdin.buffer.read() if name == "-" else read_bytes(path)
    lines: list[str | None] = []
    errors: dict[int, str] = {}
    for k, text in enumerate(decode_lines(data, name)):
        where = f"{name}:{k + 1}"
        if isinstance(text, LineError):
            errors[k] = text.message
            lines.append(None)
            continue
        if not text.strip() and not output:
            errors[k] = f"{where}: empty line"
            lines.append(None)
            continue
        lines.append(text)
    if not lines:
        raise InputError(f"{name}: no lines to score")
    return Segments(name, tuple(lines), errors)


def check_aligned(files: Sequence[Segments]) -> int:
    """The common line count; differing counts are an InputError naming the files."""
    first = files[0]
    for other in files[1:]:
        if len(other) != len(first):
            short, long_ = (first, other) if len(first) < len(other) else (other, first)
            raise InputError(f"{other.path} has {len(other)} lines but {first.path} has {len(first)}: "
                             f"{short.path} ends at line {len(short)}, {long_.path} goes on to line "
                             f"{len(long_)} (files must align line by line)")
    return len(first)


@dataclass(frozen=True)
class Segment:
    """One system's segment ready to score (``item``), or the reason it cannot be (``error``)."""

    system: str
    line: int
    item: Item | None
    error: str = ""


def segments_of(hypotheses: Segments, references: Sequence[Segments], source: Segments | None = None) -> list[Segment]:
    """Every line of one system as a :class:`Segment`; a line is unscorable when its
    hypothesis, any reference or the source line is bad (the message names that file and line)."""
    out = []
    for k in range(len(hypotheses)):
        bad = [f.errors[k] for f in (hypotheses, *references, *([source] if source else [])) if k in f.errors]
        if bad:
            out.append(Segment(hypotheses.name, k + 1, None, "; ".join(bad)))
            continue
        refs = tuple(r.text(k) for r in references)
        item = Item(hypotheses.text(k), refs, source.text(k) if source else None, id=f"{hypotheses.path}:{k + 1}")
        out.append(Segment(hypotheses.name, k + 1, item))
    return out
