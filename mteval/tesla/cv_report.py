"""`mteval train tesla-f --cv-report DIR`: TESLA-F cross-validated on the WMT12 rankings into
English (folds grouped by segment, :func:`mteval.tesla.train.cross_validated`), with its ablations
(BPNG and LM features removed), TESLA-B, TESLA-M, sentence BLEU and chrF on the same outputs in
the same run: segment-level Kendall's tau in both WMT12 variants per pair and averaged, bootstrap
CIs over segments, the share of resamples in which TESLA-F beats each other row, and speed.

It reads the same seeded sample of segments as training (:data:`~mteval.learn.ranked.DEFAULT_SEGMENTS`)
and the features training cached, so the report and the shipped model read the same numbers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from evalcore.io.tables import table
from evalcore.resources.registry import shared_data_dir
from mteval.baselines.metric import Bleu, Chrf
from mteval.learn.ranked import DEFAULT_SEGMENTS, RankedSet, load_ranked_set
from mteval.learn.report import baseline_scores, cv_intro, kendall_markdown, kendall_report, publish
from mteval.learn.speed import SPEED_SAMPLE
from mteval.learn.speed import speed as learn_speed
from mteval.tesla.features import N_BTNG, mean_defined, model_matrix, two_step
from mteval.tesla.metric import TeslaB, TeslaF, TeslaM
from mteval.tesla.train import cross_validated, default_extractors, feature_names, raw_features


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
    report, pairs = kendall_report(root, data, rows, "tesla-f", "tesla_f_beats",
                                   (TeslaM(), TeslaB(), TeslaF(), Bleu(), Chrf()), folds, n_boot, seed, max_segments,
                                   features=names)
    report["speed"] = speed(data, seed)
    return publish(out, "tesla_f_cv", report, start, lambda r: markdown(r, pairs), log)


def markdown(report: dict, pairs: Sequence[str]) -> str:
    """The report's tables: Kendall per variant, TESLA-F's wins over resamples, speed."""
    out = cv_intro("TESLA-F cross-validated on WMT12 into English (`mteval train tesla-f --cv-report DIR`)", report,
                   pairs, f"; TESLA-F rows are out-of-fold scores ({report['folds']} folds grouped by segment, seed "
                          f"{report['seed']});")
    out += kendall_markdown(report["kendall"], report["tesla_f_beats"], pairs, "TESLA-F")
    out += ["### Speed (segments per second, end to end, one process)", "",
            table(["metric", "segments", "seconds", "segments/s"],
                  [[n, str(s["segments"]), f"{s['seconds']:.1f}", f"{s['segments_per_second']:.1f}"]
                   for n, s in report["speed"].items()]), ""]
    return "\n".join(out)


__all__ = ["run"]
