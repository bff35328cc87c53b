"""`python -m benchmarks mteval-speed`: TESLA-M, TESLA-B and TESLA-F per segment, stage by stage (tagging, BTNG
matching, BPNG, LM) and end to end with references cached (as in tuning), against the only
published figure (TESLA-M added roughly 10-20 ms per candidate in Z-MERT tuning; spec 2.1), and
throughput ratios against sacrebleu's BLEU and chrF and nltk's METEOR on the same segments.

CPU seconds of this process, the least of three runs (:func:`benchmarks.mteval.tesla.cpu`), so other
load on the shared machine inflates them less than wall time. End to end, each run scores a
different system's outputs of the same segments (new candidates every run) after the references
were prepared once, as `mteval stream` prepares them. Writes ``speed.md`` and ``speed.json``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from benchmarks.harness import machine, machine_line, write_report
from benchmarks.mteval import tesla as tesla_bench
from benchmarks.mteval.tesla import PAPER_MS, cpu, wmt12_lines
from evalcore.io.tables import table
from evalcore.metric import Item, Metric

#: segments of the default run: the whole bench takes about 2-3 minutes on a loaded 2-core machine
DEFAULT_SEGMENTS = 500
METRICS = ("tesla-m", "tesla-b", "tesla-f")
BASELINES = ("bleu", "chrf", "meteor")
END_TO_END = "end to end, new candidates (references cached), per segment"


def cold_texts() -> None:
    """Forget every prepared text and its bags (WordNet look-ups stay warm, as in a tuning run)."""
    from mteval.lexical.preprocess import preparer
    from mteval.lexical.similarity import encode
    from mteval.tesla.btng import bags

    preparer("en").clear()
    encode.cache_clear()
    bags.cache_clear()


def end_to_end(metric: Metric, refs: Sequence[str], runs: Sequence[Sequence[str]]) -> float:
    """Least CPU seconds per segment over the runs (one system's outputs each, none seen
    before), references prepared beforehand by scoring each against itself."""
    cold_texts()
    metric.score_batch([Item(r, (r,), id=f"reference {k + 1}") for k, r in enumerate(refs)])
    best = float("inf")
    for outputs in runs:
        items = [Item(h, (r,), id=f"segment {k + 1}") for k, (r, h) in enumerate(zip(refs, outputs))]
        best = min(best, cpu(partial(metric.score_batch, items), repeats=1))
    return best / len(refs)


def pivot_stages(refs: Sequence[str], hyps: Sequence[str]) -> dict[str, float]:
    """CPU seconds per segment of TESLA-B/F's own stages: the pivot bags of reference and
    hypothesis from cold caches plus their F-measures (BPNG), and TESLA-F's two LM features."""
    from mteval.lexical.bpng_features import PivotFeatures
    from mteval.tesla.lm_features import LMFeatures, default_lms
    from mteval.tesla.metric import TeslaB

    tables = TeslaB().extractor.pivots.tables
    state: dict[str, PivotFeatures] = {}

    def fresh() -> None:
        state["pivots"] = PivotFeatures(tables)

    bpng = cpu(lambda: [state["pivots"].compute(r, h) for r, h in zip(refs, hyps)], fresh)
    lms = LMFeatures(default_lms())
    lms.compute(hyps[0])  # load both LMs
    lm = cpu(lambda: [lms.compute(h) for h in hyps])
    return {"bpng": bpng / len(refs), "lm": lm / len(refs), "pivots": len(tables)}


