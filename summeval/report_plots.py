"""The report's figures: system-level scatter plots of each metric against each human dimension
and a bar chart of the correlations (as figure 4 of the CREMER/DICOMER paper), with intervals.

Figures are at most :data:`MAX_WIDTH_IN` inches wide (1,000 pixels at 100 dpi) so they fit the
report's column; point labels are placed where they overlap nothing (:func:`place_labels`).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping, Sequence

import numpy as np

from evalcore.extras import require
from evalcore.io.tables import interval

MAX_WIDTH_IN = 10.0
DPI = 100
#: label offsets in points, tried in order: near the point first, then further out
OFFSETS = tuple((dx * r, dy * r) for r in (1, 2.5, 4.5)
                for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1), (1.4, 0), (-1.4, 0), (0, 1.4), (0, -1.4)))
POINT_HALF_PX = 3.0  # half the side of the box a marker occupies


def png(fig) -> str:
    """The figure as base64 PNG (cropped to what it draws, legends included); closes it."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.05)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def place_labels(ax, xs: Sequence[float], ys: Sequence[float], labels: Sequence[str], fontsize: float = 6) -> list:
    """Annotate points at the first of :data:`OFFSETS` where the label stays inside the axes and
    overlaps no placed label and no other point; a label with no free spot is left out (the
    systems table lists every system). Call once the layout is final. Returns the placed texts."""
    renderer = ax.figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    points = ax.transData.transform(np.column_stack([xs, ys]))
    taken: list = []
    placed = []
    for k, ((x, y), label) in enumerate(zip(zip(xs, ys), labels)):
        others = np.delete(points, k, axis=0)
        for dx, dy in OFFSETS:
            text = ax.annotate(label, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                               ha="left" if dx > 0 else "right" if dx < 0 else "center",
                               va="bottom" if dy > 0 else "top" if dy < 0 else "center")
            box = text.get_window_extent(renderer)
            inside = frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
            ox, oy = others[:, 0], others[:, 1]
            hits_point = bool(np.any((ox + POINT_HALF_PX > box.x0) & (ox - POINT_HALF_PX < box.x1)
                                     & (oy + POINT_HALF_PX > box.y0) & (oy - POINT_HALF_PX < box.y1)))
            if inside and not hits_point and not any(box.overlaps(t) for t in taken):
                taken.append(box)
                placed.append(text)
                break
            text.remove()
    return placed


def _pyplot():
    require("report", "the report's plots")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def scatter(names: Sequence[str], points: Mapping[str, Mapping[str, tuple[float, float, float]]],
            human: Mapping[str, Mapping[str, float]], correlations: Mapping) -> str:
    """One panel per human dimension and metric: each system's metric value (``points``: metric
    -> system -> (value, low, high)) with its interval against its human mean; the title gives
    Pearson r with its interval and Kendall τ."""
    plt = _pyplot()
    dims = sorted({d for h in human.values() for d in h})
    panels = [(dim, name) for dim in dims for name in names]
    ncols = min(3, len(panels))
    nrows = -(-len(panels) // ncols)
    width = min(MAX_WIDTH_IN, 3.3 * ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, width / ncols * 0.9 * nrows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    drawn = []
    for ax, (dim, name) in zip(axes.flat, panels):
        pts = [(v, lo, hi, human[s][dim], s) for s, (v, lo, hi) in points[name].items()
               if s in human and dim in human[s] and not np.isnan(v)]
        c = correlations["system"][dim][name]
        r, tau = c["pearson"], c["kendall"]
        ax.set_title(f"r {r['value']:.2f} {interval(r)} · τ {tau['value']:.2f}", fontsize=8)
        ax.set_xlabel(name, fontsize=8)
        ax.set_ylabel(dim, fontsize=8)
        ax.tick_params(labelsize=7)
        if pts:
            xs, lows, highs, ys, labels = zip(*pts)
            err = np.clip([np.subtract(xs, lows), np.subtract(highs, xs)], 0, None)
            ax.errorbar(xs, ys, xerr=err, fmt="o", markersize=3.5, elinewidth=0.7, capsize=1.5, alpha=0.85)
            ax.margins(0.12)
            drawn.append((ax, xs, ys, labels))
    fig.tight_layout()
    for ax, xs, ys, labels in drawn:  # after the layout: labels are placed in final coordinates
        place_labels(ax, xs, ys, [label[:12] for label in labels])
    return png(fig)


def bars(names: Sequence[str], correlations: Mapping) -> str:
    """System-level Pearson r per human dimension and metric with its bootstrap interval; the
    legend sits under the chart, inside the image."""
    plt = _pyplot()
    dims = sorted(correlations["system"])
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH_IN, 3.0 + 0.45 * len(dims) * max(1, len(names))), 3.4))
    width = 0.8 / max(1, len(names))
    for j, name in enumerate(names):
        cells = [correlations["system"][d][name]["pearson"] for d in dims]
        vals = np.array([c["value"] for c in cells])
        err = np.clip([vals - [c["ci_low"] for c in cells], np.array([c["ci_high"] for c in cells]) - vals], 0, None)
        ax.bar(np.arange(len(dims)) + j * width, vals, width, yerr=err, capsize=2, label=name,
               error_kw={"elinewidth": 0.8})
    ax.set_xticks(np.arange(len(dims)) + width * (len(names) - 1) / 2, dims)
    ax.set_ylabel("system-level Pearson r (95% CI)")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=min(5, max(1, len(names))),
              frameon=False)
    fig.tight_layout()
    return png(fig)
