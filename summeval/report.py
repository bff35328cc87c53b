"""Rendering scoring results: a text table for people, JSON, JSONL and TSV for programs.

Machine formats carry only data (strict JSON: a missing value is ``null``); where the signatures
go is the CLI convention's business (:func:`evalcore.cli.emit`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evalcore.cli import jsonl_line, strict_json, tsv_cell
from evalcore.metric import Signature
from evalcore.tables import table
from summeval.pipeline import Ranking, SummaryResult, SystemResult


def summary_record(r: SummaryResult) -> dict:
    """One summary as JSON: ``topic``, ``system``, ``scores`` (metric -> value), and where
    present ``errors`` (metric -> message), ``components`` and ``notes`` (metric -> list)."""
    out: dict = {"topic": r.topic, "system": r.system, "scores": r.scores}
    if r.errors:
        out["errors"] = r.errors
    if r.components:
        out["components"] = r.components
    if r.notes:
        out["notes"] = {k: list(v) for k, v in r.notes.items()}
    return out


def system_record(s: SystemResult) -> dict:
    out: dict = {"system": s.system, "scores": s.scores, "rank": s.rank, "n_summaries": s.n_summaries,
                 "n_errors": s.n_errors}
    if s.rank_scores:
        out["rank_scores"] = s.rank_scores
    if s.missing_topics:
        out["missing_topics"] = list(s.missing_topics)
    return out


def to_json(signatures: Mapping[str, Signature], summaries: Sequence[SummaryResult],
            systems: Sequence[SystemResult], rankings: Mapping[str, Ranking]) -> str:
    """``{"signature": {metric: {...}}, "summaries": [...], "systems": [...], "ranking": {...}}``."""
    return strict_json({
        "signature": {n: s.as_dict() for n, s in signatures.items()},
        "summaries": [summary_record(r) for r in summaries],
        "systems": [system_record(s) for s in systems],
        "ranking": {n: r.as_dict() for n, r in rankings.items()},
    }) + "\n"


def to_jsonl(summaries: Sequence[SummaryResult]) -> str:
    """One JSON object per summary (as in :func:`to_json`'s ``summaries``)."""
    return "".join(jsonl_line(summary_record(r)) + "\n" for r in summaries)


def to_tsv(names: Sequence[str], summaries: Sequence[SummaryResult]) -> str:
    """One row per summary: topic, system, one column per metric (empty where it has no value),
    and ``errors`` (``metric: message``, joined by ``; ``)."""
    rows = ["\t".join(["topic", "system", *names, "errors"])]
    for r in summaries:
        errors = "; ".join(f"{n}: {m}" for n, m in r.errors.items())
        rows.append("\t".join(tsv_cell(c) for c in [r.topic, r.system, *(r.scores.get(n) for n in names), errors]))
    return "\n".join(rows) + "\n"


def rank_cell(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def system_rows(names: Sequence[str], systems: Sequence[SystemResult]) -> list[list[str]]:
    """Rows of the per-system table: first metric's rank, system, ``mean (rank)`` per metric."""
    return [[rank_cell(s.rank[names[0]]), s.system + (" *" if s.missing_topics else ""),
             *(f"{s.scores[n]:.4f} ({rank_cell(s.rank[n])})" for n in names), str(s.n_summaries), str(s.n_errors)]
            for s in systems]


def ranking_notes(names: Sequence[str], systems: Sequence[SystemResult], rankings: Mapping[str, Ranking]) -> list[str]:
    """Sentences saying when ranks compare fewer topics than were scored, and who misses which."""
    notes = [f"* {s.system} has no summary for {len(s.missing_topics)} topic(s): {', '.join(s.missing_topics)}"
             for s in systems if s.missing_topics]
    for n in names:
        r = rankings[n]
        if len(r.topics) < r.n_topics or r.unranked:
            notes.append(f"{n}: ranks compare the {len(r.topics)} of {r.n_topics} topics every ranked system has"
                         + (f"; not ranked: {', '.join(r.unranked)}" if r.unranked else ""))
    return notes


def to_text(names: Sequence[str], summaries: Sequence[SummaryResult], systems: Sequence[SystemResult],
            rankings: Mapping[str, Ranking]) -> str:
    """Human-readable report: per-summary table, per-system table with ranks, ranking notes and
    error records (the CLI prints the signatures after it)."""
    per_summary = table(["topic", "system", *names],
                        [[r.topic, r.system, *(f"{r.scores[n]:.4f}" if n in r.scores else "error" for n in names)]
                         for r in summaries])
    per_system = table(["rank", "system", *names, "summaries", "errors"], system_rows(names, systems))
    parts = ["Per summary", per_summary, "", f"Per system (ranked by {names[0]}; rank per metric in brackets)",
             per_system]
    notes = ranking_notes(names, systems, rankings)
    if notes:
        parts += ["", *notes]
    errors = [f"error: {r.name}: {n}: {m}" for r in summaries for n, m in r.errors.items()]
    if errors:
        parts += ["", *errors]
    return "\n".join(parts) + "\n"
