"""`summeval score --report DIR`: a self-contained HTML report plus the same content as Markdown.

Per-system table (the value each rank compares, its 95% bootstrap interval over topics, the rank)
for every metric, per-topic details, and, when human scores are given, the correlations per
level, each under its own heading: system level with its bar chart and scatter plots (intervals
on both), then item level. Images are embedded as base64 PNG and scale to the page; tables sort
by a click on a column heading (a small inline script, no network); long signatures wrap. The
HTML file can be mailed as it is.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.tables import table
from evalcore.metric import Signature
from summeval.pipeline import Ranking, SummaryResult, SystemResult
from summeval.report import SYSTEM_HEAD, ranking_notes, score_intervals, shown_value, system_rows

CSS = ("body{font-family:sans-serif;max-width:1280px;margin:2em auto;padding:0 1em;line-height:1.35}"
       "img{display:block;max-width:100%;height:auto;margin:.5em 0}"
       ".wide{max-width:100%;overflow-x:auto}table{border-collapse:collapse;margin:.5em 0}"
       "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right;vertical-align:top}th{background:#eee}"
       "table.sortable th{cursor:pointer;user-select:none}table.sortable th[aria-sort=ascending]::after{content:' ▲'}"
       "table.sortable th[aria-sort=descending]::after{content:' ▼'}"
       "figure{margin:1em 0}figcaption{font-size:90%;color:#444}small{color:#555;white-space:nowrap}"
       "details{margin:.3em 0}"
       "li,code,p{overflow-wrap:anywhere}code{font-size:90%}")

# Click a heading: rows sort by the cells' data-sort numbers (cells without one last), else by text.
SORT_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th) {
    th.tabIndex = 0;
    var sort = function () {
      var body = table.tBodies[0], col = th.cellIndex;
      var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      var key = function (row) {
        var cell = row.cells[col], n = parseFloat(cell.getAttribute('data-sort'));
        return isNaN(n) ? [1, cell.textContent.trim()] : [0, n];
      };
      Array.from(body.rows).map(function (row) { return [key(row), row]; }).sort(function (a, b) {
        if (a[0][0] !== b[0][0]) return a[0][0] - b[0][0];
        if (a[0][0] === 0) return dir * (a[0][1] - b[0][1]);
        return dir * a[0][1].localeCompare(b[0][1], undefined, {numeric: true});
      }).forEach(function (pair) { body.appendChild(pair[1]); });
    };
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
  });
});
"""


@dataclass(frozen=True)
class Cell:
    """An HTML table cell: its text, the number it sorts by (None: sorts after numbers, by text)
    and a second, smaller line (an interval)."""

    text: str
    sort: float | None = None
    note: str = ""


def _system_cells(names: Sequence[str], systems: Sequence[SystemResult], rankings: Mapping[str, Ranking],
                  intervals: Mapping[str, Mapping[str, tuple[float, float]]]) -> list[list[Cell]]:
    """The systems table for HTML: the value each rank compares over its interval, rank in brackets;
    unranked values sort after the ranked ones."""
    n = next(iter(rankings.values())).n_topics if rankings else 0
    rows = []
    for s in systems:
        first = s.rank[names[0]]
        cells = [Cell("-" if first is None else str(first), first), Cell(s.system),
                 Cell(f"{n - len(s.missing_topics)}/{n}", n - len(s.missing_topics))]
        for name in names:
            value, ci = shown_value(s, name), intervals.get(s.system, {}).get(name)
            rank = f"({s.rank[name]})" if s.rank[name] is not None else f"(-, {s.coverage[name]}/{n} topics)"
            comparable = s.rank[name] is not None  # an unranked value sorts after the ranked ones
            cells.append(Cell(f"{value:.4f} {rank}", value if comparable else None,
                              f"[{ci[0]:.4f}, {ci[1]:.4f}]" if ci else ""))
        rows.append([*cells, Cell(str(s.n_summaries), s.n_summaries), Cell(str(s.n_errors), s.n_errors)])
    return rows


