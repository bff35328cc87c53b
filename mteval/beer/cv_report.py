"""`mteval train beer --cv-report DIR`: BEER cross-validated on the WMT12 rankings into English
(folds grouped by segment, :func:`mteval.learn.pairwise.cross_validated`), its feature ablations
(the paper's Table 1 rows), and sentence BLEU, chrF, METEOR and TESLA-M on the same outputs in
the same run: segment-level Kendall's tau in both WMT12 variants per pair and averaged, bootstrap
CIs over segments, the share of resamples in which BEER beats each other row, and speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np

from evalcore.io.tables import table
from evalcore.metric.registry import get_metric
from evalcore.resources.registry import shared_data_dir
from mteval.baselines.metric import Bleu, Chrf, Meteor
from mteval.beer.features import FEATURES
from mteval.beer.metric import Beer
from mteval.beer.train import fit, raw_features
from mteval.learn.pairwise import cross_validated
from mteval.learn.ranked import RankedSet, load_ranked_set
from mteval.learn.report import baseline_scores, cv_intro, kendall_markdown, kendall_report, publish
from mteval.learn.speed import speed
from mteval.lexical.preprocess import preparer


def ablations() -> dict[str, list[str]]:
    """Feature names of BEER and of each ablation (paper §4, Table 1 rows)."""
    def without(*prefixes: str) -> list[str]:
        return [n for n in FEATURES if not n.startswith(prefixes)]

    return {"beer": list(FEATURES), "beer -char": without("char"), "beer -words": without("func", "cont", "all"),
            "beer -func/cont": without("func", "cont"), "beer -F": [n for n in FEATURES if not n.endswith("_f")],
            "beer -pet": without("pet_"), "beer -kendall": without("kendall"),
            "beer -fluency": without("pet_", "kendall")}


def beer_rows(X: np.ndarray, data: RankedSet, folds: int, seed: int,
              log: Callable[[str], None] = print) -> dict[str, np.ndarray]:
    """Out-of-fold scores of BEER (one model for the target language, English), of each ablation,
    and of BEER trained per language pair (the paper's setting, its Table 2)."""
    rows = {}
    for label, names in ablations().items():
        cols = [FEATURES.index(n) for n in names]
        Xs = X[:, cols]
        rows[label] = cross_validated(Xs, data.keys, data.rankings,
                                      partial(fit, Xs, data, names, seed=seed), folds, seed)
        log(f"{label}: cross-validated")
    pair_of = np.array([k[0] for k in data.keys])
    per_pair = np.full(len(data.keys), np.nan)
    for pair in dict.fromkeys(pair_of):
        own = [r for r in data.rankings if r.pair == pair]
        oof = cross_validated(X, data.keys, own, lambda train: fit(X, data, FEATURES, train, seed), folds, seed)
        per_pair[pair_of == pair] = oof[pair_of == pair]
    rows["beer per pair"] = per_pair
    log("beer per pair: cross-validated")
    return rows


def run(out: Path, data_root: Path | None = None, max_segments: int = 0, folds: int = 5, n_boot: int = 1000,
        seed: int = 0, log: Callable[[str], None] = print) -> dict:
    """Compute every row on the rankings of ``max_segments`` segments (0 = all), write
    ``beer_cv.md`` and ``.json`` into ``out``; returns the report."""
    start = time.perf_counter()
    root = (data_root or shared_data_dir()) / "mt" / "wmt12"
    data = load_ranked_set(root, max_segments=max_segments, seed=seed)
    X = raw_features(data, log)
    rows = beer_rows(X, data, folds, seed, log)
    baselines = [Bleu(), Chrf(), Meteor(), get_metric("tesla-m")]
    for metric in baselines:
        t = time.perf_counter()
        rows[metric.name] = baseline_scores(metric, data)
        log(f"{metric.name}: scored in {time.perf_counter() - t:.0f} s")
    report, pairs = kendall_report(root, data, rows, "beer", "beer_beats", (Beer(), *baselines), folds, n_boot, seed,
                                   max_segments, features=list(FEATURES), ablations=ablations())
    preparer("en").clear()  # the baselines above tagged every text: time tagging too, from a cold cache
    report["speed"] = speed([Beer(), *baselines], data.items, seed)
    return publish(out, "beer_cv", report, start, lambda r: markdown(r, pairs), log)


def markdown(report: dict, pairs: Sequence[str]) -> str:
    """The report's tables: Kendall per variant, BEER's wins over resamples, speed."""
    out = cv_intro("BEER cross-validated on WMT12 into English (`mteval train beer --cv-report DIR`)", report, pairs,
                   f"; BEER rows are out-of-fold scores ({report['folds']} folds grouped by segment, seed "
                   f"{report['seed']}; `-X` = trained without feature group X; `beer per pair` = one model per "
                   f"language pair, the others one for all into-English pairs);")
    out += kendall_markdown(report["kendall"], report["beer_beats"], pairs, "BEER")
    out += ["### Speed (end to end with spaCy tagging from a cold text cache, one process, a seeded sample of "
            "outputs per metric)", "",
            table(["metric", "segments", "seconds", "ms/segment", "segments/s"],
                  [[n, str(s["segments"]), f"{s['seconds']:.1f}", f"{1000 * s['seconds'] / s['segments']:.1f}",
                    f"{s['segments_per_second']:.1f}"] for n, s in report["speed"].items()]), ""]
    return "\n".join(out)
