"""Input files read twice, safely: a checking pass, then a scoring pass (the input rule,
docs/input-rule.md, "Reading a file twice").

The commands read a line-based input through once to check it (every refusal before any output)
and again as they score it, so a long input is never held whole. :class:`InputFile` makes the
second reading read what the first one checked:

- an input that cannot be read twice (standard input ``-``, a pipe, a named pipe (FIFO),
  ``/dev/stdin``, a process substitution ``<(...)``) is copied once, on its first reading, to a
  temporary file, which both passes read and :meth:`InputFile.close` removes;
- a regular file's identity (device, inode, size, modification time) is taken when the first pass
  opens it and the digest of its bytes when that pass ends. Every later opening compares the
  identity, and every later reading to the end the digest and the line count: a file that
  changed is an :class:`~evalcore.io.textfiles.InputError` naming it (exit 2), never fewer or
  more items. :meth:`InputFile.verify` compares the identity without reading, before any output;
- files are open in bounded groups: :func:`lines_in_step` reads many files side by side a group
  of lines of each at a time; beyond a few dozen files each is opened, read and closed in turn,
  so a thousand systems need one file descriptor, not a thousand.

One stream cannot be two inputs (``-r - -i -``): :func:`check_distinct_streams` says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import IO

from evalcore.io.textfiles import InputError, Line, LineReader, shown

STDIN = "-"
#: files :func:`lines_in_step` keeps open at once (far below the usual limit of 1,024 descriptors)
MAX_OPEN = 64
#: lines read of one open file at a time by :func:`lines_in_step`
LINES_PER_TAKE = 64
#: lines held at once by :func:`lines_in_step` over more than :data:`MAX_OPEN` files (each gives a share)
LINES_IN_STEP = 1 << 16
#: the fewest lines read of one file per opening in :func:`lines_in_step`
MIN_LINES_PER_OPEN = 16
#: files up to this many bytes are read once more before a command's first output, so an edit
#: that keeps their size and time is refused before any output (a tenth of a second at most)
DIGEST_BEFORE_OUTPUT = 64 << 20


@dataclass(frozen=True)
class Identity:
    """What names one version of a regular file without reading it: device, inode, size and
    modification time (ns)."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> Identity:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def change(self, now: Identity) -> str:
        """What differs between this identity and ``now``, in words ("" when nothing does)."""
        if (self.device, self.inode) != (now.device, now.inode):
            return "it was replaced by another file"
        if self.size != now.size:
            return f"its size went from {self.size:,} to {now.size:,} bytes"
        if self.mtime_ns != now.mtime_ns:
            return "it was modified"
        return ""


@dataclass(frozen=True)
class Checked:
    """What the first full reading of a file found: its identity, digest and number of lines."""

    identity: Identity
    digest: str
    n_lines: int


