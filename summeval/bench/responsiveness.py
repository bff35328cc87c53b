"""`summeval bench responsiveness`: CREMER vs its components and ROUGE on SummEval overall
responsiveness (mean of the four expert dimensions), 5-fold cross-validation grouped by document.

Folds are fixed (sort document ids, fold = index mod 5). Both trained parts stay out of fold:
DICOMER is trained on the training documents' coherence scores and predicts the held-out
documents; CREMER's own training features use DICOMER scores that are themselves out of fold
(nested 4-fold split of the training documents), so no score in the table saw its document.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from evalcore.benchio import machine, machine_line, write_report
from evalcore.data.summeval import read_summeval
from evalcore.metaeval import correlation_table, matrices, significance_table
from evalcore.resources import shared_data_dir
from evalcore.tables import correlation_markdown, table
from coherence.dicomer import oof
from summeval.cremer import KERNELS, N_FOLDS, feature_matrix, fit_cremer
from summeval.pipeline import build_metrics, score_items

DEFAULT_FILE = ("summeval", "summeval_16sys_mean_expert.json")
BASELINES = ("tesla-s", "rouge-2", "rouge-su4")


def cross_validated_scores(items, analyses, tesla: np.ndarray, seed: int = 0) -> dict[str, np.ndarray]:
    """Out-of-fold DICOMER and CREMER-{LF,PF,RBF} scores for every item."""
    topics = np.array([it.topic for it in items])
    coherence = np.array([it.human["coherence"] for it in items])
    overall = np.array([it.human["mean"] for it in items])
    folds = oof.document_folds(list(topics))
    out = {"dicomer": np.full(len(items), np.nan), **{f"cremer-{k}": np.full(len(items), np.nan) for k in KERNELS}}
    for k in range(N_FOLDS):
        test, train = folds == k, folds != k
        out["dicomer"][test] = oof.fit_predict(analyses, coherence, topics, train, test, seed)
        # CREMER is trained as the shipped model is: on DICOMER values out of fold within its training documents.
        inner = oof.out_of_fold(analyses, coherence, topics, train, N_FOLDS - 1, seed)
        x_train = feature_matrix(tesla[train], inner[train])
        x_test = feature_matrix(tesla[test], out["dicomer"][test])
        for kernel in KERNELS:
            model = fit_cremer(kernel, x_train, overall[train], topics[train])
            out[f"cremer-{kernel}"][test] = model.predict(x_test)
    return out


def run(data: Path | None, out: Path, n_boot: int = 1000, seed: int = 0) -> dict:
    start = time.perf_counter()
    data = data or shared_data_dir().joinpath(*DEFAULT_FILE)
    items = read_summeval(data)
    results = score_items(items, build_metrics(BASELINES), progress=True)
    base = {n: np.array([r.scores.get(n, np.nan) for r in results]) for n in BASELINES}
    analyses = oof.summary_analyses([it.summary for it in items])
    trained = cross_validated_scores(items, analyses, base["tesla-s"], seed)
    names = [*(f"cremer-{k}" for k in ("rbf", "poly", "linear")), "tesla-s", "dicomer", "rouge-2", "rouge-su4"]
    values = {**base, **trained}
    records = {it.key: {n: float(values[n][i]) for n in names} for i, it in enumerate(items)}
    topics = sorted({it.topic for it in items})
    systems = sorted({it.system for it in items}, key=lambda s: int(s.lstrip("M")))
    metric_m = matrices(records, names, topics, systems)
    human_m = matrices({it.key: it.human for it in items}, ["mean", "relevance", "coherence"], topics, systems)
    corr = correlation_table(metric_m, human_m, n_boot, seed)
    pairs = [("cremer-rbf", "rouge-2"), ("cremer-rbf", "rouge-su4"), ("cremer-rbf", "tesla-s"), ("cremer-rbf", "dicomer")]
    sig = significance_table(metric_m, human_m, pairs, n_boot, seed)
    report = {"data": str(data), "machine": machine(), "folds": "sorted document ids, fold = index mod 5",
              "bootstrap": n_boot, "seed": seed, "correlations": corr, "significance": sig,
              "seconds": time.perf_counter() - start}
    md = _markdown(report)
    write_report(out, "responsiveness", md, report)
    print(md)
    return report


def _markdown(r: dict) -> str:
    rows = []
    for level, kind in (("system", "kendall"), ("item", "spearman")):
        by = r["correlations"][level]["mean"]
        best_other = max(by[m][kind]["value"] for m in ("tesla-s", "dicomer", "rouge-2", "rouge-su4"))
        for kernel, variant in (("rbf", "CREMER-RBF"), ("poly", "CREMER-PF"), ("linear", "CREMER-LF")):
            v = by[f"cremer-{kernel}"][kind]
            rows.append([level, kind, variant, f"{v['value']:.3f} [{v['ci_low']:.2f}, {v['ci_high']:.2f}]",
                         f"{best_other:.3f}", "above" if v["value"] > best_other else "not above"])
    return (
        "## SummEval overall responsiveness: CREMER (5-fold CV grouped by document)\n\n"
        f"Data: `{r['data']}`; overall = mean of the four expert dimensions. Folds: {r['folds']}; DICOMER and "
        f"CREMER are trained only on training folds (CREMER on DICOMER values out of fold within them, its SVR "
        f"hyper-parameters by grouped inner CV). Bootstrap {r['bootstrap']} resamples of documents. "
        f"{machine_line(r['machine'])}\n\n"
        "Target: CREMER-RBF above TESLA-S, DICOMER, ROUGE-2 and ROUGE-SU4 (best of them = \"best other\") "
        "on overall:\n\n"
        + table(["level", "correlation", "variant", "value [95% CI]", "best other", "vs best other"], rows) + "\n\n"
        + correlation_markdown(r["correlations"], r["significance"])
    )
