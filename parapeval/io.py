"""Reading (original, paraphrase[, system]) pairs from JSONL or TSV, line by line, by the input
rule of :mod:`evalcore.io.textfiles`, so that a bad line (undecodable bytes, broken JSON, missing field,
blank) becomes an error record naming the line instead of stopping the batch, while a file that
holds no pairs at all (binary, whitespace only) is one clear error naming the file."""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalcore.io.textfiles import InputError, LineError, decode_lines, json_id, read_bytes
from evalcore.metric.inputs import is_blank

ORIGINAL_FIELDS = ("original", "source", "reference")
PARAPHRASE_FIELDS = ("paraphrase", "candidate", "hypothesis", "text")
TSV_COLUMNS = ("original", "paraphrase", "system")
BLANK_LINE = "blank line: no pair"


@dataclass(frozen=True)
class PairRecord:
    """One input item: its id (file:line or the given id), texts and system, or a read error. The
    texts are the values as read (from JSONL any JSON value: the metric's input check names one that
    is not text); None with an error."""

    item: str
    original: Any
    paraphrase: Any
    system: str
    error: str = ""
    #: human paraphrases of the original (JSONL ``references``, a string or a list; TSV column
    #: ``references``): what BLEU, iBLEU and the other reference metrics read
    references: tuple = ()
    #: what lines up one input across systems: the JSONL ``id`` where given, else the original
    key: Any = None


def _pick(obj: dict, names: Sequence[str]) -> Any:
    """The value of the first of ``names`` in a decoded JSON object (any JSON value: the metric's
    input check reports one that is not text)."""
    for name in names:
        if name in obj:
            return obj[name]
    raise KeyError(f"none of the fields {', '.join(names)}")


def _lines(data: bytes, name: str) -> list[str | LineError]:
    """Lines of a pair file by the input rule (:func:`evalcore.io.textfiles.decode_lines`: UTF-16 decoded,
    binary data an InputError naming the file, an undecodable line a :class:`LineError`), without
    the empty lines that close the file; a file of whitespace only is an InputError naming it.
    Control and invisible characters count as the nothing the input rule makes of them in that
    test, so a file reads as its twin without them; a closing line of them is kept (a blank line
    that gets its record, not an absent one)."""
    lines = decode_lines(data, name)
    if lines and all(is_blank(line) for line in lines):
        raise InputError(f"{name}: no pairs to score (the file holds only whitespace)")
    while lines and isinstance(lines[-1], str) and not lines[-1]:
        lines.pop()
    return lines


def _read(path: str | Path | None) -> tuple[bytes, str, str, bool | None]:
    """(bytes, name for errors, prefix of item ids, JSONL or not (None = sniff)) of a pair file
    or of standard input (``-``)."""
    if path in (None, "-"):
        return sys.stdin.buffer.read(), "standard input", "stdin", None
    path = Path(path)
    return read_bytes(path), str(path), path.name, path.suffix.lower() in (".jsonl", ".json", ".ndjson")


def _looks_like_jsonl(lines: Sequence[str | LineError]) -> bool:
    """Standard input has no file name: JSONL when more of its non-blank lines open a JSON object
    (after white space) than other lines hold a tab (JSON holds tabs only as white space), so one
    broken first line does not make a JSONL stream TSV, every line of it unreadable. A line whose
    bytes do not decode counts by its shape, as it counts when the file is named."""
    texts = [text for text in (line if isinstance(line, str) else line.shape for line in lines) if text.strip()]
    objects = sum(_opening(text).startswith("{") for text in texts)
    return objects > sum("\t" in text and not _opening(text).startswith("{") for text in texts)


def _opening(text: str) -> str:
    """``text`` from its first visible character: white space and invisible (Cf) characters such
    as a byte-order mark skipped, as the input rule removes them from texts."""
    start = 0
    while start < len(text) and (text[start].isspace() or unicodedata.category(text[start]) == "Cf"):
        start += 1
    return text[start:]


def _jsonl_record(item: str, text: str, system_field: str | None, default_system: str) -> PairRecord:
    """A JSONL line as a record; ValueError/KeyError when it is not an object with both texts. A raw
    control character inside a string is read, as :func:`evalcore.io.textfiles.jsonl_objects` reads it."""
    obj = json.loads(text, strict=False)
    if not isinstance(obj, dict):
        raise ValueError("a JSON object per line is expected")
    original, paraphrase = _pick(obj, ORIGINAL_FIELDS), _pick(obj, PARAPHRASE_FIELDS)
    field = system_field or "system"
    system = obj.get(field, default_system)
    if not isinstance(system, str):  # a number or null: refused, not turned into text (docs/input-rule.md)
        system = json_id(system, field)
    refs = obj.get("references", [])
    if not isinstance(refs, (str, list)):
        raise ValueError(f"references must be a string or a list of strings, got {type(refs).__name__}")
    key = original
    if "id" in obj:
        item = f"{item} (id {obj['id']})"
        key = ("id", json.dumps(obj["id"], sort_keys=True))  # the JSON value lines systems up
    return PairRecord(item, original, paraphrase, system, references=(refs,) if isinstance(refs, str) else tuple(refs),
                      key=key)


def _tsv_record(item: str, cols: list[str], header: list[str] | None, system_field: str | None,
                default_system: str) -> PairRecord:
    """A TSV row as a record (columns named by the header, else original, paraphrase, system)."""
    if len(cols) < 2:
        raise ValueError(f"expected at least 2 tab-separated columns, got {len(cols)}")
    row = dict(zip(header or TSV_COLUMNS, cols))
    refs = (row["references"],) if row.get("references") else ()
    return PairRecord(item, row["original"], row["paraphrase"], row.get(system_field or "system", default_system),
                      references=refs, key=row["original"])


def read_pairs(path: str | Path | None, system_field: str | None = None,
               default_system: str = "all") -> list[PairRecord]:
    """Pairs from a file (.jsonl: objects with original/paraphrase fields, optional ``id`` and
    ``references``; otherwise TSV: columns original, paraphrase[, system] with an optional header
    naming them, ``references`` among them) or standard input (``-``,
    JSONL or TSV by its lines), one record per line. The system is the ``system_field``
    field or column, by default ``system`` where a line has one, else ``default_system``.

    A file that cannot hold pairs is an InputError naming it: binary data, nothing but whitespace,
    or no line readable as a pair."""
    data, name, prefix, is_jsonl = _read(path)
    lines = _lines(data, name)
    if is_jsonl is None:
        is_jsonl = _looks_like_jsonl(lines)
    records: list[PairRecord] = []
    header: list[str] | None = None
    for number, line in enumerate(lines, 1):
        item = f"{prefix}:{number}"
        if isinstance(line, LineError):
            message = line.message.removeprefix(f"{name}:{number}: ")
            records.append(PairRecord(item, None, None, default_system, message))
            continue
        text = line
        if is_blank(text) and (is_jsonl or "\t" not in text):
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
