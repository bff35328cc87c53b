"""What `parapeval score` writes: one row per input line (every metric's score or error record),
per-system means and ranks, rendered in the CLI convention's formats (:mod:`evalcore.cli.convention`):
table for people, JSON (with the signatures), JSONL and TSV (rows only)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from evalcore.cli.convention import jsonl_line, strict_json, tsv_cell
from evalcore.metric import Metric
from evalcore.metric.base import Result
from evalcore.metric.records import finite_or_none

#: components a table shows per metric (machine formats carry them all); others: every component
TABLE_COMPONENTS = {"pem": (("adequacy", "adequacy"), ("fluency", "fluency"), ("target_ngram_f1", "target F1"))}


@dataclass(frozen=True)
class Row:
    """One input line: its id, its system and each metric's result."""

    item: str
    system: str
    results: Mapping[str, Result]

    @property
    def failed(self) -> bool:
        return any(not r.ok for r in self.results.values())

    def as_dict(self) -> dict:
        return {"item": self.item, "system": self.system, **{m: r.as_dict() for m, r in self.results.items()}}


def system_summary(metric: Metric, rows: Sequence[Row]) -> list[dict]:
    """Per system: items scored, error records, the metric's mean value and components (its
    :meth:`~evalcore.metric.Metric.aggregate`), and the rank by mean value in the metric's
    orientation (:attr:`~evalcore.metric.Metric.lower_is_better`); systems without a
    single score come last, unranked, with no numbers."""
    scored: dict[str, list] = {}
    errors: dict[str, int] = {}
    for row in rows:
        result = row.results[metric.name]
        scored.setdefault(row.system, [])
        errors.setdefault(row.system, 0)
        if result.ok:
            scored[row.system].append(result)
        else:
            errors[row.system] += 1
    out = []
    for system in sorted(scored):
        scores = scored[system]
        entry: dict = {"system": system, "n": len(scores), "errors": errors[system], "value": None, "components": {}}
        if scores:
            agg = metric.aggregate(scores)
            entry["value"] = finite_or_none(agg.value)
            entry["components"] = {k: finite_or_none(v) for k, v in agg.components.items()}
        out.append(entry)
    sign = 1 if metric.lower_is_better else -1  # rank 1 = best in the metric's orientation
    ranked = sorted((e for e in out if e["value"] is not None), key=lambda e: (sign * e["value"], e["system"]))
    for rank, entry in enumerate(ranked, 1):
        entry["rank"] = rank
    return ranked + [e for e in out if e["value"] is None]


def _components(metric: str, rows: Sequence[Row]) -> list[str]:
    """Every component name of a metric's scores, in first-seen order."""
    names: dict[str, None] = {}
    for row in rows:
        result = row.results[metric]
        if result.ok:
            names.update(dict.fromkeys(result.components))
    return list(names)


def render_json(rows: Sequence[Row], metrics: Sequence[Metric], signatures: Mapping[str, dict]) -> str:
    """One strict JSON document: signatures, rows, per-system summaries, the failure count."""
    return strict_json({"signature": dict(signatures), "items": [r.as_dict() for r in rows],
                        "systems": {m.name: system_summary(m, rows) for m in metrics},
                        "failed_items": sum(r.failed for r in rows)}) + "\n"


def render_jsonl(rows: Sequence[Row]) -> str:
    """One JSON object per input line, nothing else."""
    return "".join(jsonl_line(r.as_dict()) + "\n" for r in rows)


def render_tsv(rows: Sequence[Row], metrics: Sequence[Metric]) -> str:
    """A header and one row per input line: ``<metric>``, ``<metric>.<component>``, notes, error."""
    columns: list[tuple[str, str, str]] = []  # (header, metric, field)
    for m in metrics:
        columns.append((m.name, m.name, "value"))
        columns += [(f"{m.name}.{c}", m.name, c) for c in _components(m.name, rows)]
        columns += [(f"{m.name}.notes", m.name, "notes"), (f"{m.name}.error", m.name, "error")]

    def cell(row: Row, metric: str, field: str) -> str:
        result = row.results[metric]
        if field == "error":
            return "" if result.ok else tsv_cell(result.message)
        if not result.ok:
            return ""
        if field == "notes":
            return tsv_cell("; ".join(result.notes))
        return tsv_cell(result.value if field == "value" else result.components.get(field))

    lines = ["\t".join(["item", "system", *(h for h, _, _ in columns)])]
    lines += ["\t".join([tsv_cell(r.item), tsv_cell(r.system), *(cell(r, m, f) for _, m, f in columns)]) for r in rows]
    return "\n".join(lines) + "\n"


def _num(value: float | None) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.4f}"


def _grid(header: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *body)]
    fmt = [(lambda s, w=w: s.rjust(w)) if k in right else (lambda s, w=w: s.ljust(w)) for k, w in enumerate(widths)]
    return ["  ".join(f(str(c)) for f, c in zip(fmt, line)).rstrip() for line in (header, *body)]


def render_table(rows: Sequence[Row], metrics: Sequence[Metric]) -> str:
    """Per-pair scores, then per metric the systems ranked by mean value (errors counted)."""
    out: list[str] = []
    for m in metrics:
        shown = TABLE_COMPONENTS.get(m.name) or [(c, c) for c in _components(m.name, rows)]
        header = ["item", "system", m.name.upper(), *(label for _, label in shown), "notes / error"]
        body = []
        for r in rows:
            res = r.results[m.name]
            if res.ok:
                body.append([r.item, r.system, _num(res.value), *(_num(res.components.get(c)) for c, _ in shown),
                             "; ".join(res.notes)])
            else:
                body.append([r.item, r.system, "-", *("-" for _ in shown), f"error: {res.message}"])
        out += _grid(header, body, set(range(2, 3 + len(shown))))
        out.append("")
        header = ["rank", "system", "n", "errors", m.name.upper(), *(label for _, label in shown)]
        body = [[str(e.get("rank", "-")), e["system"], str(e["n"]), str(e["errors"]), _num(e["value"]),
                 *(_num(e["components"].get(c)) for c, _ in shown)] for e in system_summary(m, rows)]
        out += _grid(header, body, {0, *range(2, 5 + len(shown))})
        out.append("")
    return "\n".join(out)
