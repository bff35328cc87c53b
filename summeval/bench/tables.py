"""Markdown tables of correlation results (shared by `correlate` and the benchmarks)."""

from __future__ import annotations

from summeval.report import table

HEADLINE = {"summary": "spearman", "system": "kendall"}
SHORT = {"pearson": "r", "spearman": "ρ", "kendall": "τ"}


def _cell(entry: dict, headline: str) -> str:
    parts = [f"{SHORT[k]} {entry[k]['value']:.3f}" for k in ("pearson", "spearman", "kendall")]
    ci = entry[headline]
    return " · ".join(parts) + f" [{SHORT[headline]} {ci['ci_low']:.2f}, {ci['ci_high']:.2f}]"


def correlation_rows(correlations: dict) -> list[tuple[str, str, list[str], list[list[str]]]]:
    """Per level: (level, CI note, header, rows) with rows = metrics, columns = human dimensions, cells =
    r · ρ · τ with the 95% CI of the level's headline correlation (Spearman at summary, Kendall at
    system level). Shared by the Markdown tables and the HTML report."""
    out = []
    for level, by_dim in correlations.items():
        dims = list(by_dim)
        metrics = list(next(iter(by_dim.values())))
        head = HEADLINE[level]
        out.append((level, f"CI: 95% bootstrap of {SHORT[head]}", ["metric", *dims],
                    [[m, *(_cell(by_dim[d][m], head) for d in dims)] for m in metrics]))
    return out


def correlation_markdown(correlations: dict, significance: dict | None = None, title: str = "") -> str:
    """One table per level (see :func:`correlation_rows`), each followed by the significance
    shares when ``significance`` is given."""
    out = []
    for level, ci_note, header, rows in correlation_rows(correlations):
        head = HEADLINE[level]
        out.append(f"**{title}{level} level** ({ci_note})\n")
        out.append(table(header, rows))
        out.append("")
        if significance and level in significance:
            sig = significance[level]
            pairs = list(next(iter(sig.values())))
            out.append(f"Share of bootstrap resamples where A beats B ({SHORT[head]}, {level} level):\n")
            dims = header[1:]
            out.append(table(["A>B", *dims], [[p, *(f"{sig[d][p][head]:.3f}" for d in dims)] for p in pairs]))
            out.append("")
    return "\n".join(out)