def write_report(out: Path, signatures: Mapping[str, Signature], names: Sequence[str],
                 summaries: Sequence[SummaryResult], systems: Sequence[SystemResult], rankings: Mapping[str, Ranking],
                 human: Mapping[str, Mapping[str, float]] | None = None,
                 correlations: Mapping | None = None,
                 clusters: Mapping[str, list[dict]] | None = None) -> tuple[Path, Path]:
    """Write ``report.html`` and ``report.md`` into ``out``; ``human`` = per-system human means;
    ``clusters``: per human dimension, the leaderboard rows of :mod:`evalcore.stats.leaderboard`."""
    from summeval import report_plots

    out.mkdir(parents=True, exist_ok=True)
    intervals = score_intervals(systems, rankings)
    sys_head = [*SYSTEM_HEAD, *names, "summaries", "errors"]
    notes = ranking_notes(names, systems, rankings)
    topics = sorted({r.topic for r in summaries})
    topic_tables = []
    for topic in topics:
        rows = [[Cell(r.system), *(Cell(f"{r.scores[n]:.4f}", r.scores[n]) if n in r.scores
                                   else Cell(f"error: {r.errors[n]}") for n in names)]
                for r in summaries if r.topic == topic]
        topic_tables.append((topic, ["system", *names], rows))
    plots = {}
    if human and correlations and "system" in correlations:
        points = {n: {s.system: (shown_value(s, n), *intervals[s.system].get(n, (float("nan"),) * 2))
                      for s in systems} for n in names}
        plots = {"bars": report_plots.bars(names, correlations),
                 "scatter": report_plots.scatter(names, points, human, correlations)}
    md = _markdown(out, sys_head, system_rows(names, systems, rankings, intervals), notes, topic_tables, plots,
                   signatures, correlations, clusters)
    (out / "report.md").write_text(md, "utf-8")
    (out / "report.html").write_text(_html(sys_head, _system_cells(names, systems, rankings, intervals), notes,
                                           topic_tables, plots, signatures, correlations, clusters), "utf-8")
    return out / "report.html", out / "report.md"


PLOT_ALT = {"bars": "system-level correlation with human scores", "scatter": "system-level scatter plots"}
PLOT_NOTE = {"bars": "System-level Pearson r per metric and human dimension; whiskers: 95% bootstrap interval "
                     "over topics.",
             "scatter": "Each system's metric value (whiskers: its 95% bootstrap interval over topics) against its "
                        "mean human score; titles: Pearson r [95% interval] and Kendall τ. A label that would "
                        "overlap another is left out: the systems table lists every system."}
SYSTEMS_NOTE = ("Per metric: the value the rank compares, its 95% bootstrap interval over topics, and the rank in "
                "brackets (-: not ranked, with the topics it has a value for). Click a heading to sort.")


def _levels(correlations: Mapping | None) -> list[tuple[str, str, str, list[str], list[list[str]]]]:
    """(grouping, title, CI note, header, rows) per correlation level, system level first."""
    if not correlations:
        return []
    from evalcore.io.tables import correlation_rows

    levels = list(zip(correlations, correlation_rows(correlations)))
    levels.sort(key=lambda lv: lv[0] != "system")
    return [(grouping, *rest) for grouping, rest in levels]


CLUSTERS_NOTE = ("System-level Kendall τ-b per human dimension, its 95% interval from resampling systems and topics "
                 "together (BOOT-BOTH), and its significance cluster (PERM-BOTH, one-sided, alpha 0.05): a metric "
                 "joins the cluster of the best metric above it unless that one is significantly better.")


def _cluster_tables(clusters: Mapping[str, list[dict]] | None) -> list[tuple[str, list[str], list[list[str]]]]:
    """(dimension, header, rows) of each dimension's leaderboard."""
    from evalcore.stats.leaderboard import text_rows

    return [(dim, *text_rows(rows)) for dim, rows in (clusters or {}).items()]


