"""The benchmark: Twitter-Para 5-fold CV grouped by original (PEM with and without controls,
each component, BLEU/chrF/TER/ROUGE-L), STS-B test adequacy check, speed, table build time."""

from __future__ import annotations

import json
import platform
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from benchmarks.parapeval.baselines import baseline_scores
from benchmarks.parapeval.speed import run_speed, speed_markdown
from evalcore.bpng import PhraseTableStore
from evalcore.resources import defaults
from evalcore.resources.phrase_table import build_phrase_table
from evalcore.resources.phrase_table.bitext import read_parallel_files
from evalcore.resources.registry import ResourceError, shared_data_dir
from evalcore.stats.correlation import correlations, grouped_correlation
from parapeval.data import read_sts_test, read_twitter_para, source_folds, twitter_para_path
from parapeval.pem.metric import PEMFeatures
from parapeval.pem.train import controls_for, feature_matrix, fit_pem

SHARED_BITEXTS = {"fr": ("en-fr", ".eng", ".fra"), "de": ("de-en", ".eng", ".deu")}


def _shared_table(pivot: str, log: Callable[[str], None]) -> Path:
    """A phrase table of all of ../shared/data/parallel/<pair> (tests/benchmarks only), cached."""
    path = defaults.resource_dir() / "bench" / f"shared-{pivot}.sqlite"
    if path.is_file():
        return path
    folder, e_ext, f_ext = SHARED_BITEXTS[pivot]
    base = shared_data_dir() / "parallel" / folder
    pairs = []
    for e_file in sorted(base.glob(f"*{e_ext}")):
        f_file = e_file.with_suffix(f_ext)
        if f_file.is_file():
            try:
                pairs.extend(read_parallel_files(e_file, f_file))
            except ValueError as exc:
                log(f"skipping {e_file.name}: {exc}")
    return build_phrase_table(pairs, pivot, path, f"shared-{folder}", log=log)


GOOD_PARAPHRASE = 0.8  # Twitter-Para human score (0-1) from which a candidate counts as a genuine rewording


def _cv_predictions(X: np.ndarray, y: np.ndarray, pairs, folds: list[int], features: PEMFeatures | None,
                    log: Callable[[str], None], X_copy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold PEM predictions of the pairs and of each pair's verbatim copy (row ``i`` of
    ``X_copy`` = features of (original_i, original_i)); with ``features`` the training folds get
    the paper's controls."""
    pred, copy_pred = np.zeros(len(y)), np.zeros(len(y))
    folds_arr = np.array(folds)
    for k in range(5):
        train, test = np.where(folds_arr != k)[0], np.where(folds_arr == k)[0]
        Xtr, ytr, groups = X[train], y[train], [pairs[i].original for i in train]
        if features is not None:
            ctl = controls_for([pairs[i] for i in train], float(y.min()), float(y.max()), seed=k)
            Xc, _ = feature_matrix(features, [(c.original, c.paraphrase) for c in ctl])
            Xtr = np.vstack([Xtr, Xc])
            ytr = np.concatenate([ytr, [c.score for c in ctl]])
            groups = groups + [c.original for c in ctl]
        model = fit_pem(Xtr, ytr, groups)
        pred[test] = model.predict(X[test])
        copy_pred[test] = model.predict(X_copy[test])
        log(f"  fold {k}: {model.best_params_}")
    return pred, copy_pred


def _good_above_copy(pred: np.ndarray, copy_pred: np.ndarray, y: np.ndarray) -> float:
    """Share of genuine rewordings (human >= GOOD_PARAPHRASE) that PEM scores above the verbatim
    copy of their original: the paper's definition of a good paraphrase, measured out of fold."""
    good = y >= GOOD_PARAPHRASE
    return float(np.mean(pred[good] > copy_pred[good]))


def _grid(header: list[str], rows: list[list]) -> str:
    def fmt(v):
        return f"{v:.4f}" if isinstance(v, float) else str(v)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _table(title: str, body: str) -> str:
    return f"### {title}\n\n{body}\n"