class InputFile:
    """One input file (``-``: standard input) read by the input rule as often as a command needs,
    always the same bytes (module docstring). ``name`` is the file as messages show it (default:
    the path; "standard input")."""

    def __init__(self, path: str | Path, name: str | None = None):
        self.path = str(path)
        self.name = name or ("standard input" if self.path == STDIN else shown(self.path))
        self._spool: str | None = None
        self._remove: weakref.finalize | None = None
        self._opened: Identity | None = None
        self.checked: Checked | None = None

    def __enter__(self) -> InputFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def n_lines(self) -> int | None:
        """The number of lines the first full reading found (None before it)."""
        return self.checked.n_lines if self.checked else None

    def lines(self) -> Iterator[Line]:
        """The file's lines (:class:`~evalcore.io.textfiles.Line`), read a block at a time. The first
        reading to the end records the file's identity, digest and line count; a later one is
        compared with them, and a file that changed is an InputError naming it."""
        reader = LineReader(self.name)
        with self.open() as stream, self.blamed():
            yield from reader.lines(stream)
        self._finished(reader)

    def verify(self, content: bool = False) -> None:
        """Refuse a file that changed since its first full reading: its identity differs, or the
        digest of its bytes now (with ``content``, or always for a file of at most
        :data:`DIGEST_BEFORE_OUTPUT` bytes, so an edit that keeps size and time is refused before
        the first output; a larger file's digest is compared at the end of the scoring pass)."""
        if self.checked is None or self._spool is not None:
            return
        identity = self._identity()
        self._compare(identity)
        if content or identity.size <= DIGEST_BEFORE_OUTPUT:
            digest = hashlib.blake2b(digest_size=16)
            try:
                with open(self.path, "rb") as stream:
                    while block := stream.read(1 << 20):
                        digest.update(block)
            except OSError as exc:
                raise InputError(f"{self.name}: cannot be read any more ({exc.strerror})") from None
            if digest.hexdigest() != self.checked.digest:
                raise _changed(self.name, "its content differs from what was checked")

    @contextlib.contextmanager
    def blamed(self) -> Iterator[None]:
        """An InputError raised within (reading the file, or reading what it holds) is the file's
        change when it changed since it was checked: a file cut in the middle of a line is first
        met as a broken line, but the line was whole when checked."""
        try:
            yield
        except InputError:
            self.verify(content=True)
            raise

    def close(self) -> None:
        """Remove the copy of a stream, if any."""
        if self._remove is not None:
            self._remove()
            self._remove = self._spool = None

    def open(self) -> IO[bytes] | _Bounded:
        """The file's bytes from the start (a stream is copied on the first call); a regular file
        that is no longer the one first read is an InputError naming it."""
        if self._spool is None and self._needs_spool():
            self._spool_stream()
        path = self._spool or self.path
        try:
            stream = open(path, "rb")  # noqa: SIM115 - the caller closes it
        except OSError as exc:
            raise InputError(f"{self.name}: cannot be read ({exc.strerror})") from None
        now = Identity.of(os.fstat(stream.fileno()))
        if self.checked is None:
            self._opened = self._opened or now
            return stream
        try:
            self._compare(now)
        except InputError:
            stream.close()
            raise
        return _Bounded(stream, self.checked.identity.size)  # bytes appended meanwhile are never read

    def _needs_spool(self) -> bool:
        """Whether the input cannot be read twice: standard input, or anything that is not a regular
        file (a pipe, a FIFO, ``/dev/stdin`` of a pipe, a process substitution)."""
        if self.path == STDIN:
            return True
        try:
            mode = os.stat(self.path).st_mode
        except OSError as exc:
            raise InputError(f"{self.name}: cannot be read ({exc.strerror})") from None
        if stat.S_ISDIR(mode):
            raise InputError(f"{self.name}: is a folder, not a file")
        return not stat.S_ISREG(mode)

    def _spool_stream(self) -> None:
        """Copy the stream, once, to a temporary file that every reading then reads."""
        fd, spool = tempfile.mkstemp(prefix="aesop-input-")
        self._remove = weakref.finalize(self, _unlink, spool)
        try:
            with os.fdopen(fd, "wb") as out:
                if self.path == STDIN:
                    shutil.copyfileobj(sys.stdin.buffer, out)
                else:
                    with open(self.path, "rb") as stream:
                        shutil.copyfileobj(stream, out)
        except OSError as exc:
            self.close()
            if exc.filename == self.path or exc.filename is None and self.path == STDIN:
                raise InputError(f"{self.name}: cannot be read ({exc.strerror})") from None
            raise InputError(f"{self.name}: cannot be copied to a temporary file to be read twice "
                             f"({exc.strerror}; set TMPDIR to a folder with room)") from None
        self._spool = spool

    def _compare(self, now: Identity) -> None:
        assert self.checked is not None
        change = self.checked.identity.change(now)
        if change:
            raise _changed(self.name, change)

    def _finished(self, reader: LineReader) -> None:
        """A reading reached the end: the first records the file, a later one is compared with it."""
        if self.checked is None:
            if self._opened is None:
                raise AssertionError("a reading ends that was never opened")
            now = self._identity()
            change = self._opened.change(now)
            if change:
                raise _changed(self.name, change)
            self.checked = Checked(now, reader.digest, reader.number)
            return
        if reader.digest != self.checked.digest:
            lines = "" if reader.number == self.checked.n_lines else \
                f" (it had {self.checked.n_lines:,} lines, it now has {reader.number:,})"
            raise _changed(self.name, f"its content differs from what was checked{lines}")
        self._compare(self._identity())  # grown (what was read stops at the size checked) or replaced

    def _identity(self) -> Identity:
        try:
            return Identity.of(os.stat(self._spool or self.path))
        except OSError as exc:
            raise InputError(f"{self.name}: cannot be read any more ({exc.strerror})") from None


