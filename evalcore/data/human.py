"""Human scores per (topic, system), read from JSONL or TSV/CSV files written by people.

Every value must be a finite number (a blank cell or ``null`` is a missing judgment); anything
else - NaN, infinity, text, a malformed row - is an :class:`InputError` naming ``file:line``,
because one ``Infinity`` can move a system-level correlation from 0.8 to 1.0 without a word.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from evalcore.textio import InputError, jsonl_objects, read_text

HumanScores = dict[tuple[str, str], dict[str, float]]

KEY_FIELDS = ("topic", "system")
# Fields a score file may carry besides the judgments (the summary text and its references).
TEXT_FIELDS = ("summary", "references")


def read_human(path: str | Path) -> HumanScores:
    """Human scores per (topic, system) from JSONL (flat fields or a ``human`` object) or TSV/CSV
    with a header row containing ``topic`` and ``system``."""
    path = Path(path)
    text = read_text(path)
    suffix = path.suffix.lower()
    rows = _table_rows(path, text, "\t" if suffix == ".tsv" else ",") if suffix in (".tsv", ".csv") \
        else _jsonl_rows(path, text)
    out: HumanScores = {}
    for where, row in rows:
        missing = [k for k in KEY_FIELDS if row.get(k) is None or not str(row[k]).strip()]
        if missing:
            raise InputError(f"{where}: needs 'topic' and 'system' (missing {', '.join(missing)})")
        key = (str(row["topic"]), str(row["system"]))
        values = {}
        for name, value in row.items():
            if name in KEY_FIELDS or name in TEXT_FIELDS:
                continue
            number = _number(value, name, where)
            if number is not None:
                values[name] = number
        if key in out:
            raise InputError(f"{where}: duplicate human scores for topic {key[0]!r}, system {key[1]!r}")
        out[key] = values
    if not out:
        raise InputError(f"{path}: no human scores found")
    return out


@dataclass(frozen=True)
class KeyMatch:
    """Which (topic, system) pairs have both metric scores and human scores, and which only one
    side has: a correlation silently computed on 5 of 12 pairs misleads, so callers report it."""

    matched: list[tuple[str, str]]
    only_scored: list[tuple[str, str]]
    only_human: list[tuple[str, str]]

    @property
    def complete(self) -> bool:
        return not (self.only_scored or self.only_human)

    def counts(self) -> dict[str, int]:
        return {"matched": len(self.matched), "only_scored": len(self.only_scored),
                "only_human": len(self.only_human)}

    def summary(self) -> str:
        """One line for stderr, with an example of each kind of unmatched pair."""
        def example(keys):
            return f" (e.g. {keys[0][0]}/{keys[0][1]})" if keys else ""
        return (f"{len(self.matched)} (topic, system) pairs matched; "
                f"{len(self.only_scored)} scored pair{'s' * (len(self.only_scored) != 1)} without human "
                f"scores{example(self.only_scored)}; {len(self.only_human)} human-scored "
                f"pair{'s' * (len(self.only_human) != 1)} not scored{example(self.only_human)}")


def match_keys(scored: Iterable[tuple[str, str]], human: Iterable[tuple[str, str]]) -> KeyMatch:
    """Split the (topic, system) keys of scores and human scores into matched and unmatched, sorted."""
    scored, human = set(scored), set(human)
    return KeyMatch(sorted(scored & human), sorted(scored - human), sorted(human - scored))


def _number(value: object, name: str, where: str) -> float | None:
    """A judgment as a finite float; None for a blank cell or ``null`` (not judged)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{where}: {name} = {value!r} is not a number (leave the cell empty "
                         "for a missing judgment)")
    try:
        number = float(value)
    except ValueError:
        raise InputError(f"{where}: {name} = {value!r} is not a number (leave the cell empty "
                         "for a missing judgment)") from None
    if not math.isfinite(number):
        raise InputError(f"{where}: {name} = {value!r} is not a finite number (leave the cell "
                         "empty for a missing judgment)")
    return number


def _jsonl_rows(path: Path, text: str) -> list[tuple[str, dict]]:
    """(file:line, flat row) per non-blank line; a ``human`` object's fields join the row."""
    rows = []
    for where, obj in jsonl_objects(text, path):
        nested = obj.pop("human", {})
        if not isinstance(nested, dict):
            raise InputError(f"{where}: 'human' must be an object of scores, got {type(nested).__name__}")
        rows.append((where, {**nested, **obj}))
    return rows


def _table_rows(path: Path, text: str, delimiter: str) -> list[tuple[str, dict]]:
    """(file:line, row) per data row of a delimited file whose first row is the header."""
    try:
        table = list(csv.reader(text.splitlines(), delimiter=delimiter))
    except csv.Error as exc:
        raise InputError(f"{path}: not a readable {'TSV' if delimiter == chr(9) else 'CSV'} file ({exc})") from None
    if not table:
        return []
    header = [h.strip() for h in table[0]]
    doubled = sorted({h for h in header if header.count(h) > 1})
    if doubled:
        raise InputError(f"{path}:1: column {', '.join(map(repr, doubled))} appears more than once in the header")
    absent = [k for k in KEY_FIELDS if k not in header]
    if absent:
        raise InputError(f"{path}:1: the header needs 'topic' and 'system' columns (missing "
                         f"{', '.join(absent)}; is the delimiter {'a tab' if delimiter == chr(9) else 'a comma'}?)")
    rows = []
    for k, cells in enumerate(table[1:], 2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise InputError(f"{path}:{k}: {len(cells)} fields, the header has {len(header)}")
        rows.append((f"{path}:{k}", dict(zip(header, cells))))
    return rows
