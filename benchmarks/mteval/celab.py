"""TESLA-CELAB on newstest2021 en-zh (29 systems, references A and B), baselines in the same run,
and the speed of its LP against the transport path.

There are no Chinese-target human judgments here, so the tables report agreement, not accuracy:
system rankings (reference B scored as one more "system" against reference A), and system- and
segment-level Pearson and Kendall between TESLA-CELAB and character BLEU (sacrebleu ``zh`` and
``char`` tokenisers), chrF, TESLA-CELAB without Cilin and the word-level TESLA-M baseline, with
bootstrap CIs over segments (seeded). Speed: segments per second of every metric (each timed
alone), and per (segment, system) the LP's size and HiGHS time against the plain matching (the
same nodes and edges without coverage) on the shared matcher's transport path.

Run with ``python -m benchmarks celab --out DIR [--segments N]``.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from benchmarks.mteval.celab_words import WordTeslaM
from benchmarks.mteval.wmt import Scored, sample_segments, score_pair
from evalcore.io.tables import table
from evalcore.matching import match
from evalcore.matching.covered import solve_covered
from evalcore.metric import Metric
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import correlate, correlation_rows, resample_documents
from mteval.baselines.metric import Bleu, Chrf
from mteval.celab.metric import TeslaCelab
from mteval.data.mqm import newstest_testset

PAIR = "en-zh"
_LATIN = re.compile("[A-Za-z]")
_HAN = re.compile("[\u4e00-\u9fff]")
#: seeded sample of segments the default run scores (0 = all 1,002): 30 "systems" x 500 segments
#: = 15,000 items per metric keeps the whole run near 10 minutes on a loaded 2-core machine
DEFAULT_SEGMENTS = 500
#: (segment, system) pairs whose LPs are timed one by one
SPEED_SAMPLE = 300
STUDIED = ("tesla-celab", "tesla-celab-nocilin", "tesla-m-zh-words")
BASELINES = ("bleu-zh", "bleu-char", "chrf")
REFERENCE_B = "ref-B"
#: the LP timings of a (segment, system) pair the LP table reports, in milliseconds
TIMED_LPS = ("covered LP, HiGHS", "plain matching, match(auto)", "plain matching, match(highs)")


def metrics() -> dict[str, Metric]:
    """Every metric of the run under its table label."""
    return {"tesla-celab": TeslaCelab(), "tesla-celab-nocilin": TeslaCelab(synonyms="none"),
            "tesla-m-zh-words": WordTeslaM(), "bleu-zh": Bleu(tokenize="zh"), "bleu-char": Bleu(tokenize="char"),
            "chrf": Chrf()}


def _matrix(scored: Scored, segments: Sequence[int], systems: Sequence[str]) -> np.ndarray:
    """(segments x systems) segment values, NaN where an item failed."""
    return np.array([[scored.scores[s, y].value if (s, y) in scored.scores else np.nan for y in systems]
                     for s in segments])


def _corpus(metric: Metric, scored: Scored, segments: Sequence[int], system: str) -> float:
    """The metric's own corpus score (mean of segments; BLEU and chrF from summed statistics)."""
    return metric.aggregate([scored.scores[s, system] for s in segments if (s, system) in scored.scores]).value


def rankings(corpus: dict[str, dict[str, float]], systems: Sequence[str]) -> list[list[str]]:
    """Rows: system, then per metric its corpus score and rank (1 = best), by TESLA-CELAB."""
    ranks = {m: {y: r + 1 for r, y in enumerate(sorted(systems, key=lambda y: -corpus[m][y]))} for m in corpus}
    order = sorted(systems, key=lambda y: ranks["tesla-celab"][y])
    return [[y, *(f"{corpus[m][y]:.4f} ({ranks[m][y]})" for m in corpus)] for y in order]


