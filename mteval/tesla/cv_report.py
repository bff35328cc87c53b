"""`mteval train tesla-f --cv-report DIR`: TESLA-F cross-validated on the WMT12 rankings into
English (folds grouped by segment, :func:`mteval.tesla.train.cross_validated`), with its ablations
(BPNG and LM features removed), TESLA-B, TESLA-M, sentence BLEU and chrF on the same outputs in
the same run: segment-level Kendall's tau in both WMT12 variants per pair and averaged, bootstrap
CIs over segments, the share of resamples in which TESLA-F beats each other row, and speed.

It reads the same seeded sample of segments as training (:data:`~mteval.tesla.train_cli.DEFAULT_SEGMENTS`)
and the features training cached, so the report and the shipped model read the same numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from evalcore.benchio import machine, machine_line, write_report
from evalcore.metric import Item, Metric
from evalcore.resources import shared_data_dir
from evalcore.tables import table
from mteval.baselines import Bleu, Chrf
from mteval.bench.wmt import average_kendall, kendall_beats
from mteval.data.wmt12 import comparisons
from mteval.metaeval import KendallCounts, kendall_counts, wmt12_kendall
from mteval.tesla.features import N_BTNG
from mteval.tesla.tesla_b import TeslaB, mean_defined, two_step
from mteval.tesla.tesla_f import TeslaF
from mteval.tesla.tesla_m import TeslaM
from mteval.tesla.train import (RankedSet, cross_validated, default_extractors, feature_names, load_ranked_set,
                                model_matrix, raw_features)
from mteval.tesla.train_cli import DEFAULT_SEGMENTS

VARIANTS = {"wmt12": "Kendall's tau, WMT12 variant (metric ties penalised)", "no-ties": "Kendall's tau, metric ties excluded"}
#: outputs each metric scores in the speed measurement (a seeded sample, its own for each metric)
SPEED_SAMPLE = 200


def ablations(names: Sequence[str]) -> dict[str, list[int]]:
    """Feature columns of TESLA-F and of its ablations."""
    btng = list(range(N_BTNG))
    bpng = [k for k, n in enumerate(names) if n.startswith("bpng_")]
    lm = [k for k, n in enumerate(names) if n.startswith("lm_")]
    return {"tesla-f": btng + bpng + lm, "tesla-f -bpng": btng + lm, "tesla-f -lm": btng + bpng,
            "tesla-f -bpng -lm": btng}


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


def speed(data: RankedSet, seed: int = 0) -> dict[str, dict[str, float]]:
    """Segments per second of each metric, end to end in this process (tagging, BPNG, matching, LM),
    each on its own seeded sample of outputs so no metric reads texts another one prepared."""
    metrics: list[Metric] = [TeslaM(), TeslaB(), TeslaF(), Bleu(), Chrf()]
    order = np.random.default_rng(seed).permutation(len(data.items))
    out = {}
    for k, metric in enumerate(metrics):
        metric.score_batch([Item("warm up", ("warm up",))])  # models and tables loaded, not timed
        picked = [data.items[i] for i in order[k * SPEED_SAMPLE:(k + 1) * SPEED_SAMPLE]]
        start = time.perf_counter()
        metric.score_batch([Item(hyp, refs) for refs, hyp in picked])
        seconds = time.perf_counter() - start
        out[metric.name] = {"segments": len(picked), "seconds": seconds, "segments_per_second": len(picked) / seconds}
    return out


def run(out: Path, data_root: Path | None = None, max_segments: int = DEFAULT_SEGMENTS, folds: int = 5,
        n_boot: int = 1000, seed: int = 0, log: Callable[[str], None] = print) -> dict:
    """Compute every row on the rankings of ``max_segments`` segments (0 = all), write
    ``tesla_f_cv.md`` and ``.json`` into ``out``; returns the report."""
    start = time.perf_counter()
    root = (data_root or shared_data_dir()) / "mt" / "wmt12"
    data = load_ranked_set(root, max_segments=max_segments, seed=seed)
    tesla, lms = default_extractors()
    names = feature_names(tesla, lms)
    raw = raw_features(data, tesla, lms, log)
    X = model_matrix(raw, len(lms.names()))
    rows: dict[str, np.ndarray] = {}
    for label, cols in ablations(names).items():
        rows[label] = cross_validated(X[:, cols], data, [names[c] for c in cols], folds, seed)
        log(f"{label}: cross-validated")
    rows["tesla-b"] = two_step(raw[:, :len(names) - len(lms.names())])[2]
    rows["tesla-m"] = mean_defined(raw[:, :N_BTNG])
    rows["bleu"], rows["chrf"] = baseline_scores(Bleu(), data), baseline_scores(Chrf(), data)
    counts = {label: kendall_by_pair(data, values) for label, values in rows.items()}
    pairs = list(counts["tesla-f"])
    report: dict = {"data": str(root), "machine": machine(), "folds": folds, "bootstrap": n_boot, "seed": seed,
                    "max_segments": max_segments, "outputs": len(data.keys), "rankings": len(data.rankings),
                    "segments": len({k[1] for k in data.keys}), "unreadable": data.unreadable,
                    "features": names, "kendall": {}, "tesla_f_beats": {}}
    for label, by_pair in counts.items():
        report["kendall"][label] = {
            v: {**{p: wmt12_kendall(c, v, n_boot, seed).as_dict() for p, c in by_pair.items()},
                "average": average_kendall(by_pair, v, n_boot, seed).as_dict()} for v in VARIANTS}
    for other in counts:
        if other != "tesla-f":
            report["tesla_f_beats"][other] = {
                v: {p: kendall_beats(counts["tesla-f"][p], counts[other][p], v, n_boot, seed) for p in pairs}
                for v in VARIANTS}
    report["signatures"] = {m.name: str(m.signature()) for m in (TeslaM(), TeslaB(), TeslaF(), Bleu(), Chrf())}
    report["speed"] = speed(data, seed)
    report["seconds"] = time.perf_counter() - start
    md = markdown(report, pairs)
    write_report(out, "tesla_f_cv", md, report)
    log(md)
    return report


def _cell(entry: dict) -> str:
    return f"{entry['value']:.3f} [{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]"


def markdown(report: dict, pairs: Sequence[str]) -> str:
    """The report's tables: Kendall per variant, TESLA-F's wins over resamples, speed."""
    sample = f"a seeded sample of {report['max_segments']}" if report["max_segments"] else "all"
    out = ["## TESLA-F cross-validated on WMT12 into English (`mteval train tesla-f --cv-report DIR`)", "",
           f"{report['outputs']} ranked outputs, {report['rankings']} rankings, {report['segments']} segments "
           f"of {', '.join(pairs)} ({sample} ranked segments); TESLA-F rows "
           f"are out-of-fold scores ({report['folds']} folds grouped by segment, seed {report['seed']}); 95% "
           f"bootstrap CIs from {report['bootstrap']} resamples of segments; the average's CI from the mean of "
           f"the pairs' resamples. {machine_line(report['machine'])} Run time {report['seconds']:.0f} s.", ""]
    for v, title in VARIANTS.items():
        out += [f"### {title}", "",
                table(["metric", *pairs, "average"],
                      [[label, *(_cell(k[v][p]) for p in [*pairs, "average"])] for label, k in report["kendall"].items()]),
                ""]
    out += ["### Share of resamples in which cross-validated TESLA-F beats the row (WMT12 variant / ties excluded)", "",
            table(["row", *pairs], [[other, *(f"{b['wmt12'][p]:.3f} / {b['no-ties'][p]:.3f}" for p in pairs)]
                                    for other, b in report["tesla_f_beats"].items()]), ""]
    out += ["### Speed (segments per second, end to end, one process)", "",
            table(["metric", "segments", "seconds", "segments/s"],
                  [[n, str(s["segments"]), f"{s['seconds']:.1f}", f"{s['segments_per_second']:.1f}"]
                   for n, s in report["speed"].items()]), ""]
    return "\n".join(out)


__all__ = ["run"]
