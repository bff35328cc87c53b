"""Reading (original, paraphrase[, system]) pairs from JSONL or TSV, line by line, so that a bad
line (undecodable bytes, broken JSON, missing field, blank) becomes an error record naming the
line instead of stopping the batch; and writing per-pair results."""

from __future__ import annotations

import codecs
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.textio import InputError

ORIGINAL_FIELDS = ("original", "source", "reference")
PARAPHRASE_FIELDS = ("paraphrase", "candidate", "hypothesis", "text")
TSV_COLUMNS = ("original", "paraphrase", "system")


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


def _lines(path: Path) -> list[bytes]:
    """Raw lines of ``path`` without a leading UTF-8 BOM, line ends, or the empty lines that
    close the file (a final newline is not an item); unreadable files are an InputError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    lines = [line.rstrip(b"\r") for line in data.removeprefix(codecs.BOM_UTF8).split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


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


def read_pairs(path: str | Path, system_field: str | None = None, default_system: str = "all") -> list[PairRecord]:
    """Pairs from ``path`` (.jsonl: objects with original/paraphrase fields; .tsv: columns
    original, paraphrase[, system], an optional header naming them), one record per line; a
    file without any pair is an InputError."""
    path = Path(path)
    is_jsonl = path.suffix.lower() in (".jsonl", ".json", ".ndjson")
    records: list[PairRecord] = []
    header: list[str] | None = None
    for number, line in enumerate(_lines(path), 1):
        item = f"{path.name}:{number}"
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            records.append(PairRecord(item, None, None, default_system, f"line is not valid UTF-8 ({exc.reason} at byte {exc.start})"))
            continue
        if not text.strip() and (is_jsonl or "\t" not in text):
            records.append(PairRecord(item, None, None, default_system, "blank line: no pair"))
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
        raise InputError(f"{path}: no pairs to score (empty file{'' if header is None else ' after the header'})")
    return records


def _tsv_cell(value: object) -> str:
    """A value as one TSV cell: tabs and line breaks inside it become spaces."""
    return "" if value is None else " ".join(str(value).replace("\t", " ").splitlines())


def write_results(path: str | Path, rows: Sequence[dict]) -> None:
    """Per-pair results as JSONL (or TSV when the name ends in .tsv)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        if path.suffix.lower() == ".tsv":
            cols = list(dict.fromkeys(k for row in rows for k in row if not isinstance(row[k], dict)))
            fh.write("\t".join(cols) + "\n")
            for row in rows:
                fh.write("\t".join(_tsv_cell(row.get(c)) for c in cols) + "\n")
        else:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
