"""`python -m benchmarks summeval`: TESLA-S vs ROUGE against SummEval's expert scores.

100 CNN/DM documents x 16 systems; relevance, coherence, consistency, fluency and their mean;
summary and system level; original reference only and all 11 references; bootstrap CIs over
documents; Koehn-style significance of TESLA-S vs ROUGE-2 and vs ROUGE-SU4; and the leaderboards
of `aesop-eval meta-evaluate` (intervals resampling systems and documents together, BOOT-BOTH;
significance clusters by PERM-BOTH) at both levels.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import machine, machine_line, write_report
from evalcore.data.summeval import DIMENSIONS, read_summeval
from evalcore.io.tables import correlation_markdown, table
from evalcore.metric.registry import build_metrics
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import correlation_table, matrices, significance_table
from evalcore.stats.leaderboard import Settings, leaderboard
from evalcore.text.preprocess import tokenize
from summeval.pipeline import score_items

METRICS = ("tesla-s", "tesla-s-pos", "rouge-1", "rouge-2", "rouge-l", "rouge-su4",
           "rouge-1-f", "rouge-2-f", "rouge-l-f")
PAIRS = (("tesla-s", "rouge-2"), ("tesla-s", "rouge-su4"))
HUMAN = (*DIMENSIONS, "mean")
#: the leaderboards' statistic per level: the headline correlation of each level's tables
LEADERBOARDS = {"system": "kendall-b", "item": "spearman"}
DEFAULT_FILE = ("summeval", "summeval_16sys_mean_expert.json")


def run(data: Path | None, out: Path, n_boot: int = 1000, seed: int = 0) -> dict:
    """Run the benchmark and write ``summeval.md``, ``summeval.json`` and a scatter PNG."""
    data = data or shared_data_dir().joinpath(*DEFAULT_FILE)
    metrics = build_metrics(METRICS)
    report: dict[str, Any] = {"data": str(data), "machine": machine(), "bootstrap": n_boot, "seed": seed,
              "signatures": {m.name: str(m.signature()) for m in metrics}, "settings": {}}
    sections, system_means = [], {}
    for refs in ("original", "all"):
        start = time.perf_counter()
        items = read_summeval(data, references=refs)
        results = score_items(items, metrics, progress=True)
        records = {(r.topic, r.system): {**r.scores, "length": float(len(tokenize(it.summary)))}
                   for r, it in zip(results, items)}
        human = {it.key: it.human for it in items}
        topics = sorted({it.topic for it in items})
        systems = sorted({it.system for it in items}, key=lambda s: int(s.lstrip("M")))
        names = [*METRICS, "length"]
        metric_m = matrices(records, names, topics, systems)
        human_m = matrices(human, HUMAN, topics, systems)
        corr = correlation_table(metric_m, human_m, n_boot, seed)
        sig = significance_table(metric_m, human_m, PAIRS, n_boot, seed)
        boards = leaderboards(metric_m, human_m, n_boot, seed)
        report["settings"][refs] = {"correlations": corr, "significance": sig, "leaderboards": boards,
                                    "seconds": time.perf_counter() - start,
                                    "n_documents": len(topics), "n_systems": len(systems)}
        label = "original reference only" if refs == "original" else "all 11 references"
        sections.append(f"### {label}\n\n" + setting_markdown(report, refs) + "\n\n"
                        + clusters_markdown(report, refs))
        system_means[refs] = (systems, {n: np.nanmean(m, axis=0) for n, m in {**metric_m, **human_m}.items()})
    _scatter(system_means["all"], out)
    md = _markdown(report, sections)
    write_report(out, "summeval", md, report)
    print(md)
    return report


def leaderboards(metric_m: dict[str, np.ndarray], human_m: dict[str, np.ndarray], n_boot: int,
                 seed: int) -> dict:
    """{level: {dimension: leaderboard rows}} with BOOT-BOTH intervals and PERM-BOTH clusters
    (the matrices are documents x systems; the statistics take systems x documents)."""
    out: dict = {}
    for level, statistic in LEADERBOARDS.items():
        settings = Settings(level, statistic, resample="both", test="perm-both", n_resamples=n_boot, seed=seed)
        out[level] = {dim: leaderboard({n: m.T for n, m in metric_m.items()}, h.T, settings)
                      for dim, h in human_m.items()}
    return out


def clusters_markdown(report: dict, refs: str) -> str:
    """The leaderboards of one reference setting (see :func:`clusters_table`)."""
    return clusters_table(report["settings"][refs]["leaderboards"])


def clusters_table(boards: dict) -> str:
    """Per level, each metric's statistic, its BOOT-BOTH interval and its cluster rank per dimension
    (``boards``: the output of :func:`leaderboards`)."""
    out = []
    for level, by_dim in boards.items():
        dims = list(by_dim)
        cell = {(r["metric"], d): r for d in dims for r in by_dim[d]}
        names = [r["metric"] for r in by_dim[dims[0]]]
        rows = []
        for name in sorted(names):
            cells = []
            for d in dims:
                r = cell[(name, d)]
                cells.append(r["undefined"] or f"{r['value']:.3f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}] "
                                               f"#{r['cluster']}")
            rows.append([name, *cells])
        statistic = LEADERBOARDS[level]
        out.append(f"**{level} level**: {statistic}, 95% BOOT-BOTH interval (systems and documents resampled "
                   f"together), `#k` = significance cluster (PERM-BOTH, one-sided, alpha 0.05)\n\n"
                   + table(["metric", *dims], rows) + "\n")
    return "\n".join(out)


def setting_markdown(report: dict, refs: str) -> str:
    """The correlation and significance tables of one reference setting (``original`` or ``all``)."""
    setting = report["settings"][refs]
    return correlation_markdown(setting["correlations"], setting["significance"])


def targets_table(report: dict) -> str:
    """The target table: system-level Kendall with relevance, TESLA-S vs ROUGE-2 and ROUGE-SU4."""
    rows = []
    for refs, setting in report["settings"].items():
        rel = setting["correlations"]["system"]["relevance"]
        t, r2, su = (rel[m]["kendall"]["value"] for m in ("tesla-s", "rouge-2", "rouge-su4"))
        rows.append([refs, f"{t:.3f}", f"{r2:.3f}", f"{su:.3f}", "met" if t >= max(r2, su) else "missed"])
    return table(["references", "TESLA-S τ", "ROUGE-2 τ", "ROUGE-SU4 τ", "target (TESLA-S ≥ both)"], rows)


def _markdown(report: dict, sections: list[str]) -> str:
    sigs = "\n".join(f"- `{s}`" for s in report["signatures"].values())
    return (
        "## SummEval: TESLA-S vs ROUGE\n\n"
        f"Data: `{report['data']}` (100 documents x 16 systems, mean of 3 expert scores). "
        f"Bootstrap: {report['bootstrap']} resamples of documents, seed {report['seed']}. "
        f"{machine_line(report['machine'])}\n\n"
        "Summary level = per-document correlation across systems, averaged over documents; "
        "system level = correlation of per-system means. `length` = summary length in tokens. "
        "ROUGE rows are recall unless marked `-f`.\n\n"
        "Target: system-level Kendall with relevance, TESLA-S vs ROUGE-2 and ROUGE-SU4 (same references):\n\n"
        f"{targets_table(report)}\n\n" + "\n".join(sections) + f"\nSignatures:\n{sigs}\n"
    )


def _scatter(means: tuple[list[str], dict[str, np.ndarray]], out: Path) -> None:
    """System-level scatter of TESLA-S and ROUGE-2 against relevance (all references)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    systems, values = means
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, name in zip(axes, ("tesla-s", "rouge-2")):
        ax.scatter(values[name], values["relevance"], color="tab:blue")
        for s, x, y in zip(systems, values[name], values["relevance"]):
            ax.annotate(s, (x, y), fontsize=7, xytext=(2, 2), textcoords="offset points")
        ax.set_xlabel(f"{name} (system mean, 11 references)")
        ax.set_ylabel("SummEval relevance (expert mean)")
        ax.set_title(f"{name} vs relevance, system level")
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    fig.savefig(out / "summeval_system_scatter.png", dpi=110)
    plt.close(fig)
