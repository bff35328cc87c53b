"""The segment-level tables the trained metrics' cross-validated reports share (TESLA-F, BEER):
Kendall's tau in both WMT12 variants per pair and averaged with bootstrap CIs, and the share of
resamples in which the trained metric beats each other row."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from evalcore.io.runinfo import machine, machine_line, write_report
from evalcore.io.tables import table
from evalcore.metric import Item, Metric
from mteval.data.wmt12 import comparisons
from mteval.learn.ranked import RankedSet
from mteval.metaeval import KendallCounts, average_kendall, kendall_beats, kendall_counts, wmt12_kendall

VARIANTS = {"wmt12": "Kendall's tau, WMT12 variant (metric ties penalised)",
            "no-ties": "Kendall's tau, metric ties excluded"}


def ranked_set_header(root, data: RankedSet, folds: int, n_boot: int, seed: int, max_segments: int) -> dict:
    """What every cross-validated report on WMT12 rankings records first: data, machine, folds,
    bootstrap, seed and the size of the ranked set."""
    return {"data": str(root), "machine": machine(), "folds": folds, "bootstrap": n_boot, "seed": seed,
            "max_segments": max_segments, "outputs": len(data.keys), "rankings": len(data.rankings),
            "segments": len({k[1] for k in data.keys}), "unreadable": data.unreadable}


def ranked_set_line(report: dict, pairs: Sequence[str]) -> str:
    """The opening of every such report's description: the ranked set's size and sample."""
    sample = f"a seeded sample of {report['max_segments']}" if report["max_segments"] else "all"
    return (f"{report['outputs']} ranked outputs, {report['rankings']} rankings, {report['segments']} segments of "
            f"{', '.join(pairs)} ({sample} ranked segments)")


def kendall_report(root: Path, data: RankedSet, rows: Mapping[str, np.ndarray], main: str, beats_key: str,
                   metrics: Iterable[Metric], folds: int, n_boot: int, seed: int, max_segments: int,
                   **extra) -> tuple[dict, list[str]]:
    """The report every cross-validated run on the WMT12 rankings writes: the ranked set's header,
    ``extra`` fields, Kendall per row with CIs, ``main``'s wins over each other row (under
    ``beats_key``) and the metrics' signatures; with the language pairs, in order."""
    counts = {label: kendall_by_pair(data, values) for label, values in rows.items()}
    report = {**ranked_set_header(root, data, folds, n_boot, seed, max_segments), **extra,
              "kendall": kendall_entries(counts, n_boot, seed), beats_key: beats(counts, main, n_boot, seed),
              "signatures": {m.name: str(m.signature()) for m in metrics}}
    return report, list(counts[main])


def publish(out: Path, stem: str, report: dict, started: float, render: Callable[[dict], str],
            log: Callable[[str], None]) -> dict:
    """Stamp the run time on ``report``, write it as ``stem``.md (``render``'s Markdown) and .json
    into ``out``, log the Markdown, and return the report."""
    report["seconds"] = time.perf_counter() - started
    md = render(report)
    write_report(out, stem, md, report)
    log(md)
    return report


def cv_intro(title: str, report: dict, pairs: Sequence[str], rows: str, pooled_average: bool = True) -> list[str]:
    """A report's heading and its first paragraph: the ranked set, what its rows are (``rows``),
    the bootstrap, the machine and the run time."""
    average = "; the average's CI from the mean of the pairs' resamples" if pooled_average else ""
    return [f"## {title}", "",
            f"{ranked_set_line(report, pairs)}{rows} 95% bootstrap CIs from {report['bootstrap']} resamples of "
            f"segments{average}. {machine_line(report['machine'])} Run time {report['seconds']:.0f} s.", ""]


def baseline_scores(metric: Metric, data: RankedSet) -> np.ndarray:
    """A baseline's segment scores of every output (NaN where it fails: counted as unscored)."""
    results = metric.score_batch([Item(hyp, refs) for refs, hyp in data.items])
    return np.array([r.value if r.ok else np.nan for r in results])


def kendall_by_pair(data: RankedSet, values: np.ndarray) -> dict[str, KendallCounts]:
    """Agreement counts with the human preferences, per language pair."""
    out = {}
    for pair in dict.fromkeys(k[0] for k in data.keys):
        scores = {(k[1], k[2]): float(v) for k, v in zip(data.keys, values) if k[0] == pair and not np.isnan(v)}
        out[pair] = kendall_counts(comparisons(r for r in data.rankings if r.pair == pair), scores)
    return out


def kendall_entries(counts: dict[str, dict[str, KendallCounts]], n_boot: int, seed: int) -> dict:
    """row -> variant -> pair (and "average") -> tau with its bootstrap CI."""
    return {label: {v: {**{p: wmt12_kendall(c, v, n_boot, seed).as_dict() for p, c in by_pair.items()},
                        "average": average_kendall(by_pair, v, n_boot, seed).as_dict()} for v in VARIANTS}
            for label, by_pair in counts.items()}


def beats(counts: dict[str, dict[str, KendallCounts]], main: str, n_boot: int, seed: int) -> dict:
    """other row -> variant -> pair -> share of segment resamples in which ``main`` has the higher tau."""
    pairs = list(counts[main])
    return {other: {v: {p: kendall_beats(counts[main][p], counts[other][p], v, n_boot, seed) for p in pairs}
                    for v in VARIANTS} for other in counts if other != main}


def _cell(entry: dict) -> str:
    return f"{entry['value']:.3f} [{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]"


def kendall_markdown(kendall: dict, won: dict, pairs: Sequence[str], main: str) -> list[str]:
    """Markdown lines: one Kendall table per variant, then the share-of-resamples table."""
    out: list[str] = []
    for v, title in VARIANTS.items():
        out += [f"### {title}", "",
                table(["metric", *pairs, "average"],
                      [[label, *(_cell(k[v][p]) for p in [*pairs, "average"])] for label, k in kendall.items()]),
                ""]
    out += [f"### Share of resamples in which cross-validated {main} beats the row (WMT12 variant / ties excluded)", "",
            table(["row", *pairs], [[other, *(f"{b['wmt12'][p]:.3f} / {b['no-ties'][p]:.3f}" for p in pairs)]
                                    for other, b in won.items()]), ""]
    return out
