"""`python -m benchmarks readability`: DICOMER and its variants against SummEval's expert scores.

Out-of-fold only (benchmarks.md): documents sorted, fold = index mod 5; each fold's models are
trained on the other four folds (summaries for ``listwise``, permuted source articles for
``permutation``, both for ``combined``) and score the held-out summaries once; correlations are
computed on the pooled out-of-fold scores, at summary and system level, with bootstrap CIs over
documents. The permutation test ranks each held-out source article against 20 seeded sentence
permutations. Throughput times parsing + features + scoring of fresh (uncached) summaries.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from coherence.dicomer.analysis import AnalysisCache, shared_cache
from coherence.dicomer.config import variant_config
from coherence.dicomer.model import DicomerModel
from coherence.dicomer.train import N_PERMUTATIONS, load_summeval, summeval_file, training_data
from evalcore.stats.correlation import correlations
from evalcore.text.preprocess import tokenize

VARIANTS = ("LIN", "LIN+C", "LIN+E", "DICOMER", "EGRID", "DICOMER+EGRID")
MODES = ("listwise", "permutation", "combined")
HUMAN = ("coherence", "fluency")
# Listwise models are also trained on fluency (rows ``VARIANT/listwise:fluency``): both dimensions
# are reported, and a coherence-trained ranker is not the fair fluency model.
FLUENCY_SUFFIX = ":fluency"
PAIRS = (("DICOMER/listwise", "LIN/listwise"), ("DICOMER/listwise", "rouge-2"),
         ("DICOMER/listwise", "length"), ("DICOMER/listwise", "EGRID/listwise"),
         ("DICOMER/combined", "LIN/combined"), ("DICOMER/listwise:fluency", "LIN/listwise:fluency"))
N_FOLDS = 5
N_SPEED = 200


def _folds(se) -> np.ndarray:
    fold_of = se.folds(N_FOLDS)
    return np.array([fold_of[t] for t in se.topics])


def variant_features(variant: str, summaries, originals, permuted) -> dict:
    """Feature dicts of every text of the benchmark, computed once per variant, keyed by id."""
    proto = DicomerModel(variant)
    texts = [*summaries, *originals, *(a for perms in permuted for a in perms)]
    return {id(a): f for a, f in zip(texts, proto.features(texts))}


def out_of_fold(variant: str, mode: str, se, summaries, originals, permuted, feats: dict,
                folds: np.ndarray, article_fold: np.ndarray, seed: int, target: str = "coherence") -> dict:
    """Out-of-fold summary scores (raw, shifted log) and held-out permutation accuracy; summaries
    are ranked by the human ``target`` dimension in the listwise and combined modes."""
    raw, logs = np.full(len(summaries), np.nan), np.full(len(summaries), np.nan)
    correct = ties = pairs = 0
    for k in range(N_FOLDS):
        train_s = [i for i in range(len(summaries)) if folds[i] != k]
        train_a = [j for j in range(len(originals)) if article_fold[j] != k]
        texts, y, groups = training_data(
            mode, [summaries[i] for i in train_s], se.human[target][train_s],
            [se.topics[i] for i in train_s], [originals[j] for j in train_a], [permuted[j] for j in train_a])
        model = DicomerModel(variant, seed=seed).fit(texts, y, groups, [feats[id(a)] for a in texts])
        test = np.flatnonzero(folds == k)
        raw[test] = model.decision_function(features=[feats[id(summaries[i])] for i in test])
        logs[test] = model.log_score(raw[test])
        for j in np.flatnonzero(article_fold == k):
            if not permuted[j]:
                continue
            orig = model.decision_function(features=[feats[id(originals[j])]])[0]
            perm = model.decision_function(features=[feats[id(a)] for a in permuted[j]])
            correct += int((orig > perm).sum())
            ties += int((orig == perm).sum())
            pairs += len(perm)
    return {"raw": raw, "log": logs,
            "permutation": {"accuracy": correct / pairs if pairs else float("nan"),
                            "pairs": pairs, "ties": ties}}


def _throughput(se, cached, parser, seed: int) -> dict:
    """Summaries per second for parse + features + score of fresh texts (no cache); the model
    is fitted on the cached analyses first and spaCy is warmed up on two texts."""
    texts = list(se.summaries[:N_SPEED])
    model = DicomerModel("DICOMER", seed=seed).fit(cached[:N_SPEED], se.human["coherence"][:N_SPEED],
                                                   list(se.topics[:N_SPEED]))
    AnalysisCache(parser).analyse(texts[:2])
    start = time.perf_counter()
    model.decision_function(AnalysisCache(parser).analyse(texts))
    seconds = time.perf_counter() - start
    return {"summaries": len(texts), "seconds": seconds, "per_second": len(texts) / seconds}


def run(data: Path | None, out: Path, tier: int = 0, n_boot: int = 1000, seed: int = 0) -> dict:
    """Run the benchmark; write ``readability.md`` and ``readability.json`` into ``out``."""
    from coherence.parser.pipeline import DiscourseParser
    from evalcore.io.tables import correlation_markdown
    from evalcore.metric.registry import get_metric
    from evalcore.stats.correlation import correlation_table, matrices, significance_table

    start = time.perf_counter()
    se = load_summeval(data)
    parser = DiscourseParser(tier=tier)
    cache = shared_cache(parser)
    t0 = time.perf_counter()
    summaries = cache.analyse(list(se.summaries), progress=True)
    docs = list(se.sources)
    originals = cache.analyse([se.sources[d] for d in docs], progress=True)
    permuted = cache.analyse_permutations([se.sources[d] for d in docs], N_PERMUTATIONS, seed, progress=True)
    cache.save()
    parse_seconds = time.perf_counter() - t0
    folds = _folds(se)
    fold_of = se.folds(N_FOLDS)
    article_fold = np.array([fold_of[d] for d in docs])

    results = {}
    for variant in VARIANTS:
        feats = variant_features(variant, summaries, originals, permuted)
        for mode in MODES:
            t1 = time.perf_counter()
            results[f"{variant}/{mode}"] = out_of_fold(variant, mode, se, summaries, originals, permuted,
                                                       feats, folds, article_fold, seed)
            print(f"  {variant}/{mode}: permutation accuracy "
                  f"{results[f'{variant}/{mode}']['permutation']['accuracy']:.4f} "
                  f"({time.perf_counter() - t1:.0f} s)", flush=True)
        results[f"{variant}/listwise{FLUENCY_SUFFIX}"] = out_of_fold(
            variant, "listwise", se, summaries, originals, permuted, feats, folds, article_fold, seed, "fluency")
    rouge = get_metric("rouge-2")
    baselines = {
        "rouge-2": np.array([s.value if s.ok else np.nan
                              for s in rouge.score_batch(list(zip(se.references, se.summaries)))]),
        "length": np.array([float(len(tokenize(s))) for s in se.summaries]),
    }
    keys = list(zip(se.topics, se.systems))
    scores = {**{n: r["raw"] for n, r in results.items()}, **baselines}
    records = {key: {n: float(v[i]) for n, v in scores.items()} for i, key in enumerate(keys)}
    human_records = {key: {d: float(se.human[d][i]) for d in HUMAN} for i, key in enumerate(keys)}
    topics = sorted(set(se.topics))
    systems = list(dict.fromkeys(se.systems))
    metric_m = matrices(records, list(scores), topics, systems)
    human_m = matrices(human_records, HUMAN, topics, systems)
    corr = correlation_table(metric_m, human_m, n_boot, seed)
    sig = significance_table(metric_m, human_m, PAIRS, n_boot, seed)
    pooled_pearson = {n: {d: {"raw": correlations(r["raw"], se.human[d])["pearson"],
                              "shifted_log": correlations(r["log"], se.human[d])["pearson"]}
                          for d in HUMAN} for n, r in results.items()}
    speed = _throughput(se, summaries, parser, seed)
    report = {
        "data": str(summeval_file(data)), "machine": machine(), "bootstrap": n_boot, "seed": seed,
        "n_documents": len(topics), "n_systems": len(systems),
        "protocol": {"folds": "sorted document ids, fold = index mod 5", "n_folds": N_FOLDS,
                     "training_target": f"coherence; fluency for rows ending in {FLUENCY_SUFFIX}",
                     "permutations_per_article": N_PERMUTATIONS,
                     "ranker_C": "svmlight default 1/mean(d.d)", "parser": parser.provider},
        "signatures": {v: variant_config(v).signature() for v in VARIANTS},
        "correlations": corr, "significance": sig, "pooled_pearson": pooled_pearson,
        "permutation_test": {n: r["permutation"] for n, r in results.items()},
        "throughput": speed, "parse_seconds_first_run_or_cache": parse_seconds,
        "seconds": time.perf_counter() - start, "peak_rss_mib": peak_rss_mib(),
    }
    md = _markdown(report, correlation_markdown(corr, sig))
    write_report(out, "dicomer_variants", md, report)
    print(md)
    return report


def _markdown(report: dict, corr_md: str) -> str:
    from evalcore.io.tables import table

    perm = report["permutation_test"]
    perm_rows = [[v, *(f"{perm[f'{v}/{m}']['accuracy'] * 100:.2f}" for m in MODES),
                  str(perm[f"{v}/listwise"]["pairs"])] for v in VARIANTS]
    pp = report["pooled_pearson"]
    log_rows = [[n, *(f"{pp[n][d]['raw']:.3f} / {pp[n][d]['shifted_log']:.3f}" for d in HUMAN)]
                for n in pp if n.endswith("/listwise")]
    p = report["protocol"]
    headlines = [f"**{dim.capitalize()}: headline** (summary-level Spearman ρ averaged over documents, "
                 f"system-level Kendall τ over {report['n_systems']} systems, 95% bootstrap CIs; "
                 "permutation accuracy %)\n\n" + headline_table(report, dim) + "\n" for dim in HUMAN]
    return "\n".join([
        "# DICOMER readability benchmark (SummEval, out-of-fold)\n",
        f"Data: `{report['data']}`; {report['n_documents']} documents x {report['n_systems']} systems; "
        "trained on mean expert coherence (fluency for `:fluency` rows); "
        f"{p['n_folds']}-fold CV grouped by document ({p['folds']}); parser `{p['parser']}`; "
        f"RankSVM C = {p['ranker_C']}; bootstrap {report['bootstrap']} resamples, seed {report['seed']}.",
        "Rows `VARIANT/mode`: `listwise` = trained on the other folds' summaries and their coherence "
        "scores; `permutation` = trained on the other folds' source articles vs 20 permutations; "
        "`combined` = both; `:fluency` = listwise trained on fluency instead of coherence.\n",
        *headlines,
        corr_md,
        "**Pooled Pearson over all 1,600 summaries: raw / shifted log** (paper's transform)\n",
        table(["model", *HUMAN], log_rows), "",
        "**Permutation test** (held-out source articles vs 20 seeded permutations; accuracy % of "
        "pairs where the original scores strictly higher)\n",
        table(["variant", *MODES, "pairs"], perm_rows), "",
        throughput_line(report),
        machine_line(report["machine"]),
        "", "Signatures: " + "; ".join(f"`{k}`: `{v}`" for k, v in report["signatures"].items()),
    ]) + "\n"


def headline_table(report: dict, dim: str) -> str:
    """One human dimension's headline table: ρ and τ with CIs and permutation accuracy per model."""
    from evalcore.io.tables import table

    return table(["model/training", "summary ρ [95% CI]", "system τ [95% CI]", "permutation accuracy %"],
                 _headline_rows(report, dim))


