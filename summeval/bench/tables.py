"""Markdown tables of correlation results (shared by `correlate` and the benchmarks)."""

from __future__ import annotations

from summeval.report import table

HEADLINE = {"summary": "spearman", "system": "kendall"}
SHORT = {"pearson": "r", "spearman": "ρ", "kendall": "τ"}


def _cell(entry: dict, headline: str) -> str:
    parts = [f"{SHORT[k]} {entry[k]['value']:.3f}" for k in ("pearson", "spearman", "kendall")]
    ci = entry[headline]
    return " · ".join(parts) + f" [{SHORT[headline]} {ci['ci_low']:.2f}, {ci['ci_high']:.2f}]"


def correlation_markdown(correlations: dict, significance: dict | None = None, title: str = "") -> str:
    """One table per level: rows = metrics, columns = human dimensions, cells = r · ρ · τ with the
    95% CI of the level's headline correlation (Spearman at summary, Kendall at system level)."""
    out = []
    for level, by_dim in correlations.items():
        dims = list(by_dim)
        metrics = list(next(iter(by_dim.values())))
        head = HEADLINE[level]
        out.append(f"**{title}{level} level** (CI: 95% bootstrap of {SHORT[head]})\n")
        out.append(table(["metric", *dims], [[m, *(_cell(by_dim[d][m], head) for d in dims)] for m in metrics]))
        out.append("")
        if significance and level in significance:
            sig = significance[level]
            pairs = list(next(iter(sig.values())))
            out.append(f"Share of bootstrap resamples where A beats B ({SHORT[head]}, {level} level):\n")
            out.append(table(["A>B", *dims], [[p, *(f"{sig[d][p][head]:.3f}" for d in dims)] for p in pairs]))
            out.append("")
    return "\n".join(out)