def _markdown(out: Path, sys_head, sys_rows, notes, topic_tables, plots, signatures, correlations,
              clusters=None) -> str:
    md = ["# Summary evaluation report", "", "## Systems", "", SYSTEMS_NOTE.replace(" Click a heading to sort.", ""),
          "", table(sys_head, sys_rows), "", *(f"{n}  " for n in notes), *([""] if notes else [])]
    if correlations:
        md += ["## Correlation with human scores", ""]
    for grouping, title, ci_note, header, rows in _levels(correlations):
        md += [f"### {title[0].upper()}{title[1:]}", "", f"Pearson r · Spearman ρ · Kendall τ ({ci_note})", "",
               table(header, rows), ""]
        if grouping == "system":
            for name in ("bars", "scatter"):
                if name in plots:  # the Markdown report links the same PNGs the HTML embeds
                    (out / f"{name}.png").write_bytes(base64.b64decode(plots[name]))
                    md += [f"![{PLOT_ALT[name]}]({name}.png)", "", PLOT_NOTE[name], ""]
    if clusters:
        md += ["## Significance clusters", "", CLUSTERS_NOTE, ""]
    for dim, header, rows in _cluster_tables(clusters):
        md += [f"### {dim}", "", table(header, rows), ""]
    md += ["## Per topic", ""]
    for topic, head, rows in topic_tables:
        md += [f"### {topic}", "", table(head, [[c.text for c in r] for r in rows]), ""]
    md += ["## Signatures", "", *(f"- `{s}`" for s in signatures.values()), ""]
    return "\n".join(md)


def _td(cell: Cell) -> str:
    sort = f" data-sort='{cell.sort!r}'" if cell.sort is not None else ""
    note = f"<br><small>{html.escape(cell.note)}</small>" if cell.note else ""
    return f"<td{sort}>{html.escape(cell.text)}{note}</td>"


def _html_table(head: Sequence[str], rows: Sequence[Sequence[Cell]], label: str) -> str:
    """A sortable table in a horizontally scrolling box (wide tables never widen the page)."""
    th = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(_td(c) for c in r) + "</tr>" for r in rows)
    return (f"<div class='wide'><table class='sortable' aria-label='{html.escape(label, quote=True)}'>"
            f"<thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table></div>")


def _correlation_cells(grouping: str, header: Sequence[str], rows: Sequence[Sequence[str]],
                       correlations: Mapping) -> list[list[Cell]]:
    """Correlation rows with each cell sorting by its Pearson r."""
    by_dim = correlations[grouping]
    return [[Cell(row[0]), *(Cell(text, by_dim[dim][row[0]]["pearson"]["value"])
                             for dim, text in zip(header[1:], row[1:]))] for row in rows]


def _html(sys_head, sys_cells, notes, topic_tables, plots, signatures, correlations, clusters=None) -> str:
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             "<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>Summary evaluation report</title><style>{CSS}</style></head><body>",
             "<h1>Summary evaluation report</h1>", "<h2 id='systems'>Systems</h2>",
             f"<p>{html.escape(SYSTEMS_NOTE)}</p>",
             _html_table(sys_head, sys_cells, "systems"), *(f"<p>{html.escape(n)}</p>" for n in notes)]
    if correlations:
        parts.append("<h2 id='correlations'>Correlation with human scores</h2>")
    for grouping, title, ci_note, header, rows in _levels(correlations):
        parts += [f"<h3 id='corr-{html.escape(grouping)}'>{html.escape(title[0].upper() + title[1:])}</h3>",
                  f"<p>Pearson r · Spearman ρ · Kendall τ ({html.escape(ci_note)})</p>",
                  _html_table(header, _correlation_cells(grouping, header, rows, correlations), title)]
        if grouping == "system":
            parts += [f"<figure><img alt='{html.escape(PLOT_ALT[name], quote=True)}' "
                      f"src='data:image/png;base64,{plots[name]}'><figcaption>{html.escape(PLOT_NOTE[name])}"
                      "</figcaption></figure>" for name in ("bars", "scatter") if name in plots]
    if clusters:
        parts += ["<h2 id='clusters'>Significance clusters</h2>", f"<p>{html.escape(CLUSTERS_NOTE)}</p>"]
    for dim, header, rows in _cluster_tables(clusters):
        parts += [f"<h3>{html.escape(dim)}</h3>", _html_table(header, [[Cell(c) for c in r] for r in rows], dim)]
    parts.append("<h2 id='topics'>Per topic</h2>")
    for topic, head, rows in topic_tables:
        parts.append(f"<details><summary>{html.escape(topic)}</summary>{_html_table(head, rows, topic)}</details>")
    parts += ["<h2 id='signatures'>Signatures</h2><ul>",
              *(f"<li><code>{html.escape(str(s))}</code></li>" for s in signatures.values()),
              f"</ul><script>{SORT_SCRIPT}</script></body></html>"]
    return "\n".join(parts)
