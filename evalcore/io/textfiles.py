"""Reading users' text files, the same way in every CLI (the input rule; docs/input-rule.md).

Every file is read as bytes and its encoding detected and named before any decoding:

- UTF-8, with or without a byte-order mark (Excel and Notepad write one);
- UTF-16 LE/BE and UTF-32 LE/BE by their byte-order mark, and UTF-16 without one by its
  NUL-every-other-byte pattern (nearly every other byte where the bytes are valid UTF-8 too, so
  a UTF-8 file of NUL lines is not read as UTF-16): decoded, so such a file reads like its UTF-8
  twin;
- binary data (bytes that are not UTF-8 and hold NUL bytes or over 5% control bytes, or UTF-8,
  UTF-16 or UTF-32 text, a byte-order mark or not, of which over 30% of the characters, line ends
  aside, are control characters, as a file of NUL bytes): the file is unreadable input, an
  :class:`InputError` naming it (exit code 2), or, for a file that is one item
  (:func:`read_item_text`), that item's error record. The share is of characters, not bytes, and
  counts the control characters the metric input rule removes, so a byte-order mark, CRLF line
  ends, the encoding or removing control characters never turns text into binary data;
- anything else is UTF-8 text in which some bytes may not decode (latin-1, Windows-1252). Those
  bytes cost their line only: :func:`decode_lines` gives that line a :class:`LineError` naming
  the file, the line and the encoding the bytes look like; a file read whole as one text
  (:func:`read_item_text`, a TAC summary) becomes an :class:`UnreadableText`, which every metric
  turns into an error record naming it.

A NUL byte in a line of text is not binary data: it is a control character, which the metric
input rule (:mod:`evalcore.metric.inputs`) removes, with a note, like any other.

Lines end at LF, CRLF or CR, and nothing else, in every reader (:class:`LineReader`,
:func:`split_lines`, :func:`arriving_lines`). Reading a file twice safely (streams copied once,
files that change refused) is :mod:`evalcore.io.sources`.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NamedTuple, Protocol

#: bytes sniffed to tell text from binary data and UTF-16 without a byte-order mark
_SNIFF = 65536
#: bytes that are not UTF-8 holding NUL or more than this share of C0 control bytes (not tab,
#: newline, CR, FF, ESC; of the bytes, line ends aside) are binary data; text (UTF-8, -16, -32)
#: whose characters, line ends aside, are more than the second share control characters (a NUL-only file)
_BINARY_CONTROL_SHARE = 0.05
_TEXT_BINARY_CONTROL_SHARE = 0.3
_TEXT_CONTROLS = frozenset(b"\t\n\r\x0c\x1b")
#: UTF-16 without a byte-order mark: more than this share of the even or the odd bytes are NUL
#: (the high bytes of Latin text; CJK text has fewer), the second share where the bytes are valid
#: UTF-8 too (a UTF-8 file with NUL lines is not UTF-16 text)
_UTF16_NUL_SHARE = 0.3
_UTF16_NUL_SHARE_OF_UTF8 = 0.9
#: the control characters the metric input rule removes: C0 and C1 but tab, newline and CR; DEL
CONTROL_CLASS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
CONTROL = re.compile(f"[{CONTROL_CLASS}]")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32LE"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32BE"),
         (codecs.BOM_UTF8, "utf-8", "UTF-8 with BOM"), (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16LE"),
         (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16BE"))


class InputError(ValueError):
    """Bad input; the message names the file (and line or id) at fault, its undecodable bytes as
    :func:`shown` writes them."""

    def __init__(self, *args: object):
        super().__init__(*(shown(a) if isinstance(a, str) else a for a in args))


class UnreadableText(str):
    """An empty text standing for input that could not be decoded; ``reason`` says why (the byte,
    the encoding it looks like), the item's id where. The metric input rule turns it into an
    error record."""

    reason: str

    def __new__(cls, reason: str) -> UnreadableText:
        text = super().__new__(cls, "")
        text.reason = reason
        return text

    def __reduce__(self):
        return (UnreadableText, (self.reason,))


@dataclass(frozen=True)
class LineError:
    """A line that cannot be read as text: ``message`` names file, line and the encoding guess;
    ``shape`` is the line with its bad bytes replaced (U+FFFD), for telling formats apart only."""

    message: str
    shape: str = ""


@dataclass(frozen=True)
class Encoding:
    """What :func:`detect_encoding` found: the codec to decode with (None = binary data), the
    name users read in messages, and how many bytes of byte-order mark to skip."""

    codec: str | None
    name: str
    bom: int = 0


def detect_encoding(data: bytes) -> Encoding:
    """The encoding of a file's bytes by the rule of this module."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom) and bom != codecs.BOM_UTF8:
            text = data[len(bom):len(bom) + _SNIFF].decode(codec, errors="replace")
            if bom == codecs.BOM_UTF32_LE and not (text and _reads_as_text(text)):
                continue  # the UTF-16LE mark and a NUL character (and nothing or no text after)
            return Encoding(None, "binary") if mostly_controls(text) else Encoding(codec, name, len(bom))
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    head = data[skip:skip + _SNIFF]  # a UTF-8 BOM says nothing about the bytes after it
    if not head:
        return Encoding("utf-8", "UTF-8 with BOM", skip) if skip else Encoding("utf-8", "UTF-8")
    utf8 = _mostly_utf8(head, cut=len(data) > skip + _SNIFF)
    if b"\x00" in head:
        even, odd = head[0::2], head[1::2]
        nul_even, nul_odd = even.count(0) / max(len(even), 1), odd.count(0) / max(len(odd), 1)
        codec = "utf-16-le" if nul_odd > nul_even else "utf-16-be"
        # bytes that are UTF-8 as well (ASCII and NUL): UTF-16 only when nearly every other byte is NUL
        nul_share = _UTF16_NUL_SHARE_OF_UTF8 if utf8 else _UTF16_NUL_SHARE
        if max(nul_even, nul_odd) > nul_share and min(nul_even, nul_odd) < 0.05 and len(head) % 2 == 0:
            text = head.decode(codec, errors="replace")
            if _reads_as_text(text) and not mostly_controls(text):
                return Encoding(codec, f"UTF-16{'LE' if nul_odd > nul_even else 'BE'} without BOM")
    if utf8:
        binary = mostly_controls(head.decode("utf-8", errors="ignore"))
    else:
        controls = sum(1 for byte in head if byte < 32 and byte not in _TEXT_CONTROLS)
        # the share leaves line ends aside, as mostly_controls does: CRLF never turns text into binary data
        length = len(head) - head.count(b"\n") - head.count(b"\r")
        binary = b"\x00" in head or controls > _BINARY_CONTROL_SHARE * length
    if binary:
        return Encoding(None, "binary")
    return Encoding("utf-8", "UTF-8 with BOM", skip) if skip else Encoding("utf-8", "UTF-8")


