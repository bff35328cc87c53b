"""JSONL input: one object per line with ``topic``, ``system``, ``summary``, ``references``.

Optional ``human`` (an object of dimension -> score) is carried along for ``correlate``.
"""

from __future__ import annotations

import json
from pathlib import Path

from summeval.io.records import InputError, SummaryItem, check_unique


def read_jsonl(path: str | Path) -> list[SummaryItem]:
    """Items of a JSONL file; any malformed line is an error naming file and line."""
    path = Path(path)
    try:
        lines = path.read_bytes().decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    items = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object")
        missing = [k for k in ("topic", "system", "summary", "references") if k not in obj]
        if missing:
            raise InputError(f"{where}: missing field(s) {', '.join(missing)}")
        refs = obj["references"]
        if isinstance(refs, str):
            refs = [refs]
        if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
            raise InputError(f"{where}: 'references' must be a list of strings")
        if not isinstance(obj["summary"], str):
            raise InputError(f"{where}: 'summary' must be a string")
        human = obj.get("human") or {}
        items.append(SummaryItem(str(obj["topic"]), str(obj["system"]), obj["summary"], tuple(refs), where,
                                 {k: float(v) for k, v in human.items()}))
    if not items:
        raise InputError(f"{path}: no summaries in file")
    check_unique(items)
    return items
