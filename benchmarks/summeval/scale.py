"""`python -m benchmarks scale`: throughput on a large synthetic corpus, one process vs local worker
processes vs a Dask cluster running the unchanged batch function; and the peak memory of every
scoring command at 1x, 10x and 100x the items (:mod:`benchmarks.summeval.memory`).

The corpus is made from SummEval: each synthetic summary is three sentences drawn (seeded) from
the 16 system summaries of one of the 100 documents, scored against that document's first four
references, so the text statistics are those of real summaries.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from evalcore.data.records import SummaryItem
from evalcore.data.summeval import read_summeval
from evalcore.io.tables import table
from evalcore.metric.registry import build_metrics
from evalcore.resources.registry import shared_data_dir
from summeval.pipeline import score_items
from summeval.tesla_s.metric import clear_caches

DEFAULT_FILE = ("summeval", "summeval_16sys_mean_expert.json")
METRICS = ("tesla-s",)


def synthetic_corpus(data: Path, n_summaries: int, n_refs: int = 4, seed: int = 0) -> list[SummaryItem]:
    """``n_summaries`` summaries spread over SummEval's documents (see module docstring)."""
    rng = random.Random(seed)
    by_doc: dict[str, tuple[list[str], tuple[str, ...]]] = {}
    for item in read_summeval(data):
        sents, refs = by_doc.setdefault(item.topic, ([], item.references[:n_refs]))
        sents.extend(s for s in re.split(r"(?<=[.!?])\s+", item.summary) if s.strip())
    docs = sorted(by_doc)
    items = []
    for k in range(n_summaries):
        topic = docs[k % len(docs)]
        sents, refs = by_doc[topic]
        items.append(SummaryItem(topic, f"S{k // len(docs)}", " ".join(rng.sample(sents, 3)), refs, f"synthetic:{k}"))
    return items


def _throughput(label: str, workers: int, fn, items) -> dict:
    clear_caches()  # forked workers would otherwise inherit the previous run's bags
    start = time.perf_counter()
    results = fn(items)
    seconds = time.perf_counter() - start
    assert len(results) == len(items) and all(r.ok for r in results)
    return {"setting": label, "workers": workers, "seconds": seconds, "summaries_per_s": len(items) / seconds,
            "per_worker": len(items) / seconds / workers}


def run(data: Path | None, out: Path, n_summaries: int = 100_000, workers: int = 2, memory_base: int = 2_000,
        throughput: bool = True, packages: list[str] | None = None) -> dict:
    from benchmarks.summeval.memory import measure, memory_markdown

    data = data or shared_data_dir().joinpath(*DEFAULT_FILE)
    report: dict[str, Any] = {"data": str(data), "machine": machine()}
    md = ""
    if throughput:
        report.update(n_summaries=n_summaries, metrics=list(METRICS), references_per_summary=4,
                      runs=_throughput_runs(data, n_summaries, workers), peak_rss_mib=peak_rss_mib())
        md += f"## Scale: {n_summaries:,} synthetic summaries x 4 references, TESLA-S\n\n{runs_markdown(report)}\n"
    if memory_base:
        report["memory"] = {"base_items": memory_base,
                            "rows": measure(lambda n: synthetic_corpus(data, n), memory_base, packages)}
        md += ("\n" if md else "") + (f"## Peak memory at 1x, 10x and 100x the items\n\n"
               f"{machine_line(report['machine'])} Each command runs in its own process; the peak is its maximum "
               f"resident set size.\n\n{memory_markdown(report['memory'])}\n")
    write_report(out, "scale", md, report)
    print(md)
    return report


def _throughput_runs(data: Path, n_summaries: int, workers: int) -> list[dict]:
    from dask.distributed import Client, LocalCluster

    from summeval.distributed import score_items_dask

    items = synthetic_corpus(data, n_summaries)
    metrics = build_metrics(METRICS)
    rows = [_throughput("one process (score_items)", 1, lambda it: score_items(it, metrics), items),
            _throughput(f"--jobs {workers} (local processes)", workers,
                        lambda it: score_items(it, metrics, jobs=workers), items)]
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        rows.append(_throughput(f"Dask LocalCluster, {workers} workers", workers,
                                lambda it: score_items_dask(it, metrics, client=client), items))
    return rows


def runs_markdown(report: dict) -> str:
    """The machine line and the throughput table of a ``scale`` report (its JSON alone)."""
    return (f"{machine_line(report['machine'])} Peak RSS of the driver {report['peak_rss_mib']:.0f} MiB.\n\n"
            + table(["setting", "workers", "seconds", "summaries/s", "summaries/s per worker"],
                    [[r["setting"], str(r["workers"]), f"{r['seconds']:.1f}", f"{r['summaries_per_s']:.0f}",
                      f"{r['per_worker']:.0f}"] for r in report["runs"]]))
