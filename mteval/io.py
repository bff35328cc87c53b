"""Plain-text test sets as sacrebleu reads them: one segment a line, files aligned by line.

Each line is decoded on its own, so one undecodable line, or an empty reference or source line,
costs that segment only: it becomes an error message naming ``file:line``, never a silent drop,
and the other lines are scored. An empty (or whitespace-only) line of system output is a
translation, the worst kind: it is kept, and the metrics score it. Files whose line counts differ
cannot be aligned at all: that is an :class:`InputError` naming both files and where the shorter
one ends.

``mteval score`` reads its files in step, a line of each at a time (:class:`LineFile`,
:func:`iter_segments`), so its memory does not grow with the test set; :func:`read_segments`
holds a file's lines for the commands that look lines up by number.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.sources import InputFile, lines_in_step
from evalcore.io.textfiles import InputError, Line, LineError, shown
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


class LineFile:
    """One line-aligned input file, read a line at a time, never whole. Its lines are read twice:
    :meth:`count` reads them through first (checking the file by the input rule, so a file that
    cannot be read or aligned is refused before any output), :meth:`rows` while scoring. The
    second reading reads what the first one checked (:class:`~evalcore.io.sources.InputFile`:
    a stream is copied once to a temporary file, which :meth:`close` removes; a regular file that
    changes in between is an error naming it)."""

    def __init__(self, path: str | Path, output: bool = False):
        self.path = str(path)
        self.output = output
        self.source = InputFile(path)

    @property
    def name(self) -> str:
        return "stdin" if self.path == "-" else shown(Path(self.path).name)

    def __len__(self) -> int:
        return self.count()

    def count(self) -> int:
        """The number of lines; InputError for a file that is binary data, does not decode
        (UTF-16, UTF-32) or has no lines."""
        if self.source.n_lines is None:
            for _ in self.source.lines():
                pass
        if not self.source.n_lines:
            raise InputError(f"{self.source.name}: no lines to score")
        return self.source.n_lines

    def rows(self) -> Iterator[tuple[str | None, str]]:
        """``(text, "")`` for each line, or ``(None, why)`` naming ``file:line`` where it cannot be
        read (not UTF-8; empty, in a reference or source file)."""
        for k, line in enumerate(self.source.lines()):
            yield self.row(k, line)

    def row(self, k: int, line: Line) -> tuple[str | None, str]:
        """Line ``k + 1`` as :meth:`rows` gives it."""
        if isinstance(line.text, LineError):
            return None, line.text.message
        if not line.text.strip() and not self.output:
            return None, f"{self.source.name}:{k + 1}: empty line"
        return line.text, ""

    def close(self) -> None:
        """Remove the copy of a stream, if any."""
        self.source.close()


def read_segments(path: str | Path, output: bool = False) -> Segments:
    """Every line of ``path`` (``-`` = standard input), read by the input rule of
    :mod:`evalcore.io.textfiles` (UTF-16 decoded, binary data an InputError, an undecodable line an
    error naming it); a final newline ends the last line rather than adding an empty one.
    ``output``: a system's output, whose empty lines are segments to score, not errors."""
    file = LineFile(path, output)
    try:
        rows = list(file.rows())
    finally:
        file.close()
    if not rows:
        raise InputError(f"{file.source.name}: no lines to score")
    return Segments(file.path, tuple(text for text, _ in rows), {k: why for k, (_, why) in enumerate(rows) if why})


def check_aligned(files: Sequence[Segments | LineFile]) -> int:
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


def iter_segments(hypotheses: Sequence[LineFile], references: Sequence[LineFile],
                  source: LineFile | None = None) -> Iterator[list[Segment]]:
    """Line by line, every system's :class:`Segment` (in the order of ``hypotheses``), the files
    read in step; a segment is unscorable when its hypothesis, any reference or the source line is
    bad (the message names that file and line). The files have been counted and aligned
    (:func:`check_aligned`)."""
    n_hyp, n_refs = len(hypotheses), len(references)
    for k, rows in enumerate(_in_step([*hypotheses, *references, *([source] if source else [])])):
        line_errors = [why for _, why in rows[n_hyp:] if why]
        refs = tuple(text or "" for text, _ in rows[n_hyp:n_hyp + n_refs])
        src = rows[-1][0] if source else None
        out = []
        for hyp, (text, why) in zip(hypotheses, rows):
            bad = [why, *line_errors] if why else line_errors
            if bad or text is None:
                out.append(Segment(hyp.name, k + 1, None, "; ".join(bad)))
            else:
                out.append(Segment(hyp.name, k + 1, Item(text, refs, src, id=f"{hyp.path}:{k + 1}")))
        yield out


def _in_step(files: Sequence[LineFile]) -> Iterator[tuple[tuple[str | None, str], ...]]:
    """A row of every file at a time, the files opened one at a time a group of lines each
    (:func:`~evalcore.io.sources.lines_in_step`); a file whose lines are no longer those counted
    (changed while it was read) is an InputError naming it, not a silent drop."""
    for k, lines in enumerate(lines_in_step([f.source for f in files])):
        yield tuple(f.row(k, line) for f, line in zip(files, lines))