def latin_rank_shift(testset, segments: Sequence[int], systems: Sequence[str], corpus: dict) -> dict:
    """Per system, the share of Latin letters among letters of its scored output, and Spearman's
    rho between it and the ranks a system loses under TESLA-CELAB against chrF (``char`` BLEU
    and chrF count every Latin letter, TESLA-CELAB's units a whole Latin word once)."""
    share = {}
    for y in systems:
        text = "".join(testset.systems[y].lines[s - 1] or "" for s in segments)
        latin = len(_LATIN.findall(text))
        share[y] = latin / max(1, latin + len(_HAN.findall(text)))
    rank = {m: {y: r for r, y in enumerate(sorted(systems, key=lambda y: -corpus[m][y]))}
            for m in ("tesla-celab", "chrf")}
    shift = {y: rank["tesla-celab"][y] - rank["chrf"][y] for y in systems}
    rho = correlation_rows(np.array([[share[y] for y in systems]]), np.array([[shift[y] for y in systems]]),
                           "spearman")[0]
    return {"latin_share": share, "ranks_lost_vs_chrf": shift, "spearman": float(rho)}


def agreement(values: dict[str, np.ndarray], n_boot: int, seed: int) -> dict:
    """Pearson and Kendall between each studied metric and each other metric, over all
    (segment, system) cells and over system means, with bootstrap CIs over segments."""
    resamples = resample_documents(next(iter(values.values())).shape[0], n_boot, seed)
    out: dict = {}
    for a in STUDIED:
        for b in values:
            if b == a or (b in STUDIED and STUDIED.index(b) < STUDIED.index(a)):
                continue
            out[f"{a}~{b}"] = {g: {k: correlate(values[a], values[b], g, k, resamples).as_dict()
                                   for k in ("pearson", "kendall")}
                               for g in ("none", "system")}
    return out


#: the solves timed per (segment, system): the covered LP, and the plain matching (same nodes
#: and edges, unit capacities, no coverage) on the matcher's own path and on HiGHS
SOLVES = {
    "covered LP, HiGHS": lambda problem, sim: solve_covered(problem),
    "plain matching, match(auto)": lambda problem, sim: match(np.ones(sim.shape[0]), np.ones(sim.shape[1]), sim),
    "plain matching, match(highs)": lambda problem, sim: match(np.ones(sim.shape[0]), np.ones(sim.shape[1]), sim,
                                                               "highs"),
}


def lp_speed(celab: TeslaCelab, testset, items: Sequence[tuple[int, str]], rounds: int = 3) -> dict:
    """Per (segment, system) against reference A: sizes of the covered LP and of the plain
    matching's transport problem, and the median over ``rounds`` of each solve's time."""
    ref = testset.references[0]
    rows = []
    for s, system in items:
        problem = celab.problem(celab.side(ref.lines[s - 1]), celab.side(testset.systems[system].lines[s - 1]))
        sim = np.zeros((len(problem.ref_spans), len(problem.cand_spans)))
        sim[problem.edges[:, 0], problem.edges[:, 1]] = 1.0
        times: dict[str, list[float]] = {label: [] for label in SOLVES}
        for _ in range(rounds):
            for label, solve in SOLVES.items():
                start = time.process_time()
                solve(problem, sim)
                times[label].append(time.process_time() - start)
        lp = solve_covered(problem)
        rows.append({"nodes": sum(sim.shape), "edges": len(problem.edges), "variables": lp.n_variables,
                     "constraints": lp.n_constraints, "nonzeros": lp.n_nonzeros, "transport_cells": sim.size,
                     **{label: float(np.median(t)) for label, t in times.items()}})
    return {"pairs": len(rows), "rounds": rounds, "rows": rows}


def _stats(values: Sequence[float], scale: float = 1.0, digits: int = 1) -> list[str]:
    v = np.asarray(values, dtype=float) * scale
    return [f"{np.mean(v):.{digits}f}", f"{np.median(v):.{digits}f}", f"{np.percentile(v, 90):.{digits}f}",
            f"{np.max(v):.{digits}f}"]


