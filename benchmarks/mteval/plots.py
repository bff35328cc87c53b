"""PNG plots of the judgment benches: segment-level Kendall per language pair with 95% CI error
bars, one marker per metric (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

import math
from pathlib import Path

#: (report section, entry path under a metric, y label) of each plotted correlation
PANELS = {
    "wmt12": (("metrics",), ("kendall_wmt12",), "segment Kendall tau, WMT12 variant"),
    "mqm": (("metrics",), ("without_refs", "segment_none", "kendall"), "segment Kendall tau-b, no grouping"),
}


def _entry(tree: dict, keys: tuple[str, ...]) -> dict:
    for key in keys:
        tree = tree.get(key, {}) if isinstance(tree, dict) else {}
    return tree


def kendall_plot(report: dict, section: str, path: Path) -> Path | None:
    """Plot ``report[section]`` (``wmt12`` or ``mqm``) into ``path``; None when it has no pair."""
    pairs = list(report.get(section, {}))
    if not pairs:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    prefix, keys, label = PANELS[section]
    metrics = list(report["speed"])
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(pairs) + 2), 4.0))
    width = 0.8 / max(1, len(metrics))
    for m, name in enumerate(metrics):
        xs, ys, lo, hi = [], [], [], []
        for p, pair in enumerate(pairs):
            e = _entry(report[section][pair], (*prefix, name, *keys))
            value = e.get("value")
            if value is None or not math.isfinite(value):
                continue
            low, high = e.get("ci_low", value), e.get("ci_high", value)
            xs.append(p - 0.4 + width * (m + 0.5))
            ys.append(value)
            lo.append(max(0.0, value - low) if math.isfinite(low) else 0.0)
            hi.append(max(0.0, high - value) if math.isfinite(high) else 0.0)
        if xs:
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=name)
    ax.set_xticks(range(len(pairs)), [p.removeprefix("mqm-") for p in pairs])
    ax.axhline(0.0, color="grey", linewidth=0.5)
    ax.set_ylabel(label)
    ax.set_title(f"{label} per pair (95% bootstrap CI)")
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
