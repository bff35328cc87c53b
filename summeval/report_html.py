"""`summeval score --report DIR`: a self-contained HTML report plus the same content as Markdown.

Per-system table with ranks for every metric, per-topic details, and, when human scores are
given, system-level scatter plots of each metric against each human dimension and a bar chart of
the correlations (like figure 4 of the CREMER/DICOMER paper). Images are embedded as base64 PNG
so the HTML file can be mailed as it is.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from evalcore.metric import Signature
from evalcore.tables import table
from summeval.pipeline import Ranking, SummaryResult, SystemResult
from summeval.report import SYSTEM_HEAD, ranking_notes, system_rows


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _plots(names: Sequence[str], systems: Sequence[SystemResult], human: Mapping[str, Mapping[str, float]],
           correlations: Mapping) -> dict[str, str]:
    """Base64 PNGs: a grid of system-level scatter plots (one panel per human dimension and metric,
    points labelled by system) and a correlation bar chart (as the CREMER paper's figure 4)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dims = sorted({d for h in human.values() for d in h})
    panels = [(dim, name) for dim in dims for name in names]
    ncols = min(4, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols, 3.0 * nrows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, (dim, name) in zip(axes.flat, panels):
        pts = [(s.scores[name], human[s.system][dim], s.system) for s in systems
               if s.system in human and dim in human[s.system] and not np.isnan(s.scores[name])]
        if pts:
            xs, ys, labels = zip(*pts)
            ax.scatter(xs, ys, s=14)
            for x, y, label in zip(xs, ys, labels):
                ax.annotate(label, (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
        c = correlations["system"][dim][name]
        ax.set_title(f"r {c['pearson']['value']:.2f} · τ {c['kendall']['value']:.2f}", fontsize=8)
        ax.set_xlabel(name, fontsize=8)
        ax.set_ylabel(dim, fontsize=8)
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    out = {"scatter": _png(fig)}
    fig, ax = plt.subplots(figsize=(2.4 + 1.1 * len(dims) * max(1, len(names)) / 2, 3.2))
    width = 0.8 / max(1, len(names))
    for j, name in enumerate(names):
        vals = [correlations["system"][d][name]["pearson"]["value"] for d in dims]
        ax.bar(np.arange(len(dims)) + j * width, vals, width, label=name)
    ax.set_xticks(np.arange(len(dims)) + width * (len(names) - 1) / 2, dims)
    ax.set_ylabel("system-level Pearson r")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    out["bars"] = _png(fig)
    return out


def write_report(out: Path, signatures: Mapping[str, Signature], names: Sequence[str],
                 summaries: Sequence[SummaryResult], systems: Sequence[SystemResult], rankings: Mapping[str, Ranking],
                 human: Mapping[str, Mapping[str, float]] | None = None,
                 correlations: Mapping | None = None) -> tuple[Path, Path]:
    """Write ``report.html`` and ``report.md`` into ``out``; ``human`` = per-system human means."""
    out.mkdir(parents=True, exist_ok=True)
    sys_rows = system_rows(names, systems, rankings)
    sys_head = [*SYSTEM_HEAD, *names, "summaries", "errors"]
    notes = ranking_notes(names, systems, rankings)
    topics = sorted({r.topic for r in summaries})
    topic_tables = []
    for topic in topics:
        rows = [[r.system, *(f"{r.scores[n]:.4f}" if n in r.scores else f"error: {r.errors[n]}" for n in names)]
                for r in summaries if r.topic == topic]
        topic_tables.append((topic, ["system", *names], rows))
    plots = _plots(names, systems, human, correlations) if human and correlations else {}
    md = ["# Summary evaluation report", "", "## Systems (rank per metric in brackets)", "", table(sys_head, sys_rows), "",
          *(f"{n}  " for n in notes), *([""] if notes else [])]
    if correlations:
        from evalcore.tables import correlation_markdown

        md += ["## Correlation with human scores", "", correlation_markdown(correlations), ""]
    for name, alt in (("bars", "system-level correlation with human scores"), ("scatter", "system-level scatter plots")):
        if name in plots:  # the Markdown report links the same PNGs the HTML embeds
            (out / f"{name}.png").write_bytes(base64.b64decode(plots[name]))
            md += [f"![{alt}]({name}.png)", ""]
    md += ["## Per topic", ""]
    for topic, head, rows in topic_tables:
        md += [f"### {topic}", "", table(head, rows), ""]
    md += ["## Signatures", "", *(f"- `{s}`" for s in signatures.values()), ""]
    (out / "report.md").write_text("\n".join(md), "utf-8")
    (out / "report.html").write_text(_html(sys_head, sys_rows, notes, topic_tables, plots, signatures, correlations),
                                     "utf-8")
    return out / "report.html", out / "report.md"


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


def _html(sys_head, sys_rows, notes, topic_tables, plots, signatures, correlations) -> str:
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>Summary evaluation report</title>",
             "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse;"
             "margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th{background:#eee}"
             "details{margin:.3em 0}code{font-size:90%}</style></head><body>",
             "<h1>Summary evaluation report</h1><h2>Systems</h2><p>Rank per metric in brackets.</p>",
             _html_table(sys_head, sys_rows), *(f"<p>{html.escape(n)}</p>" for n in notes)]
    if plots:
        parts += ["<h2>Correlation with human scores (system level)</h2>",
                  f"<img alt='correlation bars' src='data:image/png;base64,{plots['bars']}'>",
                  f"<img alt='system-level scatter plots' src='data:image/png;base64,{plots['scatter']}'>"]
    if correlations:
        from evalcore.tables import correlation_rows

        for level, ci_note, header, rows in correlation_rows(correlations):
            parts += [f"<h3>{level}: Pearson r · Spearman ρ · Kendall τ ({ci_note})</h3>",
                      _html_table(header, rows)]
    parts.append("<h2>Per topic</h2>")
    for topic, head, rows in topic_tables:
        parts.append(f"<details><summary>{html.escape(topic)}</summary>{_html_table(head, rows)}</details>")
    parts += ["<h2>Signatures</h2><ul>", *(f"<li><code>{html.escape(str(s))}</code></li>" for s in signatures.values()),
              "</ul></body></html>"]
    return "\n".join(parts)