def _ci(entry: dict) -> str:
    """Value [CI]; "!" where the interval carries a flag (the point estimate outside it)."""
    mark = " !" if entry.get("flags") else ""
    return f"{entry['value']:.3f} [{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]{mark}"


def sections(report: dict) -> dict[str, tuple[str, str]]:
    """The report's parts as {key: (heading, Markdown body)}, in order: what ``celab.md`` prints
    and what the docs' generated regions (``benchmarks.render``) show, from the JSON alone."""
    labels = list(report["corpus"])
    cells = [(g, k) for g in ("none", "system") for k in ("pearson", "kendall")]
    agreement = [[pair.replace("~", " vs "), *(_ci(e[g][k]) for g, k in cells)]
                 for pair, e in report["agreement"].items()]
    lp = report["lp"]
    rows = lp["rows"]
    return {
        "setup": ("", f"{report['n_segments']} of {report['n_lines']} segments (seeded sample, seed {report['seed']}); "
                      f"{len(report['systems'])} systems plus reference B as `{REFERENCE_B}`, all against reference A; "
                      f"bootstrap {report['bootstrap']} resamples of segments. {machine_line(report['machine'])}"),
        "ranking": ("System scores and ranks (rank in brackets; corpus BLEU/chrF from summed statistics, "
                    "the others = mean of segments)",
                    table(["system", *labels], report["ranking_rows"]) + "\n\n"
                    f"Ranks a system loses under TESLA-CELAB against chrF vs the share of Latin letters in its output "
                    f"(29 systems): Spearman {report['latin']['spearman']:.2f}."),
        "agreement": ("Agreement of the LP metrics with the baselines and with each other",
                      "Segment level = all (segment, system) cells of the 29 systems (no grouping); system level = "
                      "the 29 system means of segment scores (sentence BLEU for BLEU). 95% percentile bootstrap CIs; "
                      "\"!\": the point estimate lies outside its interval (skewed resamples; flags in the JSON).\n\n"
                      + table(["pair", "segment r", "segment τ", "system r", "system τ"], agreement)),
        "reference-b": ("Reference B scored against reference A",
                        table(["metric", "ref-B score", "rank among 30", "best system", "best score"],
                              [[m, f"{report['corpus'][m][REFERENCE_B]:.4f}", str(report["reference_b_rank"][m]),
                                report["best"][m], f"{report['corpus'][m][report['best'][m]]:.4f}"] for m in labels])),
        "speed": ("Speed (each metric timed alone over every item, one process; wall time depends on the "
                  "machine's load, CPU time less so; the first LP metric includes loading Cilin, the word-level "
                  "one loading jieba)",
                  table(["metric", "items", "wall s", "CPU s", "segments/s (wall)", "segments/CPU-s"],
                        [[m, str(s["items"]), f"{s['seconds']:.1f}", f"{s['cpu_seconds']:.1f}",
                          f"{s['segments_per_second']:.1f}", f"{s['segments_per_cpu_second']:.1f}"]
                         for m, s in report["speed"].items()])),
        "lp": (f"LP size and time per (segment, system), reference A ({lp['pairs']} seeded pairs, "
               f"CPU time, median of {lp['rounds']} runs each)",
               table(["quantity", "mean", "median", "p90", "max"],
                     [[k, *_stats([r[k] for r in rows], digits=0)]
                      for k in ("nodes", "edges", "variables", "constraints", "nonzeros", "transport_cells")]
                     + [[f"{k} (ms)", *_stats([r[k] for r in rows], 1000, 2)] for k in TIMED_LPS])),
        "signatures": ("", "\n".join(f"- `{s}`" for s in report["signatures"].values())),
    }


