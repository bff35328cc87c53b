"""RoSE (Liu et al. 2023, "Revisiting the Gold Standard") judgments and computed metric scores,
as the ``Salesforce/rose`` data set's records exported to JSON (a list) or JSON Lines.

A judgment record holds ``annotations``: {system: {protocol: score}} (``acu``,
``normalized_acu``, and on the protocol splits such as ``cnndm_protocol`` ``prior``, ``ref_free``
and ``ref_based``); every field of a system's annotations holding a number is a dimension (lists of per-unit labels
are not read). A metric record
(RoSE's ``computed_metrics/*.jsonl``) holds ``metric_scores``: {metric: {system: score}}. The
input is the record's ``example_id`` (or ``id``) when it has one, else its 1-based position, so
judgment and metric files of the same split line up. A value that is not a finite number, a
record without its object and a repeated input are errors naming ``file:line`` (or the record).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from evalcore.io.textfiles import InputError, jsonl_objects, read_text

Cells = dict[str, dict[tuple[str, str], float]]  # column -> {(system, input): value}
FIELDS = ("annotations", "metric_scores")


def records(path: str | Path) -> list[tuple[str, dict]]:
    """(where, record) of a JSON list or a JSON Lines file."""
    text = read_text(path)
    if text.lstrip().startswith("["):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
        if not all(isinstance(r, dict) for r in doc):
            raise InputError(f"{path}: a JSON list of records (objects) is expected")
        return [(f"{path}: record {k}", r) for k, r in enumerate(doc, 1)]
    return list(jsonl_objects(text, path))


def is_rose(path: str | Path) -> bool:
    """Whether the first record of a JSON/JSONL file is a RoSE judgment or metric record."""
    try:
        first = records(path)[:1]
    except InputError:
        return False
    return bool(first) and any(isinstance(first[0][1].get(f), dict) for f in FIELDS)


def _number(value: object, where: str, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InputError(f"{where}: {what} = {value!r} is not a finite number")
    return float(value)


def read_rose(path: str | Path) -> Cells:
    """{dimension or metric: {(system, input): value}} of a RoSE judgment or metric file."""
    out: Cells = {}
    seen: set[str] = set()
    for k, (where, record) in enumerate(records(path), 1):
        key = str(record.get("example_id", record.get("id", k)))
        if key in seen:
            raise InputError(f"{where}: input {key!r} appears twice")
        seen.add(key)
        if isinstance(record.get("annotations"), dict):
            for system, dims in record["annotations"].items():
                if not isinstance(dims, dict):
                    raise InputError(f"{where}: annotations of {system!r} must be an object of protocol -> score")
                for dim, value in dims.items():
                    if isinstance(value, (list, dict)):
                        continue  # per-unit labels (which ACUs matched), not a score
                    number = _number(value, where, f"{system} {dim}")
                    if number is not None:
                        out.setdefault(dim, {})[(str(system), key)] = number
        elif isinstance(record.get("metric_scores"), dict):
            for metric, by_system in record["metric_scores"].items():
                if not isinstance(by_system, dict):
                    raise InputError(f"{where}: metric_scores of {metric!r} must be an object of system -> score")
                for system, value in by_system.items():
                    number = _number(value, where, f"{metric} of {system}")
                    if number is not None:
                        out.setdefault(metric, {})[(str(system), key)] = number
        else:
            raise InputError(f"{where}: a RoSE record needs an \"annotations\" or a \"metric_scores\" object")
    if not out:
        raise InputError(f"{path}: no scores")
    return out
