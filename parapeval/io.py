"""Reading (original, paraphrase[, system]) pairs from JSONL or TSV, line by line, so that a bad
line (undecodable bytes, broken JSON, missing field) becomes an error record naming the line
instead of stopping the batch; and writing per-pair results."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ORIGINAL_FIELDS = ("original", "source", "reference")
PARAPHRASE_FIELDS = ("paraphrase", "candidate", "hypothesis", "text")


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


def read_pairs(path: str | Path, system_field: str | None = None, default_system: str = "all") -> list[PairRecord]:
    """Pairs from ``path`` (.jsonl: objects with original/paraphrase fields; .tsv: columns
    original, paraphrase[, system], an optional header naming them). Blank lines are skipped."""
    path = Path(path)
    raw = path.read_bytes().split(b"\n")
    is_jsonl = path.suffix.lower() in (".jsonl", ".json", ".ndjson")
    records: list[PairRecord] = []
    header: list[str] | None = None
    for number, line in enumerate(raw, 1):
        item = f"{path.name}:{number}"
        line = line.rstrip(b"\r")
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            records.append(PairRecord(item, None, None, default_system, f"line is not valid UTF-8 ({exc.reason} at byte {exc.start})"))
            continue
        try:
            if is_jsonl:
                obj = json.loads(text)
                if not isinstance(obj, dict):
                    raise ValueError("a JSON object per line is expected")
                original, paraphrase = _pick(obj, ORIGINAL_FIELDS), _pick(obj, PARAPHRASE_FIELDS)
                system = obj.get(system_field, default_system) if system_field else default_system
                if "id" in obj:
                    item = f"{item} (id {obj['id']})"
            else:
                cols = text.split("\t")
                if header is None and number == 1 and {"original", "paraphrase"} <= set(cols):
                    header = cols
                    continue
                row = dict(zip(header, cols)) if header else dict(zip(("original", "paraphrase", "system"), cols))
                if len(cols) < 2:
                    raise ValueError(f"expected at least 2 tab-separated columns, got {len(cols)}")
                original, paraphrase = row["original"], row["paraphrase"]
                system = row.get(system_field or "system", default_system)
        except (ValueError, KeyError) as exc:
            records.append(PairRecord(item, None, None, default_system, f"unreadable line: {exc}"))
            continue
        records.append(PairRecord(item, original, paraphrase, str(system)))
    return records


def write_results(path: str | Path, rows: Sequence[dict]) -> None:
    """Per-pair results as JSONL (or TSV when the name ends in .tsv)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        if path.suffix.lower() == ".tsv":
            cols = list(dict.fromkeys(k for row in rows for k in row if not isinstance(row[k], dict)))
            fh.write("\t".join(cols) + "\n")
            for row in rows:
                fh.write("\t".join("" if row.get(c) is None else str(row.get(c)) for c in cols) + "\n")
        else:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