def run(out: Path, pair: str = "fr-en", count: int = DEFAULT_SEGMENTS, log: Callable[[str], None] = print) -> dict:
    """Time every stage on the first ``count`` segments of ``pair``; write the report into ``out``."""
    from evalcore.metric.registry import get_metric

    start = time.perf_counter()
    log(f"[bench speed] TESLA-M stages on {count} segments of WMT12 {pair}")
    m = tesla_bench.run(pair, count)
    refs, outputs = wmt12_lines(pair, count, systems=5)  # the TESLA-M stages used the first two
    log("[bench speed] BPNG and LM stages")
    pivots = pivot_stages(refs, outputs[0])
    end = {}
    for name in (*METRICS, *BASELINES):
        log(f"[bench speed] {name} end to end")
        metric = get_metric(name)
        metric.validate()
        end[name] = 1000 * end_to_end(metric, refs, outputs[2:])
    stages = m["ms_per_segment"]
    report = {"pair": pair, "segments": count, "tesla_m_stages_ms": stages, "lp_paths": m["lp_paths"],
              "tagging_ms_per_text": stages["prepare (tag + lemmatise), per text"],
              "btng_ms_per_segment": stages["encode (bags + WordNet synsets), per text"]
              + stages["matching + scoring (6 F), per segment and reference"],
              "bpng_ms_per_segment": 1000 * pivots["bpng"], "pivots": pivots["pivots"],
              "lm_ms_per_segment": 1000 * pivots["lm"], "end_to_end_ms": end,
              "paper_ms_per_candidate": PAPER_MS, "load_average": os.getloadavg(), "machine": machine(),
              "seconds": time.perf_counter() - start}
    md, _ = write_report(out, "speed", markdown(report), report)
    log(md.read_text("utf-8"))
    return report


def markdown(r: dict) -> str:
    """The report as Markdown: its heading, then :func:`tables`."""
    return (f"## TESLA speed (`python -m benchmarks mteval-speed`): WMT12 {r['pair']}, first {r['segments']} "
            f"segments, one reference\n\n{tables(r)}")


def tables(r: dict) -> str:
    """The report's tables, the matcher paths and the machine line (its JSON alone)."""
    low, high = r["paper_ms_per_candidate"]
    tag, btng, bpng, lm = r["tagging_ms_per_text"], r["btng_ms_per_segment"], r["bpng_ms_per_segment"], \
        r["lm_ms_per_segment"]
    own = {"tesla-m": ("-", "-"), "tesla-b": (f"{bpng:.3f}", "-"), "tesla-f": (f"{bpng:.3f}", f"{lm:.3f}")}
    end = r["end_to_end_ms"]
    rows = [[name, f"{tag:.3f}", f"{btng:.3f}", *own[name], f"{end[name]:.3f}",
             f"{low / end[name]:.1f}-{high / end[name]:.1f}x"] for name in METRICS]
    ratios = [[name, f"{end[name]:.3f}", *(f"{end[name] / end[b]:.1f}x" for b in BASELINES)] for name in METRICS]
    ratios += [[b, f"{end[b]:.3f}", *("" for _ in BASELINES)] for b in BASELINES]
    stage_rows = [[stage, f"{v:.3f}"] for stage, v in r["tesla_m_stages_ms"].items()]
    paths = ", ".join(f"{k} {v}" for k, v in r["lp_paths"].items())
    return "\n".join([
        "CPU ms, least of three runs; end to end = new candidates (another system's outputs each run), "
        "references prepared once beforehand, as in tuning.", "",
        table(["metric", "tagging, per text", "BTNG encode + match (6 F), per segment",
               f"BPNG ({r['pivots']} pivots), both sides cold, per segment", "LM (2), per segment",
               "end to end, per segment", "paper's 10-20 ms / this"], rows), "",
        table(["metric", "CPU ms per segment", *(f"/ {b}" for b in BASELINES)], ratios), "",
        "TESLA-M stage by stage (`python -m benchmarks tesla-m-speed`'s table):", "",
        table(["stage", "CPU ms"], stage_rows), "",
        f"s_ms LPs by matcher path: {paths}.", "",
        machine_line(r["machine"]) + " Load average after the run: "
        + ", ".join(f"{x:.1f}" for x in r["load_average"]) + f". Run time {r['seconds']:.0f} s.", ""])