def mostly_controls(text: str) -> bool:
    """Whether over 30% of ``text``'s characters, line ends (LF, CR) aside, are control characters
    (:data:`CONTROL`): binary data. Counted in characters and without line ends, the test gives a
    file and its twin in another encoding, with other line ends or without a byte-order mark the
    same answer; removing control characters never makes text binary."""
    length = len(text) - text.count("\n") - text.count("\r")
    return length > 0 and len(CONTROL.findall(text)) > _TEXT_BINARY_CONTROL_SHARE * length


def _reads_as_text(text: str) -> bool:
    """Whether ``text``, bytes decoded by a guess (a NUL pattern as UTF-16, a UTF-32LE mark that
    may be UTF-16LE's mark and a NUL), reads as text: it holds a character other than white space,
    and at most a tenth of its characters are controls (line ends and tabs aside), unassigned or
    private-use code points, surrogates or replacement characters (a guess that decodes to those, or to line ends
    only, is wrong)."""
    unreadable = sum(1 for ch in text if ch not in "\t\n\r" and _unreadable(ch))
    readable = sum(1 for ch in text if not ch.isspace() and not _unreadable(ch))
    return unreadable <= 0.1 * len(text) and readable > 0


def _unreadable(ch: str) -> bool:
    """A character no guessed decoding should produce: a control, an unassigned or private-use
    code point, a surrogate, a replacement character."""
    return ch == "\ufffd" or unicodedata.category(ch) in ("Cc", "Cn", "Co", "Cs")