def markdown(report: dict) -> str:
    """The whole report: the title, the run's setup and one section per table."""
    parts = sections(report)
    lines = [f"## TESLA-CELAB on newstest2021 {PAIR}", "", parts["setup"][1], ""]
    for key in ("ranking", "agreement", "reference-b", "speed", "lp"):
        heading, body = parts[key]
        lines += [f"### {heading}", "", body, ""]
    return "\n".join(lines)


def run(out: Path, data: Path | None = None, n_segments: int = DEFAULT_SEGMENTS, n_boot: int = 1000, seed: int = 0,
        speed_sample: int = SPEED_SAMPLE, log: Callable[[str], None] = print) -> dict:
    """Score, correlate and time; write ``celab.md`` and ``celab.json`` into ``out``."""
    root = (data or shared_data_dir()) / "mt" / "wmt21-en-zh"
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: the newstest2021 en-zh folder is missing (see ../shared/data/mt/README.md)")
    testset = newstest_testset(root, PAIR, "A", with_references=True)
    segments = sample_segments(range(1, len(testset) + 1), n_segments, seed)
    everyone = sorted(testset.systems)
    systems = [y for y in everyone if y != REFERENCE_B]
    chosen = metrics()
    scored: dict[str, Scored] = {}
    cpu: dict[str, float] = {}
    for label, metric in chosen.items():
        log(f"[celab bench] scoring {label} on {len(segments)} segments x {len(everyone)} outputs")
        start = time.process_time()
        scored[label] = score_pair([metric], testset, segments, everyone)[metric.name]
        cpu[label] = time.process_time() - start
    corpus = {m: {y: _corpus(chosen[m], scored[m], segments, y) for y in everyone} for m in chosen}
    values = {m: _matrix(scored[m], segments, systems) for m in chosen}
    ranks = {m: sorted(everyone, key=lambda y: -corpus[m][y]) for m in chosen}
    log("[celab bench] agreement and LP timings")
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(segments) * len(systems), size=min(speed_sample, len(segments) * len(systems)),
                       replace=False)
    sample = [(segments[k // len(systems)], systems[k % len(systems)]) for k in sorted(picks)]
    celab = chosen["tesla-celab"]
    assert isinstance(celab, TeslaCelab)
    report: dict[str, Any] = {
        "pair": PAIR, "data": str(root), "machine": machine(), "seed": seed, "bootstrap": n_boot,
        "n_lines": len(testset), "n_segments": len(segments), "segments": segments, "systems": systems,
        "signatures": {m: str(metric.signature()) for m, metric in chosen.items()},
        "corpus": corpus, "ranking_rows": rankings(corpus, everyone),
        "reference_b_rank": {m: ranks[m].index(REFERENCE_B) + 1 for m in chosen},
        "best": {m: next(y for y in ranks[m] if y != REFERENCE_B) for m in chosen},
        "agreement": agreement(values, n_boot, seed),
        "latin": latin_rank_shift(testset, segments, systems, corpus),
        "speed": {m: {"items": s.items, "seconds": s.seconds, "cpu_seconds": cpu[m],
                      "segments_per_second": s.items / s.seconds, "segments_per_cpu_second": s.items / cpu[m],
                      "errors": len(s.errors), "error_examples": s.errors[:5]} for m, s in scored.items()},
        "lp": lp_speed(celab, testset, sample),
        "peak_rss_mib": peak_rss_mib(),
    }
    md = markdown(report)
    write_report(out, "celab", md + "\n\nSignatures:\n" + sections(report)["signatures"][1] + "\n", report)
    log(md)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks celab", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for celab.md and celab.json")
    parser.add_argument("--data", type=Path, help="the shared data folder (default: AESOP_SHARED_DATA or "
                                                  "../shared/data)")
    parser.add_argument("--segments", type=int, default=DEFAULT_SEGMENTS,
                        help=f"seeded sample of segments (default {DEFAULT_SEGMENTS}; 0 = all)")
    parser.add_argument("--boot", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    run(args.out, args.data, args.segments, args.boot, args.seed)
    return 0
