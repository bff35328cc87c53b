"""A leaderboard of metrics against one human dimension: each metric's statistic with its
resampled interval (and acc-eq's epsilon), ranked into significance clusters. What
``aesop-eval meta-evaluate`` prints; every field is described in docs/meta-evaluation.md."""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from evalcore.stats.clusters import rank_clusters
from evalcore.stats.compare import compare
from evalcore.stats.resampling import Estimate, estimate

#: the note of a lower-is-better metric's row
LOWER_FLAG = "lower-is-better: scores negated, so a positive value means agreement"


@dataclass(frozen=True)
class Settings:
    """How a leaderboard is computed (all of it goes into the JSON, so a run can be repeated)."""

    level: str = "system"
    statistic: str = "kendall-b"
    tie_calibration: bool = False
    epsilon: float = 0.0
    resample: str = "both"
    ci: str = "percentile"
    test: str = "perm-both"
    n_resamples: int = 1000
    seed: int = 0
    alpha: float = 0.05

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def leaderboard(metrics: Mapping[str, np.ndarray], human: np.ndarray, settings: Settings,
                lower: Collection[str] = ()) -> list[dict]:
    """One row per metric, best cluster first: name, ``lower_is_better``, the :class:`Estimate`
    fields, ``cluster`` (rank, None when undefined), ``cluster_head`` and ``p_vs_head`` (the test's
    p-value that the cluster's first metric beats this one). The metrics named in ``lower`` (lower
    is better: TER) are negated first, so a positive value means agreement for every metric; their
    rows say so in ``flags``."""
    s = settings
    metrics = {name: -x if name in lower else x for name, x in metrics.items()}
    estimates: dict[str, Estimate] = {
        name: estimate(x, human, s.level, s.statistic, tie_calibration=s.tie_calibration, epsilon=s.epsilon,
                       design=s.resample,
                       n_resamples=s.n_resamples, seed=s.seed, ci=s.ci, alpha=s.alpha)
        for name, x in metrics.items()}

    def p_value(a: str, b: str) -> float | None:
        return compare(metrics[a], metrics[b], human, s.level, s.statistic, s.test, n_samples=s.n_resamples,
                       seed=s.seed, design=s.resample, tie_calibration=s.tie_calibration,
                       epsilon=s.epsilon).p_value

    ranks = rank_clusters({n: e.value for n, e in estimates.items()}, p_value, s.alpha)
    rows = [{"metric": name, "lower_is_better": name in lower, **estimates[name].as_dict(), "cluster": r.rank,
             "cluster_head": r.head, "p_vs_head": r.p_value} for name, r in ranks.items()]
    for row in rows:
        if row["lower_is_better"]:
            row["flags"] = [LOWER_FLAG, *row["flags"]]
    return sorted(rows, key=lambda r: (r["cluster"] is None, r["cluster"] or 0, -(r["value"] or 0), r["metric"]))


def _number(v: float | None, digits: int = 4) -> str:
    return "undefined" if v is None else f"{v:.{digits}f}"


def text_rows(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of the plain table (and of the HTML one)."""
    headers = ["cluster", "metric", "value", "CI", "epsilon", "p vs head", "note"]
    out = []
    for r in rows:
        ci = "" if r["ci_low"] is None else f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}]"
        note = r["undefined"] or "; ".join(r["flags"])
        out.append(["-" if r["cluster"] is None else str(r["cluster"]), r["metric"], _number(r["value"]), ci,
                    "" if r["epsilon"] is None else f"{r['epsilon']:.6g}",
                    "" if r["p_vs_head"] is None else f"{r['p_vs_head']:.3f}", note])
    return headers, out


def to_html(title: str, rows: list[dict], notes: list[str], signatures: list[str]) -> str:
    """A standalone HTML page of the leaderboard (every text escaped)."""
    headers, cells = text_rows(rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>\n" for row in cells)
    extra = "".join(f"<p>{html.escape(n)}</p>\n" for n in notes)
    sigs = "".join(f"<li><code>{html.escape(s)}</code></li>" for s in signatures)
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>\n"
            f"<body><h1>{html.escape(title)}</h1>\n<table>\n<tr>{head}</tr>\n{body}</table>\n{extra}"
            f"<h2>Signatures</h2><ul>{sigs}</ul></body></html>\n")