def _mostly_utf8(head: bytes, cut: bool) -> bool:
    """Whether ``head`` decodes as UTF-8; when it is ``cut`` from a longer file, a multi-byte
    sequence that the cut ends is forgiven (an invalid byte near the end of a whole file is not)."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return cut and exc.reason == "unexpected end of data"
    return True


def guess_8bit(raw: bytes) -> str:
    """What bytes that are not UTF-8 look like, for messages."""
    try:
        raw.decode("cp1252")
    except UnicodeDecodeError:
        return "an 8-bit encoding other than UTF-8 (latin-1?)"
    return "latin-1 / Windows-1252"


def shown(name: str | Path) -> str:
    """A file name (or a message holding one) as the CLI shows it: bytes that are not UTF-8, which
    Python holds as lone surrogates (``\\udce9``), as backslash escapes of the bytes (``\\xe9``), so
    a name stays readable and every output stays UTF-8."""
    text = str(name)
    if text.isascii() or not any("\ud800" <= ch <= "\udfff" for ch in text):
        return text
    return text.encode("utf-8", "surrogateescape" if _escaped_bytes_only(text) else "backslashreplace") \
        .decode("utf-8", "backslashreplace")


def _escaped_bytes_only(text: str) -> bool:
    """Whether every surrogate in ``text`` stands for one undecodable byte (U+DC80-U+DCFF)."""
    return all("\udc80" <= ch <= "\udcff" for ch in text if "\ud800" <= ch <= "\udfff")


def undecodable(name: str, raw: bytes, exc: UnicodeDecodeError) -> str:
    """The message for ``raw`` bytes of ``name`` (file, file:line) that are not UTF-8: the byte,
    where, the encoding it looks like and how to convert."""
    return (f"{shown(name)}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte {exc.start}; it looks like "
            f"{guess_8bit(raw)}); convert it to UTF-8, e.g. `iconv -f WINDOWS-1252 -t UTF-8`")


def _binary(name: str | Path) -> InputError:
    return InputError(f"{name}: binary data (NUL or control bytes), not a text file")


def decode_text(data: bytes, name: str | Path) -> str:
    """``data`` as one text by the rule of this module (BOM dropped); binary data or bytes that
    do not decode are an :class:`InputError` naming ``name`` and the encoding found."""
    enc = detect_encoding(data)
    if enc.codec is None:
        raise _binary(name)
    try:
        return data[enc.bom:].decode(enc.codec)
    except UnicodeDecodeError as exc:
        if enc.codec != "utf-8":
            raise _not_valid(name, enc, exc.reason, exc.start + enc.bom) from None
        raise InputError(undecodable(str(name), data, exc)) from None


def _not_valid(name: str | Path, enc: Encoding, reason: str, at: int) -> InputError:
    """A UTF-16 or UTF-32 file whose bytes do not decode (at byte ``at`` of the file)."""
    return InputError(f"{name}: not valid {enc.name} ({reason} at byte {at})")


#: the line ends of every line-based file, in every command: LF, CRLF and CR (a CR before an LF
#: is the CRLF's). Nothing else ends a line: U+2028, NEL, form feed and vertical tab are text.
_EOL_BYTES = re.compile(rb"\r\n|\r|\n")
_EOL_TEXT = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` by the line-end rule (LF, CRLF, CR; the empty piece after a final
    line end dropped: it ends a line, adds none)."""
    return _final_dropped(_EOL_TEXT.split(text))


def decode_lines(data: bytes, name: str | Path) -> list[str | LineError]:
    """The lines of ``data`` (line ends, LF, CRLF or CR, and a final empty line dropped), each a
    text or a :class:`LineError` where its bytes do not decode; binary data is an :class:`InputError`."""
    return list(iter_lines(io.BytesIO(data), name))