def twitter_para_table(results: dict) -> str:
    """Every PEM configuration, component and baseline against Twitter-Para's human scores."""
    rows = [[name, c["pearson"], c["spearman"], c["kendall"], c["mean_per_source_pearson"],
             f"{100 * c['good_above_copy']:.1f}" if "good_above_copy" in c else "-"]
            for name, c in results["twitter_para"].items()]
    return _grid(["metric", "Pearson", "Spearman", "Kendall", "per-source r", "good > copy %"], rows)


def sts_table(results: dict, per_pivot: bool = True) -> str:
    """Pivot F1 per table set (each pivot's too unless ``per_pivot`` is false), target n-gram F1 and
    BLEU against STS-B test similarity."""
    rows = [[name, c["pearson"], c["spearman"]] for name, c in results["sts_b_test"].items()
            if per_pivot or not name.startswith("pivot F1 ") or name.startswith("pivot F1 mean ")]
    return _grid(["feature", "Pearson", "Spearman"], rows)


def build_table(results: dict) -> str:
    """Each phrase table's bitext size and build time, as its store records them."""
    return _grid(["table", "bitext", "sentences", "English words", "seconds", "s per million words"],
                 results["phrase_table_build"])


def run_bench(data: Path | None, out: Path, features: PEMFeatures, log: Callable[[str], None],
              extra_tables: Mapping[str, str] | None = None, speed_params: dict | None = None,
              speed_pairs: int = 2000, repeats: int = 3) -> dict:
    """Run every benchmark, write ``out``/bench.md and bench.json, return the numbers; the speed
    table times PEM configured by ``speed_params`` (:mod:`benchmarks.parapeval.speed`)."""
    try:
        tw_path = twitter_para_path(data)
        sts = read_sts_test(data)
    except ResourceError as exc:
        raise ResourceError(f"benchmark data missing: {exc}") from exc
    out.mkdir(parents=True, exist_ok=True)
    pairs = read_twitter_para(tw_path)
    y = np.array([p.score for p in pairs])
    folds = source_folds(pairs)
    groups = [p.original for p in pairs]
    texts = [(p.original, p.paraphrase) for p in pairs]
    results: dict = {"signature": features.signature(),
                     "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, Python "
                                f"{platform.python_version()}",
                     "data": str(tw_path), "pairs": len(pairs)}

    configs: dict[str, PEMFeatures] = {"default": features}
    if features.discount is None:
        configs["default, fw discount 0.1"] = PEMFeatures(features.tables, features.lm, discount=0.1)
    shared = {p: _shared_table(p, log) for p in SHARED_BITEXTS}
    for name, spec in (extra_tables or {}).items():
        pivot, _, path = spec.partition(":")
        shared[f"{name}"] = Path(path)
    configs["shared-parallel (fr,de)"] = PEMFeatures({p: PhraseTableStore(shared[p]) for p in SHARED_BITEXTS},
                                                     features.lm)
    configs["default + shared"] = PEMFeatures({**features.tables,
                                               **{f"{p}-shared": PhraseTableStore(t) for p, t in shared.items()}},
                                              features.lm)

    rows, corr_json = [], {}
    for cname, feats in configs.items():
        log(f"Twitter-Para features with {cname} tables ({len(pairs)} pairs)")
        X, piv = feature_matrix(feats, texts, progress=True)
        row_of = {o: k for k, o in enumerate(dict.fromkeys(o for o, _ in texts))}
        X_orig, _ = feature_matrix(feats, [(o, o) for o in row_of])
        X_copy = X_orig[[row_of[o] for o, _ in texts]]
        if cname == "default":
            X_default, piv_default = X, piv
        for label, ctl in (("PEM (CV, no controls)", None), ("PEM (CV, controls)", feats)):
            log(f" {cname}: {label}")
            pred, copy_pred = _cv_predictions(X, y, pairs, folds, ctl, log, X_copy)
            name = f"{label} [{cname}]"
            c = correlations(pred, y)
            above = _good_above_copy(pred, copy_pred, y)
            rows.append([name, c["pearson"], c["spearman"], c["kendall"], grouped_correlation(pred, y, groups),
                         f"{100 * above:.1f}"])
            corr_json[name] = {**c, "mean_per_source_pearson": rows[-1][-2], "good_above_copy": above}
    comps = {"adequacy: mean pivot F1 [default]": X_default[:, 0], "fluency: LM score": X_default[:, 1],
             "target n-gram F1": X_default[:, 2]}
    for pivot in piv_default[0]:
        comps[f"pivot F1 {pivot} [default]"] = np.array([p[pivot] for p in piv_default])
    log("baselines (sacrebleu, rouge-score)")
    comps.update(baseline_scores(texts))
    for name, vals in comps.items():
        c = correlations(vals, y)
        rows.append([name, c["pearson"], c["spearman"], c["kendall"], grouped_correlation(vals, y, groups), "-"])
        corr_json[name] = {**c, "mean_per_source_pearson": rows[-1][-2]}
    results["twitter_para"] = corr_json

    log(f"STS-B test ({len(sts)} pairs)")
    sts_texts = [(p.original, p.paraphrase) for p in sts]
    sts_y = np.array([p.score for p in sts])
    sts_rows, sts_json = [], {}
    for cname in configs:
        feats = configs[cname]
        piv = [feats.pivot_scores(o, p) for o, p in sts_texts]
        for pivot in piv[0]:
            vals = np.array([d[pivot] for d in piv])
            c = correlations(vals, sts_y)
            sts_rows.append([f"pivot F1 {pivot} [{cname}]", c["pearson"], c["spearman"]])
            sts_json[sts_rows[-1][0]] = c
        c = correlations(np.array([np.mean(list(d.values())) for d in piv]), sts_y)
        sts_rows.append([f"pivot F1 mean [{cname}]", c["pearson"], c["spearman"]])
        sts_json[sts_rows[-1][0]] = c
    tgt = np.array([features.target_score(o, p) for o, p in sts_texts])
    for name, vals in (("target n-gram F1", tgt), ("BLEU", baseline_scores(sts_texts)["BLEU"])):
        c = correlations(vals, sts_y)
        sts_rows.append([name, c["pearson"], c["spearman"]])
        sts_json[name] = c
    results["sts_b_test"] = sts_json

    log("speed")
    speed = run_speed(texts[:speed_pairs], speed_params, repeats, log=log)
    build_rows = []
    for name, table in {**{p: t for p, t in features.tables.items()},
                        **{f"{p}-shared": PhraseTableStore(t) for p, t in shared.items()}}.items():
        meta = table.meta if isinstance(table, PhraseTableStore) else {}
        if "build_seconds" in meta:
            secs, words = float(meta["build_seconds"]), int(meta["english_words"])
            build_rows.append([name, meta["name"], int(meta["sentences"]), words, secs, secs / words * 1e6])
    results["speed"] = speed
    results["phrase_table_build"] = build_rows

    md = [f"# python -m benchmarks parapeval\n\nsignature: `{results['signature']}`  \nmachine: {results['machine']}, "
          f"2 cores shared  \nTwitter-Para: {len(pairs)} candidates, 5-fold CV grouped by original "
          "(fold = index of sorted source mod 5), out-of-fold predictions\n",
          _table("Twitter-Para: correlation with human scores (all candidates; per-source r: mean per-source "
                 f"Pearson; good > copy: share of candidates with human score >= {GOOD_PARAPHRASE} that PEM scores "
                 "above the verbatim copy of their original, out of fold)", twitter_para_table(results)),
          _table("STS-B test: adequacy signal (correlation with 0-5 similarity)", sts_table(results)),
          speed_markdown(speed),
          _table("Phrase-table build (eflomal both ways + gdfa + extraction + store)", build_table(results))]
    (out / "bench.md").write_text("\n".join(md), "utf-8")
    (out / "bench.json").write_text(json.dumps(results, indent=2), "utf-8")
    print("\n".join(md))
    return results
