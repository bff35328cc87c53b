"""Reading (original, paraphrase[, system]) pairs from JSONL or TSV, line by line, so that a bad
line (undecodable bytes, broken JSON, missing field, blank) becomes an error record naming the
line instead of stopping the batch, while a file that holds no pairs at all (UTF-16, binary,
whitespace only) is one clear error naming the file."""

from __future__ import annotations

import codecs
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.textio import InputError

ORIGINAL_FIELDS = ("original", "source", "reference")
PARAPHRASE_FIELDS = ("paraphrase", "candidate", "hypothesis", "text")
TSV_COLUMNS = ("original", "paraphrase", "system")
BLANK_LINE = "blank line: no pair"


@dataclass(frozen=True)
class PairRecord:
    """One input item: its id (file:line or the given id), texts and system, or a read error."""

    item: str
    original: str | None
    paraphrase: str | None
    system: str
    error: str = ""


def _pick(obj: dict, names: Sequence[str]) -> object:
    for name in names:
        if name in obj:
            return obj[name]
    raise KeyError(f"none of the fields {', '.join(names)}")


def _encoding_problem(data: bytes) -> str:
    """Why ``data`` is not a UTF-8 text file ("" when it may be one): a UTF-16/32 byte-order mark,
    the NUL-every-other-byte pattern of UTF-16 without one, or other NUL bytes (binary data)."""
    for bom, kind in ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
                      (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16")):
        if data.startswith(bom):
            return f"{kind} text (it starts with a {kind} byte-order mark); convert it to UTF-8, e.g. " \
                   f"`iconv -f {kind} -t UTF-8`"
    if b"\x00" not in data:
        return ""
    head = data[:4096]
    even, odd = head[0::2], head[1::2]
    shares = sorted((even.count(0) / max(len(even), 1), odd.count(0) / max(len(odd), 1)))
    if shares[1] > 0.3 and shares[0] < 0.05:
        return "UTF-16 text (every other byte is NUL); convert it to UTF-8, e.g. `iconv -f UTF-16LE -t UTF-8`"
    return "binary data (it contains NUL bytes), not a text file of pairs"


def _lines(data: bytes, name: str) -> list[bytes]:
    """Raw lines of a pair file without a leading UTF-8 BOM, line ends, or the empty lines that
    close the file (a final newline is not an item); a file that is not UTF-8 text (UTF-16,
    binary) is an InputError naming it."""
    problem = _encoding_problem(data)
    if problem:
        raise InputError(f"{name}: {problem}")
    data = data.removeprefix(codecs.BOM_UTF8)
    if data and not data.strip():
        raise InputError(f"{name}: no pairs to score (the file holds only whitespace)")
    lines = [line.rstrip(b"\r") for line in data.split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _read(path: str | Path | None) -> tuple[bytes, str, str, bool | None]:
    """(bytes, name for errors, prefix of item ids, JSONL or not (None = sniff)) of a pair file
    or of standard input (``-``)."""
    if path in (None, "-"):
        return sys.stdin.buffer.read(), "standard input", "stdin", None
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    return data, str(path), path.name, path.suffix.lower() in (".jsonl", ".json", ".ndjson")


def _looks_like_jsonl(lines: Sequence[bytes]) -> bool:
    """Standard input has no file name: JSONL when its first non-blank line opens an object."""
    first = next((line.strip() for line in lines if line.strip()), b"")
    return first.startswith(b"{")


def _jsonl_record(item: str, text: str, system_field: str | None, default_system: str) -> PairRecord:
    """A JSONL line as a record; ValueError/KeyError when it is not an object with both texts."""
    obj = json.loads(text)
    if not isinstance(obj, dict):
        raise ValueError("a JSON object per line is expected")
    original, paraphrase = _pick(obj, ORIGINAL_FIELDS), _pick(obj, PARAPHRASE_FIELDS)
    system = obj.get(system_field, default_system) if system_field else default_system
    if "id" in obj:
        item = f"{item} (id {obj['id']})"
    return PairRecord(item, original, paraphrase, str(system))


def _tsv_record(item: str, cols: list[str], header: list[str] | None, system_field: str | None,
                default_system: str) -> PairRecord:
    """A TSV row as a record (columns named by the header, else original, paraphrase, system)."""
    if len(cols) < 2:
        raise ValueError(f"expected at least 2 tab-separated columns, got {len(cols)}")
    row = dict(zip(header or TSV_COLUMNS, cols))
    return PairRecord(item, row["original"], row["paraphrase"], row.get(system_field or "system", default_system))


def read_pairs(path: str | Path | None, system_field: str | None = None,
               default_system: str = "all") -> list[PairRecord]:
    """Pairs from a file (.jsonl: objects with original/paraphrase fields; otherwise TSV: columns
    original, paraphrase[, system] with an optional header naming them) or standard input (``-``,
    JSONL or TSV by its first line), one record per line.

    A file that cannot hold pairs is an InputError naming it: UTF-16 or binary data, nothing but
    whitespace, or no line readable as a pair."""
    data, name, prefix, is_jsonl = _read(path)
    lines = _lines(data, name)
    if is_jsonl is None:
        is_jsonl = _looks_like_jsonl(lines)
    records: list[PairRecord] = []
    header: list[str] | None = None
    for number, line in enumerate(lines, 1):
        item = f"{prefix}:{number}"
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            records.append(PairRecord(item, None, None, default_system, f"line is not valid UTF-8 ({exc.reason} at byte {exc.start})"))
            continue
        if not text.strip() and (is_jsonl or "\t" not in text):
            records.append(PairRecord(item, None, None, default_system, BLANK_LINE))
            continue
        cols = text.split("\t")
        if not is_jsonl and number == 1 and {"original", "paraphrase"} <= set(cols):
            header = cols
            continue
        try:
            records.append(_jsonl_record(item, text, system_field, default_system) if is_jsonl
                           else _tsv_record(item, cols, header, system_field, default_system))
        except (ValueError, KeyError) as exc:
            records.append(PairRecord(item, None, None, default_system, f"unreadable line: {exc}"))
    if not records:
        raise InputError(f"{name}: no pairs to score (empty file{'' if header is None else ' after the header'})")
    if all(r.error for r in records):
        first = next((r for r in records if r.error != BLANK_LINE), records[0])
        raise InputError(f"{name}: no line holds a pair ({len(records)} lines; {first.item}: {first.error})")
    return records
