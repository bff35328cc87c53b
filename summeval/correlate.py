"""Correlating metric scores with human scores: matrices, levels, CIs and paired significance.

Builds (documents x systems) matrices from per-summary records and runs the shared statistics
of :mod:`evalcore.metaeval` on them.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from evalcore.metaeval import CORRELATIONS, LEVELS, correlate_with_ci, paired_significance, resample_documents
from evalcore.textio import InputError, read_utf8

Records = Mapping[tuple[str, str], Mapping[str, float]]  # (topic, system) -> {name: value}


def matrices(records: Records, names: Sequence[str], topics: Sequence[str], systems: Sequence[str]) -> dict[str, np.ndarray]:
    """One (topics x systems) matrix per name; NaN where a summary or a score is missing."""
    t_index = {t: i for i, t in enumerate(topics)}
    s_index = {s: j for j, s in enumerate(systems)}
    out = {n: np.full((len(topics), len(systems)), np.nan) for n in names}
    for (topic, system), values in records.items():
        if topic in t_index and system in s_index:
            for n in names:
                v = values.get(n)
                if v is not None and not math.isnan(v):
                    out[n][t_index[topic], s_index[system]] = v
    return out


def correlation_table(metric_m: Mapping[str, np.ndarray], human_m: Mapping[str, np.ndarray],
                      n_boot: int = 1000, seed: int = 0, levels: Sequence[str] = LEVELS) -> dict:
    """{level: {dimension: {metric: {correlation: {value, ci_low, ci_high}}}}}."""
    n_docs = next(iter(human_m.values())).shape[0]
    resamples = resample_documents(n_docs, n_boot, seed)
    return {
        level: {
            dim: {name: {kind: correlate_with_ci(m, h, level, kind, resamples).as_dict() for kind in CORRELATIONS}
                  for name, m in metric_m.items()}
            for dim, h in human_m.items()
        }
        for level in levels
    }


def significance_table(metric_m: Mapping[str, np.ndarray], human_m: Mapping[str, np.ndarray],
                       pairs: Sequence[tuple[str, str]], n_boot: int = 1000, seed: int = 0,
                       levels: Sequence[str] = LEVELS) -> dict:
    """{level: {dimension: {"a>b": {correlation: share of resamples a beats b}}}}."""
    n_docs = next(iter(human_m.values())).shape[0]
    resamples = resample_documents(n_docs, n_boot, seed)
    return {
        level: {
            dim: {f"{a}>{b}": {kind: paired_significance(metric_m[a], metric_m[b], h, level, kind, resamples)
                               for kind in CORRELATIONS}
                  for a, b in pairs}
            for dim, h in human_m.items()
        }
        for level in levels
    }


def read_human(path: str | Path) -> dict[tuple[str, str], dict[str, float]]:
    """Human scores per (topic, system) from JSONL (flat fields or a ``human`` object) or TSV/CSV
    with a header row containing ``topic`` and ``system``."""
    path = Path(path)
    text = read_utf8(path)
    out: dict[tuple[str, str], dict[str, float]] = {}
    if path.suffix in (".tsv", ".csv"):
        rows = list(csv.DictReader(text.splitlines(), delimiter="\t" if path.suffix == ".tsv" else ","))
        origin = [f"{path}:{k + 2}" for k in range(len(rows))]
    else:
        rows, origin = [], []
        for k, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"{path}:{k}: invalid JSON ({exc.msg})") from None
                rows.append({**obj.pop("human", {}), **obj})
                origin.append(f"{path}:{k}")
    for row, where in zip(rows, origin):
        if "topic" not in row or "system" not in row:
            raise InputError(f"{where}: needs 'topic' and 'system'")
        key = (str(row["topic"]), str(row["system"]))
        values = {}
        for name, value in row.items():
            if name in ("topic", "system", "summary", "references"):
                continue
            if value is None or (isinstance(value, str) and not value.strip()):
                continue  # a blank cell: this summary was not judged on that dimension
            try:
                values[name] = float(value)
            except (TypeError, ValueError):
                raise InputError(f"{where}: {name} = {value!r} is not a number (leave the cell empty "
                                 "for a missing judgment)") from None
        if key in out:
            raise InputError(f"{where}: duplicate human scores for topic {key[0]!r}, system {key[1]!r}")
        out[key] = values
    if not out:
        raise InputError(f"{path}: no human scores found")
    return out