def _utf8_line(raw: bytes, name: str | Path, number: int) -> str | LineError:
    """Line ``number`` of a UTF-8 file (its line end removed), or the :class:`LineError` naming it
    where its bytes do not decode."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return LineError(undecodable(f"{name}:{number}", raw, exc), raw.decode("utf-8", "replace"))


#: bytes of a file that decide its encoding (:func:`detect_encoding` reads no further): the longest
#: byte-order mark, the sniffed bytes and one more, which says whether the sniff cut the file
_HEAD = 4 + _SNIFF + 1
#: bytes read (and, for UTF-16 and UTF-32, decoded) at a time
_BLOCK = 1 << 16


class ByteSource(Protocol):
    """What :class:`LineReader` reads: bytes a block at a time, from a place it seeks to."""

    def read(self, n: int = -1, /) -> bytes: ...

    def seek(self, offset: int, /) -> int: ...


class Line(NamedTuple):
    """One line as :class:`LineReader` reads it: its text (or the :class:`LineError` where its
    bytes do not decode) and, in a UTF-8 file, its bytes without the line end (empty otherwise)."""

    text: str | LineError
    raw: bytes = b""


class LineReader:
    """Reads the lines of one file by the input rule, from where it stands: it keeps the byte
    offset and number of the next line, the encoding the file's head named, and a digest of the
    bytes read so far (BLAKE2b; after a whole file, the digest of its bytes). So a file can be read
    a group of lines at a time, closed and reopened in between (:meth:`lines` of a stream seeks to
    :attr:`offset`), and a second reading can be compared with the first."""

    def __init__(self, name: str | Path):
        self.name = name
        self.encoding: Encoding | None = None
        self.offset = 0
        self.number = 0
        self.done = False
        self._digest = hashlib.blake2b(digest_size=16)

    @property
    def digest(self) -> str:
        """The digest of the bytes read so far (hex)."""
        return self._digest.hexdigest()

    def lines(self, stream: ByteSource, limit: int | None = None) -> Iterator[Line]:
        """The next lines of ``stream`` (at most ``limit``), each counted as it is given; the
        encoding is detected from the head when the reader stands at the start. Binary data, or a
        UTF-16 or UTF-32 file whose bytes stop decoding, is an :class:`InputError` naming the file,
        raised when that is met (callers that must refuse a file before any output read it
        through once first)."""
        if self.done or limit == 0:
            return
        if self.encoding is None:
            head = stream.read(_HEAD)
            self.encoding = enc = detect_encoding(head)
            if enc.codec is None:
                raise _binary(self.name)
            self.offset = enc.bom
            self._digest.update(head[:enc.bom])
            first = head[enc.bom:]
        else:
            enc = self.encoding
            if self.offset:
                stream.seek(self.offset)
            first = b""
        if enc.codec == "utf-8":
            yield from self._utf8_lines(stream, first, limit)
            return
        given = 0
        for text, end in _pieces(self._decoded(stream, first, enc), "\r"):
            data = (text + end).encode(enc.codec)
            self._digest.update(data)
            self.offset += len(data)
            self.number += 1
            yield Line(text)
            given += 1
            if given == limit:
                return
        self.done = True

    def _utf8_lines(self, stream: ByteSource, buffer: bytes, limit: int | None) -> Iterator[Line]:
        """The lines of a UTF-8 stream (``buffer``: its bytes read already), a block at a time:
        each block's complete lines are found in it one after the other and go into the digest
        together (the part read, when the reading stops inside a block: a ``limit`` reached, or
        the caller done)."""
        given, eof, name = 0, False, self.name
        number, offset, chunk, pos = self.number, self.offset, b"", 0
        try:
            while not eof:
                block = stream.read(max(_BLOCK, len(buffer)))  # a line longer than a block: the reads grow
                eof = not block
                buffer += block
                end = len(buffer) if eof else max(buffer.rfind(b"\n"), buffer.rfind(b"\r", 0, len(buffer) - 1)) + 1
                chunk, buffer, pos = buffer[:end], buffer[end:], 0  # a CR closing the buffer may open a CRLF: it waits
                crlf = b"\r" in chunk
                ends = _EOL_BYTES.finditer(chunk) if crlf and b"\r" in chunk.replace(b"\r\n", b"") else None
                while pos < len(chunk):
                    if ends is not None:  # CR-only line ends among the others
                        match = next(ends, None)
                        stop, after = (match.start(), match.end()) if match else (len(chunk), len(chunk))
                    else:  # LF, or LF and CRLF: the CR before an LF is the CRLF's
                        stop = chunk.find(b"\n", pos)
                        stop, after = (stop, stop + 1) if stop >= 0 else (len(chunk), len(chunk))
                        if crlf and stop > pos and chunk[stop - 1] == 13:
                            stop -= 1
                    raw = chunk[pos:stop]
                    number += 1
                    offset += after - pos
                    pos = after
                    try:
                        text: str | LineError = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        text = _utf8_line(raw, name, number)
                    yield Line(text, raw)
                    given += 1
                    if given == limit:
                        return
                self._digest.update(chunk)
                chunk, pos = b"", 0
            self.done = True
        finally:  # where the reading stopped: the next reading starts there
            self._digest.update(chunk[:pos])
            self.number, self.offset = number, offset

    def _decoded(self, stream: ByteSource, first: bytes, enc: Encoding) -> Iterator[str]:
        """The text of a UTF-16 or UTF-32 stream from :attr:`offset` on, decoded a block at a time;
        bytes that do not decode are an :class:`InputError` giving their place in the file."""
        decoder = codecs.getincrementaldecoder(enc.codec)()  # type: ignore[arg-type]  # not None: text
        block, fed = first or stream.read(_BLOCK), self.offset
        while block:
            more = stream.read(_BLOCK)
            waiting = len(decoder.getstate()[0])  # bytes fed before that await the rest of their character
            try:
                text = decoder.decode(block, final=not more)
            except UnicodeDecodeError as exc:
                raise _not_valid(self.name, enc, exc.reason, fed - waiting + exc.start) from None
            fed += len(block)
            if text:
                yield text
            block = more


def _pieces(blocks, cr):
    """``(line, line end)`` for the lines of a text or bytes given a block at a time, split by the
    line-end rule (LF, CRLF, CR); a CR closing a block waits for the next block, which may open
    with the LF of its CRLF. The last line's end is empty when the text does not end with one."""
    buffer = cr[:0]
    for block in blocks:
        buffer, scan, pos = buffer + block, max(len(buffer) - 1, 0), 0
        while (match := _eol(buffer, scan)) is not None and not (match.end() == len(buffer) and match.group() == cr):
            yield buffer[pos:match.start()], match.group()
            pos = scan = match.end()
        buffer = buffer[pos:]
    if buffer:
        closing = buffer.endswith(cr)
        yield (buffer[:-1], cr) if closing else (buffer, cr[:0])


