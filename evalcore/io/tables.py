"""Text tables: a plain aligned table (valid Markdown) and the correlation tables of
:mod:`evalcore.stats.correlation` results, shared by every package's reports and benchmarks."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

# Per grouping, the correlation whose CI a table shows, and the heading it gets.
HEADLINE = {"none": "kendall", "item": "spearman", "system": "kendall"}
GROUPING_TITLES = {"none": "all pairs (no grouping)", "item": "item level (per document, averaged)",
                   "system": "system level"}
SHORT = {"pearson": "r", "spearman": "ρ", "kendall": "τ"}


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain aligned text table (also valid Markdown: a ``|`` inside a cell is escaped)."""
    headers = [str(h).replace("|", "\\|") for h in headers]
    rows = [[str(c).replace("|", "\\|") for c in r] for r in rows]
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h)) for i, h in enumerate(headers)]

    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), sep, *(line(r) for r in rows)])


def interval(entry: dict, label: str = "") -> str:
    """A correlation entry's interval as tables show it: ``[label low, high]``, or ``[no interval]``
    where none is defined (one document to resample, no defined resample); `` !`` marks a flag."""
    low, high = entry.get("ci_low"), entry.get("ci_high")
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "[no interval] !"
    prefix = f"{label} " if label else ""
    return f"[{prefix}{low:.2f}, {high:.2f}]" + (" !" if entry.get("flags") else "")


def _cell(entry: dict, headline: str) -> str:
    parts = [f"{SHORT[k]} {entry[k]['value']:.3f}" for k in ("pearson", "spearman", "kendall")]
    return " · ".join(parts) + " " + interval(entry[headline], SHORT[headline])


def correlation_rows(correlations: Mapping) -> list[tuple[str, str, list[str], list[list[str]]]]:
    """Per grouping: (title, CI note, header, rows) with rows = metrics, columns = human
    dimensions, cells = r · ρ · τ with the 95% CI of the grouping's headline correlation
    (Spearman per item, Kendall per system or over all pairs); ``!`` marks a flagged interval.
    Shared by the Markdown tables and the HTML report."""
    out = []
    for grouping, by_dim in correlations.items():
        dims = list(by_dim)
        metrics = list(next(iter(by_dim.values())))
        head = HEADLINE[grouping]
        out.append((GROUPING_TITLES[grouping], f"CI: 95% bootstrap of {SHORT[head]}", ["metric", *dims],
                    [[m, *(_cell(by_dim[d][m], head) for d in dims)] for m in metrics]))
    return out


def _flag_notes(correlations: dict) -> list[str]:
    """One line per flagged interval: grouping, dimension, metric, correlation and the flag."""
    notes = []
    for grouping, by_dim in correlations.items():
        for dim, by_metric in by_dim.items():
            for metric, by_kind in by_metric.items():
                for kind, entry in by_kind.items():
                    notes += [f"- {grouping} / {dim} / {metric} / {kind}: {f}" for f in entry.get("flags", ())]
    return notes


def correlation_markdown(correlations: dict, significance: dict | None = None, title: str = "") -> str:
    """One table per grouping (see :func:`correlation_rows`), each followed by the significance
    shares when ``significance`` is given; flagged intervals are listed at the end."""
    out = []
    for grouping, (heading, ci_note, header, rows) in zip(correlations, correlation_rows(correlations)):
        head = HEADLINE[grouping]
        out.append(f"**{title}{heading}** ({ci_note})\n")
        out.append(table(header, rows))
        out.append("")
        if significance and grouping in significance:
            sig = significance[grouping]
            pairs = list(next(iter(sig.values())))
            out.append(f"Share of bootstrap resamples where A beats B ({SHORT[head]}, {GROUPING_TITLES[grouping]}):\n")
            dims = header[1:]
            out.append(table(["A>B", *dims], [[p, *(f"{sig[d][p][head]:.3f}" for d in dims)] for p in pairs]))
            out.append("")
    notes = _flag_notes(correlations)
    if notes:
        out += ["Flagged intervals (`!`):", *notes, ""]
    return "\n".join(out)
