"""Human judgments, read from JSONL or TSV/CSV files written by people: the one reader behind
every ``correlate`` command and every trainer on judged data.

A judgment is keyed by fields the caller names (summaries: ``topic`` and ``system``; MT:
``system`` and, for segment judgments, a line-number column). Every value must be a finite number
(a blank cell or ``null`` is a missing judgment); anything else - NaN, infinity, text, a
malformed row - is an :class:`InputError` naming ``file:line``, because one ``Infinity`` can move
a system-level correlation from 0.8 to 1.0 without a word. A caller may instead let a column
without a single number (an annotator, a comment) be ignored, and say so.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError, json_id, jsonl_objects, read_text

HumanScores = dict[tuple[str, str], dict[str, float]]

KEY_FIELDS = ("topic", "system")
# Fields a score file may carry besides the judgments (the summary text and its references).
TEXT_FIELDS = ("summary", "references")
FORMATS = ("jsonl", "tsv", "csv")


@dataclass(frozen=True)
class Judgments:
    """Judgments per key (the key fields' values, then the line number when an ``index`` column
    was found, else nothing): {dimension: value}; ``dimensions`` in file order; ``ignored``: the
    columns that held no number (only when the caller lets them be ignored)."""

    values: dict[tuple, dict[str, float]]
    dimensions: tuple[str, ...]
    index: str | None = None
    ignored: tuple[str, ...] = ()
    #: ``file:line`` of the rows whose every judgment cell is blank: missing judgments, left out of
    #: ``values`` (their keys are not matched)
    unjudged: tuple[str, ...] = ()
    #: blank judgment cells in rows that hold other judgments (each missing from its dimension only)
    blank_cells: int = 0
    #: the ignored columns whose every cell is blank or ``error``: a score column without a value
    #: (every item failed), which a reader of score tables keeps instead of ignoring
    empty: tuple[str, ...] = ()

    def missing_note(self) -> str:
        """One line on the blank judgments ("" when there are none), for stderr."""
        parts = []
        if self.unjudged:
            n = len(self.unjudged)
            parts.append(f"{n} row{'s' * (n != 1)} without a judgment (blank cells: missing judgments, not "
                         f"matched), e.g. {self.unjudged[0]}")
        if self.blank_cells:
            parts.append(f"{self.blank_cells} blank judgment cell{'s' * (self.blank_cells != 1)} in judged rows "
                         "(missing judgments, left out of their dimension)")
        return "; ".join(parts)


def read_judgments(path: str | Path, keys: Sequence[str] = KEY_FIELDS, index: Sequence[str] = (),
                   ignore_text_columns: bool = False, default_format: str = "jsonl",
                   error_cells: bool = False) -> Judgments:
    """Judgments from JSONL (flat fields or a ``human`` object) or TSV/CSV with a header row
    naming ``keys``, by the file's suffix (``.tsv``, ``.csv``, ``.jsonl``; else ``default_format``).
    ``index``: names of an optional line-number column (the first present is used; its values
    must be integers); ``ignore_text_columns``: a column without a single number is ignored (and
    listed) instead of being an error; ``error_cells``: a cell ``error`` (a score table's failed
    item) is a missing value, as a blank one is."""
    path = Path(path)
    suffix = path.suffix.lower().lstrip(".")
    fmt = suffix if suffix in FORMATS else default_format
    if fmt not in FORMATS:
        raise ValueError(f"unknown judgment format {fmt!r}; choose from {FORMATS}")
    text = read_text(path)
    rows = _jsonl_rows(path, text) if fmt == "jsonl" else _table_rows(path, text, "\t" if fmt == "tsv" else ",", keys)
    fields = list(dict.fromkeys(name for _, row in rows for name in row))
    column = next((c for c in index if c in fields), None)
    columns = [f for f in fields if f not in (*keys, column, *TEXT_FIELDS)]
    ignored = tuple(c for c in columns if not any(_is_number(row.get(c)) for _, row in rows)) \
        if ignore_text_columns else ()
    dims = tuple(c for c in columns if c not in ignored)
    empty = tuple(c for c in ignored if all(_is_missing(row.get(c)) for _, row in rows))
    if ignore_text_columns and rows and not dims:
        raise InputError(f"{path}:1: no judgment column (a column of numbers) besides "
                         + " and ".join(k for k in (*keys, column) if k)
                         + (f"; every cell of {', '.join(empty)} is blank or an error" if empty else ""))
    out: dict[tuple, dict[str, float]] = {}
    seen: set[tuple] = set()
    unjudged: list[str] = []
    blank = 0
    for where, row in rows:
        key = _key(row, keys, column, where)
        if key in seen:
            raise InputError(f"{where}: duplicate human scores for " + ", ".join(
                f"{name} {value!r}" for name, value in zip((*keys, column), key)))
        seen.add(key)
        values = {}
        for name in dims:
            cell = row.get(name)
            number = None if error_cells and _is_missing(cell) else _number(cell, name, where)
            if number is not None:
                values[name] = number
        if values or not dims:
            out[key] = values
            blank += len(dims) - len(values)
        else:
            unjudged.append(where)
    if not out:
        raise InputError(f"{path}: no human scores found" + (" (every judgment cell is blank)" if unjudged else ""))
    return Judgments(out, dims, column, ignored, tuple(unjudged), blank, empty)


def read_human(path: str | Path) -> HumanScores:
    """Human scores per (topic, system) (see :func:`read_judgments`)."""
    return read_judgments(path).values


def _key(row: dict, keys: Sequence[str], index: str | None, where: str) -> tuple:
    """The row's key: its key fields as text, then its line number (an int) when there is an index."""
    missing = [k for k in keys if row.get(k) is None or not str(row[k]).strip()]
    if missing:
        raise InputError(f"{where}: needs {_names(keys)} (missing {', '.join(missing)})")
    key = tuple(json_id(row[k], k, where) for k in keys)  # TSV cells are text; a JSON number is refused
    if index is None:
        return key
    try:
        return (*key, int(row[index]))
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{where}: {index} {row.get(index)!r} is not a line number") from None


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


