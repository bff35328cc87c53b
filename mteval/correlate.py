"""`mteval correlate`: a user's own human judgments against the scores of `mteval score`.

Judgments are a TSV/CSV file with a header: ``system``, a segment column (``line``, ``seg_id``
or ``segment``: 1-based line numbers) and one column per judgment -> segment-level
correlations (no grouping; per segment across systems; per system from segment means), via
:func:`evalcore.metaeval.correlation_table`. Without a segment column the judgments are
system scores -> system-level correlations of each metric's corpus score (as the metric
computes it: summed statistics for BLEU/chrF/TER), with CIs from resampling segments.
Metrics where lower is better (TER) are negated, so a positive correlation always means agreement.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.cli import strict_json
from evalcore.metaeval import correlation_table, matrices
from evalcore.metric import Score
from evalcore.metric.registry import get_metric
from evalcore.tables import correlation_markdown, table
from evalcore.textio import InputError, read_text
from mteval.metaeval import corpus_statistics, orientation, system_correlations

SEGMENT_COLUMNS = ("line", "seg_id", "segment")


@dataclass(frozen=True)
class Judgments:
    """Human judgments: (system, line) -> {dimension: value}, line None for system scores."""

    values: dict[tuple[str, int | None], dict[str, float]]
    dimensions: tuple[str, ...]
    segment_level: bool


def read_judgments(path: Path) -> Judgments:
    """Judgments from a TSV (``.tsv``) or CSV file; blank cells are missing judgments; anything
    else that is not a finite number is an InputError naming ``file:line`` and the column."""
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    rows = list(csv.reader(read_text(path).splitlines(), delimiter=delimiter))
    if not rows or "system" not in [h.strip() for h in rows[0]]:
        raise InputError(f"{path}:1: the header needs a 'system' column (is the delimiter "
                         f"{'a tab' if delimiter == chr(9) else 'a comma'}?)")
    header = [h.strip() for h in rows[0]]
    seg_col = next((c for c in SEGMENT_COLUMNS if c in header), None)
    dims = tuple(h for h in header if h not in ("system", seg_col))
    if not dims:
        raise InputError(f"{path}:1: no judgment column besides system{' and ' + seg_col if seg_col else ''}")
    values: dict[tuple[str, int | None], dict[str, float]] = {}
    for number, cells in enumerate(rows[1:], 2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise InputError(f"{path}:{number}: {len(cells)} fields, the header has {len(header)}")
        row = dict(zip(header, (c.strip() for c in cells)))
        line = None
        if seg_col:
            try:
                line = int(row[seg_col])
            except ValueError:
                raise InputError(f"{path}:{number}: {seg_col} {row[seg_col]!r} is not a line number") from None
        key = (row["system"], line)
        if key in values:
            raise InputError(f"{path}:{number}: a second row for system {key[0]!r}" + (f", line {line}" if seg_col else ""))
        values[key] = {d: _number(row[d], d, f"{path}:{number}") for d in dims if row[d]}
    if not values:
        raise InputError(f"{path}: no judgments found")
    return Judgments(values, dims, seg_col is not None)


def _number(text: str, column: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{where}: {column} = {text!r} is not a number (leave the cell empty for a missing "
                         "judgment)") from None
    if not math.isfinite(value):
        raise InputError(f"{where}: {column} = {text!r} is not a finite number")
    return value


def read_scored(path: Path) -> tuple[dict[str, dict[int, dict[str, Score]]], dict]:
    """{system: {line: {metric: Score}}} and the signatures of `mteval score --format json --segments`."""
    what = f"{path}: not a `mteval score --format json --segments` file"
    try:
        doc = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} (invalid JSON at line {exc.lineno}: {exc.msg})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("segments"), list):
        raise InputError(f"{what} (no \"segments\" list: score with --segments)")
    out: dict[str, dict[int, dict[str, Score]]] = {}
    for k, row in enumerate(doc["segments"], 1):
        try:
            system, line, scores = str(row["system"]), int(row["line"]), row["scores"]
            comps = row.get("components", {})
            out.setdefault(system, {})[line] = {m: Score(v, comps.get(m, {})) for m, v in scores.items()
                                                if v is not None}
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{what} (segment {k}: {type(exc).__name__}: {exc})") from None
    return out, doc.get("signature", {})


@dataclass(frozen=True)
class Rendered:
    text: str
    signatures: list[str]


def correlate_files(scores_path: Path, human_path: Path, fmt: str, n_boot: int, seed: int) -> Rendered:
    """Correlate the scores with the judgments; the rendered table or JSON and the signatures."""
    scored, signatures = read_scored(scores_path)
    human = read_judgments(human_path)
    shorts = [s["short"] if isinstance(s, dict) else str(s) for s in signatures.values()]
    names = sorted({m for lines in scored.values() for row in lines.values() for m in row})
    missing = sorted({s for s, _ in human.values} - set(scored))
    if missing:
        raise InputError(f"{human_path}: system {missing[0]!r} has no scores in {scores_path} "
                         f"(systems there: {', '.join(scored)})")
    if human.segment_level:
        result = _segment_level(scored, human, names, n_boot, seed)
        body = correlation_markdown(result["correlations"])
    else:
        result = _system_level(scored, human, names, n_boot, seed)
        rows = [[m, d, *(f"{c['value']:.3f} [{c['ci_low']:.2f}, {c['ci_high']:.2f}]" for c in by_kind.values())]
                for d, by_metric in result["correlations"].items() for m, by_kind in by_metric.items()]
        body = table(["metric", "judgment", "pearson", "spearman", "kendall"], rows) + "\n"
    note = (f"\n{result['segments']} segments x {result['systems']} systems; bootstrap {n_boot} resamples of "
            f"segments, seed {seed}\n")
    result["signature"] = signatures
    return Rendered(strict_json(result) + "\n" if fmt == "json" else body + note, shorts)


def _segment_level(scored, human: Judgments, names, n_boot: int, seed: int) -> dict:
    sign = {m: orientation(get_metric(m)) for m in names}
    records = {(str(line), system): {m: sign[m] * s.value for m, s in scored[system].get(line, {}).items()}
               for system, line in human.values}
    keys = [k for k in records if records[k]]
    if not keys:
        raise InputError("no judged (system, line) has scores: do the line numbers match the scored files?")
    lines = sorted({t for t, _ in keys}, key=int)
    systems = sorted({s for _, s in keys})
    metric_m = matrices(records, names, lines, systems)
    human_m = matrices({(str(line), s): v for (s, line), v in human.values.items()}, human.dimensions, lines, systems)
    corr = correlation_table(metric_m, human_m, n_boot, seed, groupings=("none", "item", "system"))
    return {"level": "segment", "segments": len(lines), "systems": len(systems), "correlations": corr}


def _system_level(scored, human: Judgments, names, n_boot: int, seed: int) -> dict:
    systems = sorted(s for s, _ in human.values)
    lines = sorted(set.intersection(*(set(scored[s]) for s in systems)))
    out: dict = {}
    for dim in human.dimensions:
        judged = [s for s in systems if dim in human.values[(s, None)]]
        h = np.array([[human.values[(s, None)][dim] for s in judged]])
        out[dim] = {}
        for name in names:
            stats = corpus_statistics(get_metric(name), [[scored[s][k].get(name) for k in lines] for s in judged])
            corr, _, _ = system_correlations(stats, np.repeat(h, len(lines), axis=0), np.ones((len(lines), len(judged))),
                                             n_boot, seed)
            out[dim][name] = {k: c.as_dict() for k, c in corr.items()}
    return {"level": "system", "segments": len(lines), "systems": len(systems), "correlations": out}
