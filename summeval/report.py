"""Rendering scoring results as text tables, JSON or TSV."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from summeval.scoring import SummaryResult, SystemResult


def to_json(signatures: dict[str, str], summaries: Sequence[SummaryResult], systems: Sequence[SystemResult]) -> str:
    """``{"signature", "summaries": [...], "systems": [...]}``; error records carry ``error``,
    summaries with a metric's note (e.g. DICOMER on degenerate input) ``notes``."""
    doc = {
        "signature": signatures,
        "summaries": [
            {"topic": r.topic, "system": r.system, "scores": r.scores, **({"error": r.error} if r.error else {}),
             **({"notes": r.notes} if r.notes else {})}
            for r in summaries
        ],
        "systems": [
            {"system": s.system, "scores": _finite(s.scores), "rank": s.rank, "n_summaries": s.n_summaries,
             "n_errors": s.n_errors}
            for s in systems
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def _finite(scores: dict[str, float]) -> dict[str, float | None]:
    return {k: (None if math.isnan(v) else v) for k, v in scores.items()}


def to_tsv(names: Sequence[str], summaries: Sequence[SummaryResult]) -> str:
    """One row per summary: topic, system, one column per metric, error."""
    rows = ["\t".join(["topic", "system", *names, "error"])]
    for r in summaries:
        values = [f"{r.scores[n]:.6f}" if n in r.scores else "" for n in names]
        rows.append("\t".join([r.topic, r.system, *values, r.error or ""]))
    return "\n".join(rows) + "\n"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain aligned text table (also valid Markdown: a ``|`` inside a cell is escaped)."""
    headers = [str(h).replace("|", "\\|") for h in headers]
    rows = [[str(c).replace("|", "\\|") for c in r] for r in rows]
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(headers)]
    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), sep, *(line(r) for r in rows)])


def to_text(signatures: dict[str, str], names: Sequence[str], summaries: Sequence[SummaryResult],
            systems: Sequence[SystemResult]) -> str:
    """Human-readable report: per-summary table, per-system table with ranks, signatures."""
    per_summary = table(
        ["topic", "system", *names],
        [[r.topic, r.system, *([f"{r.scores[n]:.4f}" for n in names] if r.error is None else ["error"] * len(names))]
         for r in summaries],
    )
    per_system = table(
        ["rank", "system", *names, "n"],
        [[str(s.rank[names[0]]), s.system, *(f"{s.scores[n]:.4f} ({s.rank[n]})" for n in names),
          f"{s.n_summaries}" + (f" (+{s.n_errors} errors)" if s.n_errors else "")] for s in systems],
    )
    errors = [f"error: {r.error}" for r in summaries if r.error]
    sig = [f"{sig}" for sig in signatures.values()]
    parts = ["Per summary", per_summary, "", f"Per system (ranked by {names[0]}; rank per metric in brackets)",
             per_system, "", "Signatures", *sig]
    if errors:
        parts += ["", *errors]
    return "\n".join(parts) + "\n"