def _names(keys: Sequence[str]) -> str:
    return " and ".join(map(repr, keys))


def _is_number(value: object) -> bool:
    """Whether a cell or field reads as a number (a column without one is not a judgment)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True


def _is_missing(value: object) -> bool:
    """Whether a cell holds no value: blank, ``null``, or the word ``error`` (a failed item's cell)."""
    return value is None or (isinstance(value, str) and value.strip().lower() in ("", "error"))


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


def _table_rows(path: Path, text: str, delimiter: str, keys: Sequence[str]) -> list[tuple[str, dict]]:
    """(file:line, row of stripped cells) per data row of a delimited file whose first row is the
    header, which must name ``keys``."""
    table = _records(path, text, delimiter)
    if not table:
        return []
    header = [h.strip() for h in table[0][1]]
    doubled = sorted({h for h in header if header.count(h) > 1})
    if doubled:
        raise InputError(f"{path}:1: column {', '.join(map(repr, doubled))} appears more than once in the header")
    absent = [k for k in keys if k not in header]
    if absent:
        columns = f"a {keys[0]!r} column" if len(keys) == 1 else f"{_names(keys)} columns"
        raise InputError(f"{path}:1: the header needs {columns} (missing "
                         f"{', '.join(absent)}; is the delimiter {'a tab' if delimiter == chr(9) else 'a comma'}?)")
    rows = []
    for k, cells in table[1:]:
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise InputError(f"{path}:{k}: {len(cells)} fields, the header has {len(header)}")
        rows.append((f"{path}:{k}", dict(zip(header, (c.strip() for c in cells)))))
    return rows


def _records(path: Path, text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """(line where the record starts, cells) per record of a delimited file. Records end at
    ``\n``, ``\r\n`` or ``\r`` only (as the csv module reads a file opened with ``newline=""``),
    never at the other characters ``str.splitlines`` takes for line ends (U+2028, NEL, form feed,
    U+001E): inside a cell they are text."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    out = []
    start = 1
    try:
        for cells in reader:
            out.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(f"{path}:{start}: not a readable {'TSV' if delimiter == chr(9) else 'CSV'} file "
                         f"({exc})") from None
    return out