def _eol(buffer, start: int):
    """The first line end of ``buffer`` (bytes or text) from ``start`` on, or None."""
    return (_EOL_BYTES if isinstance(buffer, bytes) else _EOL_TEXT).search(buffer, start)


def arriving_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of a byte stream as they arrive, by the line-end rule, without their line ends:
    what an interactive reader (``mteval stream``) needs. A line ended by a CR is given at once,
    and an LF that then comes first is skipped (the rest of its CRLF), so no line waits for input
    beyond its end."""
    read = stream.read1 if hasattr(stream, "read1") else stream.read
    buffer, after_cr = b"", False
    while block := read(_BLOCK):
        if after_cr and block.startswith(b"\n"):
            block = block[1:]
        buffer += block
        pos = 0
        for match in _EOL_BYTES.finditer(buffer):
            yield buffer[pos:match.start()]
            pos = match.end()
        after_cr, buffer = buffer.endswith(b"\r"), buffer[pos:]
    if buffer:
        yield buffer


def iter_lines(stream: IO[bytes], name: str | Path) -> Iterator[str | LineError]:
    """The lines :func:`decode_lines` gives for the bytes of ``stream``, read a block at a time, so
    a file of any length takes the memory of its longest line (:class:`LineReader`)."""
    for line in LineReader(name).lines(stream):
        yield line.text


def _final_dropped(lines: list):
    """``lines`` without the empty piece after a final newline (it ends a line, adds none)."""
    return lines[:-1] if lines and not lines[-1] else lines


def read_bytes(path: str | Path) -> bytes:
    """The bytes of ``path``; an unreadable file is an :class:`InputError` naming it."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None