class _Bounded:
    """A binary file read no further than ``size`` bytes (the size its first reading found)."""

    def __init__(self, stream: IO[bytes], size: int):
        self._stream = stream
        self._size = size

    def read(self, n: int = -1) -> bytes:
        left = self._size - self._stream.tell()
        return self._stream.read(left if n < 0 else min(n, left)) if left > 0 else b""

    def seek(self, offset: int) -> int:
        return self._stream.seek(offset)

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> _Bounded:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _changed(name: str, change: str) -> InputError:
    return InputError(f"{name}: the file changed while it was read ({change}); its scores would not be "
                      "those of the file checked: run again once it stays put")


class FileReader:
    """Reads one :class:`InputFile` a group of lines at a time, either kept open between groups
    (``keep_open``) or opened only while a group is read; at the end it records or compares the
    file (:meth:`InputFile.lines`)."""

    def __init__(self, file: InputFile, keep_open: bool):
        self.file = file
        self.keep_open = keep_open
        self._reader = LineReader(file.name)
        self._stream: IO[bytes] | _Bounded | None = None
        self._lines: Iterator[Line] | None = None

    def take(self, n: int) -> list[Line]:
        """The next ``n`` lines (fewer at the end of the file; none after it)."""
        if self._reader.done:
            return []
        if self.keep_open:
            if self._lines is None:
                self._stream = self.file.open()
                self._lines = self._reader.lines(self._stream)
            with self.file.blamed():
                group = list(islice(self._lines, n))
            if self._reader.done:
                self.close()
        else:
            with self.file.open() as stream, self.file.blamed():
                group = list(self._reader.lines(stream, n))
        if self._reader.done:
            self.file._finished(self._reader)
        return group

    def close(self) -> None:
        """Close the file if it is open."""
        if self._stream is not None:
            self._stream.close()
        self._stream = self._lines = None


def lines_in_step(files: Sequence[InputFile]) -> Iterator[tuple[Line, ...]]:
    """A line of every file at a time (``files`` have been read through once and have as many
    lines each). Up to :data:`MAX_OPEN` files stay open, read a few lines at a time; more are
    opened one at a time, a group of lines each (:data:`LINES_IN_STEP` over them all), and closed
    before the next is opened: a thousand files take one file descriptor. A file that changed since
    its first reading is an InputError naming it."""
    if not files:
        return
    keep_open = len(files) <= MAX_OPEN
    per_take = LINES_PER_TAKE if keep_open else max(MIN_LINES_PER_OPEN, LINES_IN_STEP // len(files))
    readers = [FileReader(f, keep_open) for f in files]
    try:
        while True:
            groups = [r.take(per_take) for r in readers]
            if not any(groups):
                return
            if len({len(g) for g in groups}) > 1:  # a file a first reading did not count (the others are)
                short = min(zip(groups, files), key=lambda gf: len(gf[0]))[1]
                raise _changed(short.name, "it ended before the files it is aligned with")
            yield from zip(*groups)
    finally:
        for reader in readers:
            reader.close()


def check_distinct_streams(inputs: Sequence[tuple[str, str | Path]]) -> None:
    """Refuse one stream given as two inputs (``-r - -i -``, ``-`` and ``/dev/stdin`` of a pipe, one
    FIFO twice): a stream is read once, so the second input would be empty. ``inputs`` are
    ``(option, path)``. Standard input (``-``) is read as a stream whatever it is, so it can be one
    input only; a regular file may be named twice (it can be read twice)."""
    seen: dict[object, str] = {}
    for option, path in inputs:
        where = f"{option} {shown(path)}"
        for key in _stream_keys(path):
            if key in seen:
                raise InputError(f"{seen[key]} and {where} are one stream, which can be read once: it cannot be "
                                 "two inputs (save it to a file and name the file twice, or give each input its own "
                                 "file)")
            seen[key] = where


def _stream_keys(path: str | Path) -> list[object]:
    """What names the stream an input reads: standard input itself for ``-``, and the device and
    inode of anything that is not a regular file (none for a regular file or a missing one)."""
    keys: list[object] = [STDIN] if str(path) == STDIN else []
    try:
        st = os.fstat(sys.stdin.fileno()) if str(path) == STDIN else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return keys  # no such file, or no real standard input: the reading names it
    if not stat.S_ISREG(st.st_mode):
        keys.append((st.st_dev, st.st_ino))
    return keys
