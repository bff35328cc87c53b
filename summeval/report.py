"""Rendering scoring results: a text table for people, JSON, JSONL and TSV for programs.

Machine formats carry only data (strict JSON: a missing value is ``null``); where the signatures
go is the CLI convention's business (:func:`evalcore.cli.convention.emit`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from evalcore.cli.convention import jsonl_line, strict_json, tsv_cell
from evalcore.io.tables import table
from evalcore.metric import Signature
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


def system_record(s: SystemResult, n_topics: int) -> dict:
    """One system as JSON: means, ranks, the values the ranks compare (``rank_scores``) and, per
    metric, the topics it has a value for (``coverage``, of ``n_topics``)."""
    out: dict = {"system": s.system, "scores": s.scores, "rank": s.rank, "rank_scores": s.rank_scores,
                 "coverage": {n: f"{k}/{n_topics}" for n, k in s.coverage.items()},
                 "n_summaries": s.n_summaries, "n_errors": s.n_errors}
    if s.missing_topics:
        out["missing_topics"] = list(s.missing_topics)
    return out


def to_json(signatures: Mapping[str, Signature], summaries: Sequence[SummaryResult],
            systems: Sequence[SystemResult], rankings: Mapping[str, Ranking]) -> str:
    """``{"signature": {metric: {...}}, "summaries": [...], "systems": [...], "ranking": {...}}``."""
    return strict_json({
        "signature": {n: s.as_dict() for n, s in signatures.items()},
        "summaries": [summary_record(r) for r in summaries],
        "systems": [system_record(s, n_topics(rankings)) for s in systems],
        "ranking": {n: r.as_dict() for n, r in rankings.items()},
    }) + "\n"


def to_jsonl(summaries: Iterable[SummaryResult]) -> str:
    """One JSON object per summary (as in :func:`to_json`'s ``summaries``)."""
    return "".join(map(jsonl_row, summaries))


def jsonl_row(r: SummaryResult) -> str:
    """One summary's JSONL line, newline included."""
    return jsonl_line(summary_record(r)) + "\n"


def to_tsv(names: Sequence[str], summaries: Iterable[SummaryResult]) -> str:
    """One row per summary: topic, system, one column per metric (empty where it has no value),
    and ``errors`` (``metric: message``, joined by ``; ``)."""
    return tsv_head(names) + "".join(tsv_row(names, r) for r in summaries)


def tsv_head(names: Sequence[str]) -> str:
    """The header line of :func:`to_tsv`."""
    return "\t".join(["topic", "system", *names, "errors"]) + "\n"


def tsv_row(names: Sequence[str], r: SummaryResult) -> str:
    """One summary's TSV line, newline included."""
    errors = "; ".join(f"{n}: {m}" for n, m in r.errors.items())
    return "\t".join(tsv_cell(c) for c in [r.topic, r.system, *(r.scores.get(n) for n in names), errors]) + "\n"


def rank_cell(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def n_topics(rankings: Mapping[str, Ranking]) -> int:
    """Topics of the input (every ranking counts the same ones)."""
    return next(iter(rankings.values())).n_topics if rankings else 0


def shown_value(s: SystemResult, name: str) -> float:
    """The value a table shows: the one the rank compares, else (unranked) the system's mean."""
    return s.rank_scores[name] if s.rank[name] is not None else s.scores[name]


def shown_topics(s: SystemResult, name: str, ranking: Ranking) -> list[str]:
    """The topics :func:`shown_value` averages over."""
    topics = ranking.topics if s.rank[name] is not None else s.per_topic
    return [t for t in topics if name in s.per_topic.get(t, {})]


def score_intervals(systems: Sequence[SystemResult], rankings: Mapping[str, Ranking], n_boot: int = 1000,
                    seed: int = 0, alpha: float = 0.05) -> dict[str, dict[str, tuple[float, float]]]:
    """Per system and metric, the percentile bootstrap interval of :func:`shown_value` over its
    topics (resampled with replacement by :func:`evalcore.stats.correlation.resample_documents`)."""
    import numpy as np

    from evalcore.stats.correlation import percentile_bounds, resample_documents

    out: dict[str, dict[str, tuple[float, float]]] = {}
    for s in systems:
        out[s.system] = {}
        for name, ranking in rankings.items():
            values = np.array([s.per_topic[t][name] for t in shown_topics(s, name, ranking)])
            if values.size:
                means = values[resample_documents(values.size, n_boot, seed)].mean(axis=1)
                out[s.system][name] = percentile_bounds(means, alpha)
    return out


def metric_cell(s: SystemResult, name: str, n: int, interval: tuple[float, float] | None = None) -> str:
    """``value (rank)`` with the value the rank compares (and its interval, when given); an
    unranked system's mean with its coverage."""
    ci = f" [{interval[0]:.4f}, {interval[1]:.4f}]" if interval else ""
    if s.rank[name] is not None:
        return f"{shown_value(s, name):.4f}{ci} ({s.rank[name]})"
    return f"{shown_value(s, name):.4f}{ci} (-, {s.coverage[name]}/{n} topics)"


SYSTEM_HEAD = ("rank", "system", "topics")


def system_rows(names: Sequence[str], systems: Sequence[SystemResult], rankings: Mapping[str, Ranking],
                intervals: Mapping[str, Mapping[str, tuple[float, float]]] | None = None) -> list[list[str]]:
    """Rows of the per-system table: first metric's rank, system, topics with a summary, the value
    each rank compares (with its interval from :func:`score_intervals`, when given) and the rank
    per metric, summaries, errors."""
    n = n_topics(rankings)
    return [[rank_cell(s.rank[names[0]]), s.system, f"{n - len(s.missing_topics)}/{n}",
             *(metric_cell(s, name, n, (intervals or {}).get(s.system, {}).get(name)) for name in names),
             str(s.n_summaries), str(s.n_errors)]
            for s in systems]


def ranking_notes(names: Sequence[str], systems: Sequence[SystemResult], rankings: Mapping[str, Ranking]) -> list[str]:
    """Sentences saying which systems are not ranked and why, which topics no rank compares and
    why, what the values compare, and which metrics rank lower values first."""
    n = n_topics(rankings)
    notes = [f"{s.system} has no summary for {len(s.missing_topics)} of {n} topics ({', '.join(s.missing_topics)})"
             + (": not ranked" if all(s.rank[name] is None for name in names) else "")
             for s in systems if s.missing_topics]
    by = {s.system: s for s in systems}
    for name in names:
        r = rankings[name]
        if r.unscored:
            notes.append(f"{name}: no system has a value on {', '.join(r.unscored)} "
                         f"({'; '.join(r.unscored.values())}), so ranks and values compare the other "
                         f"{r.n_topics - len(r.unscored)} of {r.n_topics} topics")
        if r.rule == "shared" and len(r.topics) + len(r.unscored) < r.n_topics:
            notes.append(f"{name}: ranks and values compare the {len(r.topics)} of {r.n_topics} topics every ranked "
                         "system has (all-topic means: JSON \"scores\")")
        errored = [s for s in r.unranked if not by[s].missing_topics or r.rule == "shared"]
        if errored:
            notes.append(f"{name}: not ranked, a value missing on some of the {len(r.topics)} topics ranked: "
                         + ", ".join(f"{s} ({by[s].coverage[name]}/{n} topics)" for s in errored))
        if r.lower_is_better:
            notes.append(f"{name}: lower is better (rank 1 = lowest)")
    return notes


def to_text(names: Sequence[str], summaries: Sequence[SummaryResult], systems: Sequence[SystemResult],
            rankings: Mapping[str, Ranking]) -> str:
    """Human-readable report: per-summary table, per-system table with ranks, ranking notes and
    error records (the CLI prints the signatures after it)."""
    per_summary = table(["topic", "system", *names],
                        [[r.topic, r.system, *(f"{r.scores[n]:.4f}" if n in r.scores else "error" for n in names)]
                         for r in summaries])
    per_system = table([*SYSTEM_HEAD, *names, "summaries", "errors"], system_rows(names, systems, rankings))
    parts = ["Per summary", per_summary, "",
             f"Per system (ranked by {names[0]}; per metric the value the rank compares, rank in brackets)",
             per_system]
    notes = ranking_notes(names, systems, rankings)
    if notes:
        parts += ["", *notes]
    errors = [f"error: {r.name}: {n}: {m}" for r in summaries for n, m in r.errors.items()]
    if errors:
        parts += ["", *errors]
    return "\n".join(parts) + "\n"
