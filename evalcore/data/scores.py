"""The JSON a ``score`` command writes, read back by every ``correlate`` command: one reader, so
that a malformed file gets the same kind of message (what is wrong, and in which row) whichever
package wrote it."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from evalcore.io.textfiles import InputError


@dataclass(frozen=True)
class ScoredRow:
    """One row of a score file: its metric values (null values left out) and their components."""

    scores: dict[str, float]
    components: dict[str, dict] = field(default_factory=dict)


def read_score_json(path: str | Path, command: str, rows: str, row: str, keys: Mapping[str, type],
                    hint: str = "") -> tuple[dict[tuple, ScoredRow], dict]:
    """Rows keyed by ``keys`` (field -> str or int) of the ``rows`` list (each one ``row``, for
    messages) of the JSON ``command`` wrote, and its signatures. A file of another shape, a row
    without its keys, a value that is not a finite number or a second row with the same key is an
    :class:`InputError` naming the row; ``hint`` says how to write a file with the ``rows`` list."""
    from evalcore.io.textfiles import read_input_text

    what = f"{path}: not a `{command}` file"
    try:
        doc = json.loads(read_input_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} (invalid JSON at line {exc.lineno}: {exc.msg})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(rows), list):
        raise InputError(f"{what} (no \"{rows}\" list{': ' + hint if hint else ''})")
    out: dict[tuple, ScoredRow] = {}
    for k, entry in enumerate(doc[rows], 1):
        where = f"{path}: {row} {k}"
        key = _key(entry, keys, where)
        values = entry.get("scores", {})
        if not isinstance(values, dict):
            raise InputError(f"{where}: \"scores\" must be an object of metric -> number")
        components = entry.get("components", {})
        if not isinstance(components, dict) or not all(isinstance(c, dict) for c in components.values()):
            raise InputError(f"{where}: \"components\" must be an object of metric -> object")
        clean = {}
        for name, v in values.items():
            if v is None:
                continue  # strict JSON's missing value
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise InputError(f"{where}: score {name} = {v!r} is not a finite number")
            clean[name] = float(v)
        if key in out:
            raise InputError(f"{where}: duplicate scores for " + ", ".join(
                f"{name} {value!r}" for name, value in zip(keys, key)))
        out[key] = ScoredRow(clean, {name: components[name] for name in clean if name in components})
    signatures = doc.get("signature")
    return out, signatures if isinstance(signatures, dict) else {}


def _key(row: object, keys: Mapping[str, type], where: str) -> tuple:
    """The row's key fields, as text (a number is accepted) or as a whole number."""
    names = " and ".join(f'"{k}"' for k in keys)
    if not isinstance(row, dict):
        raise InputError(f"{where}: needs {names}")
    key: list[str | int] = []
    for name, kind in keys.items():
        value = row.get(name)
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"{where}: needs {names} ({name} must be a whole number, got {value!r})")
            key.append(value)
        elif isinstance(value, bool) or not isinstance(value, (str, int)):
            raise InputError(f"{where}: needs {names}")
        else:
            key.append(str(value))
    return tuple(key)
