"""`python -m benchmarks responsiveness`: CREMER vs its components and ROUGE on SummEval overall
responsiveness (mean of the four expert dimensions), 5-fold cross-validation grouped by document;
correlation tables with document-bootstrap CIs, and leaderboards with BOOT-BOTH intervals and
PERM-BOTH clusters.

Folds are fixed (sort document ids, fold = index mod 5). CREMER is configured as shipped (TESLA-S
and the shipped DICOMER standardised within each document, DICOMER over the summaries it judged)
and trained on the training folds only. The shipped DICOMER never saw SummEval, so its values are
used as they are; 0.1.0's listwise DICOMER (``dicomer-0.1.0``) is trained on the training
documents' coherence scores and predicts the held-out documents. No score in the table saw its document.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from benchmarks.harness import machine, machine_line, write_report
from benchmarks.summeval.summeval_bench import clusters_table, leaderboards
from coherence.dicomer import oof
from coherence.dicomer.config import variant_config
from evalcore.data.summeval import read_summeval
from evalcore.io.tables import correlation_markdown, table
from evalcore.metric.registry import build_metrics
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import correlation_table, matrices, significance_table
from summeval.cremer.model import KERNELS, N_FOLDS, feature_matrix, fit_cremer, scale_dicomer, topic_z
from summeval.pipeline import score_items

DEFAULT_FILE = ("summeval", "summeval_16sys_mean_expert.json")
BASELINES = ("tesla-s", "rouge-2", "rouge-su4")


def cross_validated_scores(items, analyses, tesla: np.ndarray, seed: int = 0) -> dict[str, np.ndarray]:
    """The shipped DICOMER's values, out-of-fold values of 0.1.0's listwise DICOMER, and out-of-fold
    CREMER-{LF,PF,RBF} over (TESLA-S and the shipped DICOMER z within document) for every item."""
    from coherence.dicomer.features import judged
    from coherence.dicomer.metric import load_dicomer_model

    topics = np.array([it.topic for it in items])
    coherence = np.array([it.human["coherence"] for it in items])
    overall = np.array([it.human["mean"] for it in items])
    folds = oof.document_folds(list(topics))
    model, info = load_dicomer_model()
    if info["training_data"].get("summaries"):
        raise ValueError("the shipped DICOMER was trained on summaries: this benchmark expects the GDTB-trained "
                         "default (retrain with `coherence train dicomer`)")
    shipped = model.decision_function(analyses)
    config = variant_config(info["variant"])
    x = feature_matrix(topic_z(tesla, topics), scale_dicomer(shipped, [judged(a, config) for a in analyses], topics))
    out = {"dicomer": shipped, "dicomer-0.1.0": np.full(len(items), np.nan),
           **{f"cremer-{k}": np.full(len(items), np.nan) for k in KERNELS}}
    for k in range(N_FOLDS):
        test, train = folds == k, folds != k
        out["dicomer-0.1.0"][test] = oof.fit_predict(analyses, coherence, topics, train, test, seed)
        for kernel in KERNELS:
            cremer = fit_cremer(kernel, x[train], overall[train], topics[train])
            out[f"cremer-{kernel}"][test] = cremer.predict(x[test])
    return out


def run(data: Path | None, out: Path, n_boot: int = 1000, seed: int = 0) -> dict:
    start = time.perf_counter()
    data = data or shared_data_dir().joinpath(*DEFAULT_FILE)
    items = read_summeval(data)
    results = score_items(items, build_metrics(BASELINES), progress=True)
    base = {n: np.array([r.scores.get(n, np.nan) for r in results]) for n in BASELINES}
    analyses = oof.summary_analyses([it.summary for it in items])
    trained = cross_validated_scores(items, analyses, base["tesla-s"], seed)
    names = [*(f"cremer-{k}" for k in ("linear", "poly", "rbf")), "tesla-s", "dicomer", "dicomer-0.1.0", "rouge-2",
             "rouge-su4"]
    values = {**base, **trained}
    records = {it.key: {n: float(values[n][i]) for n in names} for i, it in enumerate(items)}
    topics = sorted({it.topic for it in items})
    systems = sorted({it.system for it in items}, key=lambda s: int(s.lstrip("M")))
    metric_m = matrices(records, names, topics, systems)
    human_m = matrices({it.key: it.human for it in items}, ["mean", "relevance", "coherence"], topics, systems)
    corr = correlation_table(metric_m, human_m, n_boot, seed)
    pairs = [("cremer-linear", "rouge-2"), ("cremer-linear", "rouge-su4"), ("cremer-linear", "tesla-s"),
             ("cremer-linear", "dicomer")]
    sig = significance_table(metric_m, human_m, pairs, n_boot, seed)
    report = {"data": str(data), "machine": machine(), "folds": "sorted document ids, fold = index mod 5",
              "bootstrap": n_boot, "seed": seed, "correlations": corr, "significance": sig,
              "leaderboards": leaderboards(metric_m, human_m, n_boot, seed),
              "seconds": time.perf_counter() - start}
    md = _markdown(report)
    write_report(out, "responsiveness", md, report)
    print(md)
    return report


def setup_markdown(r: dict) -> str:
    """What the tables measure: data, folds, training, bootstrap and machine."""
    return (
        f"Data: `{r['data']}`; overall = mean of the four expert dimensions. Folds: {r['folds']}; CREMER is "
        f"trained only on training folds over TESLA-S and the shipped DICOMER (trained on GDTB, never on SummEval), "
        f"both standardised within each document (DICOMER over the summaries it judged), its SVR hyper-parameters by "
        f"grouped inner CV; dicomer-0.1.0 is "
        f"0.1.0's listwise model, out of fold. Bootstrap {r['bootstrap']} resamples of documents. "
        f"{machine_line(r['machine'])}"
    )


def target_table(r: dict) -> str:
    """Each CREMER variant against the best of TESLA-S, DICOMER and ROUGE on overall, both levels."""
    rows = []
    for level, kind in (("system", "kendall"), ("item", "spearman")):
        by = r["correlations"][level]["mean"]
        best_other = max(by[m][kind]["value"] for m in ("tesla-s", "dicomer", "rouge-2", "rouge-su4"))
        for kernel, variant in (("linear", "CREMER-LF"), ("poly", "CREMER-PF"), ("rbf", "CREMER-RBF")):
            v = by[f"cremer-{kernel}"][kind]
            rows.append([level, kind, variant, f"{v['value']:.3f} [{v['ci_low']:.2f}, {v['ci_high']:.2f}]",
                         f"{best_other:.3f}", "above" if v["value"] > best_other else "not above"])
    return table(["level", "correlation", "variant", "value [95% CI]", "best other", "vs best other"], rows)


def full_tables(r: dict) -> str:
    """Every metric against every human dimension at both levels, with the significance tables."""
    return correlation_markdown(r["correlations"], r["significance"])


def clusters(r: dict) -> str:
    """BOOT-BOTH intervals and PERM-BOTH clusters of every metric at both levels."""
    return clusters_table(r["leaderboards"])


def _markdown(r: dict) -> str:
    return (
        "## SummEval overall responsiveness: CREMER (5-fold CV grouped by document)\n\n"
        + setup_markdown(r) + "\n\n"
        "Target: CREMER (CREMER-LF, the default) above TESLA-S, DICOMER, ROUGE-2 and ROUGE-SU4 (best of them = "
        "\"best other\") "
        "on overall:\n\n"
        + target_table(r) + "\n\n"
        + full_tables(r) + "\n\n" + clusters(r)
    )