def throughput_line(report: dict) -> str:
    """Summaries per second of fresh texts, peak memory and the run's total time."""
    sp = report["throughput"]
    return (f"Throughput: {sp['per_second']:.1f} summaries/s ({sp['summaries']} fresh SummEval summaries, "
            f"spaCy + discourse parser + DICOMER features + score, one process). "
            f"Peak RSS {report['peak_rss_mib']:.0f} MiB; total {report['seconds']:.0f} s.")


def _headline_rows(report: dict, dim: str) -> list[list[str]]:
    """README rows for one human dimension: the models trained on it (listwise, and for coherence
    also permutation/combined), then ROUGE-2 and length."""
    corr, perm = report["correlations"], report["permutation_test"]
    if dim == "coherence":
        names = [n for n in perm if not n.endswith(FLUENCY_SUFFIX)]
    else:
        names = [n for n in perm if n.endswith(FLUENCY_SUFFIX)]
    rows = []
    for name in [*names, "rouge-2", "length"]:
        s, t = corr["item"][dim][name]["spearman"], corr["system"][dim][name]["kendall"]
        acc = f"{perm[name]['accuracy'] * 100:.1f}" if name in perm else "-"
        rows.append([name, f"{s['value']:.3f} [{s['ci_low']:.2f}, {s['ci_high']:.2f}]",
                     f"{t['value']:.3f} [{t['ci_low']:.2f}, {t['ci_high']:.2f}]", acc])
    return rows