def read_text(path: str | Path) -> str:
    """The text of ``path`` (:func:`decode_text`)."""
    return decode_text(read_bytes(path), path)


def read_item_text(path: str | Path) -> str:
    """The text of a file that is one item (a TAC summary, a text to judge; its id is the file's
    path): undecodable bytes or binary data make it an :class:`UnreadableText` (an error record
    for that item, naming the encoding guess), as a bad line of a line-based file costs that line."""
    data = read_bytes(path)
    try:
        return decode_text(data, path)
    except InputError as exc:
        return UnreadableText(str(exc).removeprefix(f"{shown(path)}: "))


def jsonl_lines(data: bytes, source: str | Path):
    """``(file:line, object, problem)`` for every non-blank line of JSON Lines bytes, read by the
    rule of this module. ``problem`` is "" or, for a line whose bytes do not decode, why (naming
    the encoding guess); such a line's object is read with those bytes replaced, so its fields
    still name the item it stands for. A line that is not a JSON object is an :class:`InputError`
    naming ``source:line``."""
    return jsonl_file_lines(LineReader(source).lines(io.BytesIO(data)), source)


def jsonl_file_lines(lines: Iterable[Line], source: str | Path):
    """:func:`jsonl_lines` of the :class:`Line` s of a file read a block at a time
    (:meth:`LineReader.lines`, :meth:`evalcore.io.sources.InputFile.lines`), so a long file is never
    held whole: the same objects and the same errors (``source`` names the file in them)."""
    for number, line in enumerate(lines, 1):
        yield from _jsonl_line(line.text, line.raw, f"{source}:{number}")


def _jsonl_line(line: str | LineError, raw: bytes, where: str):
    """The objects of one JSON Lines line (``raw``: its bytes, read where they do not decode)."""
    problem = ""
    if isinstance(line, LineError):
        problem = line.message.removeprefix(f"{where}: ")
        try:
            objects = list(jsonl_objects(raw.decode("utf-8", "replace"), where, numbered=False))
        except InputError:
            raise InputError(line.message) from None
    else:
        objects = list(jsonl_objects(line, where, numbered=False))
    for _, obj in objects:
        yield where, obj, problem


def jsonl_objects(text: str, source: str | Path, numbered: bool = True):
    """``(file:line, object)`` for every non-blank line of a JSON Lines text; a line that is not
    valid JSON or not a JSON object is an :class:`InputError` naming ``source:line`` (``source``
    alone when not ``numbered``: it names the line already). Lines end by the line-end rule (LF,
    CRLF, CR; :func:`split_lines`): a U+2028 that ``json.dumps(..., ensure_ascii=False)`` leaves
    inside a string ends no line. A raw
    control character inside a string (a NUL, an escape code, which strict JSON refuses) is read as
    part of it: the metric input rule removes it from the text, with a note, as from any text."""
    for number, line in enumerate(split_lines(text), 1):
        if not line.strip():
            continue
        where = f"{source}:{number}" if numbered else str(source)
        try:
            obj = json.loads(line, strict=False)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        yield where, obj


def json_id(value: object, name: str, where: str = "") -> str:
    """An id field of a JSON Lines object (``topic``, ``system``) as its text; InputError naming
    ``where`` (when given) for anything but a non-blank string. A number is refused, not turned
    into text: JSON keeps no spelling of a number (``1``, ``1.0`` and ``1e0`` are one value), so
    ``1`` could not be told from ``"1"`` or matched with the ``1`` of a TSV file
    (docs/input-rule.md)."""
    if isinstance(value, str) and value.strip():
        return value
    at = f"{where}: " if where else ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = json.dumps(value)
        raise InputError(f"{at}'{name}' is the number {number}; ids are text in JSON: write \"{name}\": \"{number}\"")
    got = "blank" if isinstance(value, str) else json.dumps(value)[:40]
    raise InputError(f"{at}'{name}' must be a non-blank string, got {got}")


def read_input_text(path: str | Path | None) -> str:
    """The text of an input file or of stdin (``-``), by the input rule."""
    if path in (None, "-"):
        return decode_text(sys.stdin.buffer.read(), "standard input")
    return read_text(path)
