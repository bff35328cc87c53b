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

from evalcore.io.runinfo import machine_line, write_report
from evalcore.io.tables import table
from evalcore.resources import shared_data_dir
from mteval.baselines import Bleu, Chrf
from mteval.learn.report import (
    baseline_scores,
    beats,
    kendall_by_pair,
    kendall_entries,
    kendall_markdown,
    ranked_set_header,
    ranked_set_line,
)
from mteval.learn.speed import SPEED_SAMPLE
from mteval.learn.speed import speed as learn_speed
from mteval.tesla.features import N_BTNG
from mteval.tesla.tesla_b import TeslaB, mean_defined, two_step
from mteval.tesla.tesla_f import TeslaF
from mteval.tesla.tesla_m import TeslaM
from mteval.tesla.train import (
    RankedSet,
    cross_validated,
    default_extractors,
    feature_names,
    load_ranked_set,
    model_matrix,
    raw_features,
)
from mteval.tesla.train_cli import DEFAULT_SEGMENTS


def ablations(names: Sequence[str]) -> dict[str, list[int]]:
    """Feature columns of TESLA-F and of its ablations."""
    btng = list(range(N_BTNG))
    bpng = [k for k, n in enumerate(names) if n.startswith("bpng_")]
    lm = [k for k, n in enumerate(names) if n.startswith("lm_")]
    return {"tesla-f": btng + bpng + lm, "tesla-f -bpng": btng + lm, "tesla-f -lm": btng + bpng,
            "tesla-f -bpng -lm": btng}


def speed(data: RankedSet, seed: int = 0) -> dict[str, dict[str, float]]:
    """Segments per second of each metric, end to end in this process (tagging, BPNG, matching, LM),
    each on its own seeded sample of outputs so no metric reads texts another one prepared."""
    return learn_speed([TeslaM(), TeslaB(), TeslaF(), Bleu(), Chrf()], data.items, seed, SPEED_SAMPLE)


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
    report: dict = {**ranked_set_header(root, data, folds, n_boot, seed, max_segments), "features": names}
    report["kendall"] = kendall_entries(counts, n_boot, seed)
    report["tesla_f_beats"] = beats(counts, "tesla-f", n_boot, seed)
    report["signatures"] = {m.name: str(m.signature()) for m in (TeslaM(), TeslaB(), TeslaF(), Bleu(), Chrf())}
    report["speed"] = speed(data, seed)
    report["seconds"] = time.perf_counter() - start
    md = markdown(report, pairs)
    write_report(out, "tesla_f_cv", md, report)
    log(md)
    return report


def markdown(report: dict, pairs: Sequence[str]) -> str:
    """The report's tables: Kendall per variant, TESLA-F's wins over resamples, speed."""
    out = ["## TESLA-F cross-validated on WMT12 into English (`mteval train tesla-f --cv-report DIR`)", "",
           f"{ranked_set_line(report, pairs)}; TESLA-F rows "
           f"are out-of-fold scores ({report['folds']} folds grouped by segment, seed {report['seed']}); 95% "
           f"bootstrap CIs from {report['bootstrap']} resamples of segments; the average's CI from the mean of "
           f"the pairs' resamples. {machine_line(report['machine'])} Run time {report['seconds']:.0f} s.", ""]
    out += kendall_markdown(report["kendall"], report["tesla_f_beats"], pairs, "TESLA-F")
    out += ["### Speed (segments per second, end to end, one process)", "",
            table(["metric", "segments", "seconds", "segments/s"],
                  [[n, str(s["segments"]), f"{s['seconds']:.1f}", f"{s['segments_per_second']:.1f}"]
                   for n, s in report["speed"].items()]), ""]
    return "\n".join(out)


__all__ = ["run"]
