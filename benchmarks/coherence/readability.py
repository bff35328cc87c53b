"""`python -m benchmarks readability`: ``readability`` and CREMER against people, leaving one judged
set out at a time, with the plainest baselines in the same run.

Judged sets (:mod:`coherence.readability.data`): SummEval (coherence, fluency), DialSummEval
(coherence, fluency), WebNLG+ 2020 (fluency, text structure); ``readability`` = the mean of a set's
standardised dimensions. For each held-out set, the readability model is trained, and its feature
set and hyperparameters chosen, on the other sets only (:mod:`coherence.readability.train`); the
shipped model (trained on SummEval) is reported on the sets it never saw. Baselines: word count,
sentence count, the LM's log-probability per token, DICOMER, ROUGE-2 where references exist.
Statistics (:mod:`evalcore.stats`, as ``aesop-eval meta-evaluate`` computes them): per-input
Kendall tau-b (item level), pooled Pearson (global level) and system-level Kendall tau-b, each with
a BOOT-BOTH 95% interval and PERM-BOTH significance clusters.

CREMER (responsiveness = the mean of the four dimensions; SummEval and DialSummEval, the sets with
references): for each held-out set the readability weight is chosen on the other set, whose
readability scores come from a model that saw neither (WebNLG alone), and the held-out set is
scored with the readability model that never saw it; CREMER is set against TESLA-S at every level.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from benchmarks.harness import machine, machine_line, write_report
from evalcore.io.tables import table
from evalcore.resources.registry import shared_data_dir, usable_cache_dir
from evalcore.stats.leaderboard import Settings, leaderboard

LEVELS = (("item", "kendall-b", "per-input Kendall"), ("global", "pearson", "pooled Pearson"),
          ("system", "kendall-b", "system Kendall"))
BASELINES = ("words", "sentences", "lm-per-word", "dicomer", "rouge-2")
CHOSEN = "readability"
#: the feature set selection did not choose, as its row is named
OTHER = {"no-length": ("all", "readability+length"), "all": ("no-length", "readability-no-length")}
SHIPPED = "readability (shipped)"


def _baselines(name: str, judged, X: np.ndarray) -> dict[str, np.ndarray]:
    """The plain baselines of a set's texts (ROUGE-2 only where its items have references)."""
    from coherence.readability.features import NAMES
    from evalcore.metric import Item
    from evalcore.metric.registry import get_metric

    col = {n: i for i, n in enumerate(NAMES)}
    words = np.array([len(t.split()) for t in judged.texts], float)
    out = {"words": words, "sentences": np.nan_to_num(np.exp(X[:, col["log_sentences"]]), nan=0.0),
           "lm-per-word": X[:, col["lm_per_word"]]}
    dicomer = get_metric("dicomer").score_batch([Item(t, id=str(k)) for k, t in enumerate(judged.texts)])
    out["dicomer"] = np.array([r.value if r.ok else np.nan for r in dicomer])
    if all(it.references for it in judged.items):
        rouge = get_metric("rouge-2").score_batch([Item(it.summary, it.references) for it in judged.items])
        out["rouge-2"] = np.array([r.value if r.ok else np.nan for r in rouge])
    return out


def _boards(scores: dict[str, np.ndarray], data, dimensions, n_boot: int, seed: int) -> dict:
    """{level: {dimension: leaderboard rows}} of ``scores`` on ``data``'s human dimensions."""
    from coherence.readability.train import matrix

    mats = {n: matrix(v, data.systems, data.topics) for n, v in scores.items()}
    out: dict = {}
    for level, statistic, _ in LEVELS:
        settings = Settings(level, statistic, resample="both", test="perm-both", n_resamples=n_boot, seed=seed)
        out[level] = {d: leaderboard(mats, matrix(data.human[d], data.systems, data.topics), settings)
                      for d in dimensions}
    return out


def _cremer_folds(sets: dict, parts: dict, unseen: dict, n_boot: int, seed: int) -> dict:
    """Per held-out set (SummEval, DialSummEval): the weight chosen on the other set and the
    leaderboards of CREMER with that weight, TESLA-S and ROUGE-2 on the mean of the four dimensions;
    ``unseen``: each set's readability scores from the leave-one-set-out model that never saw it."""
    from coherence.readability.train import train
    from summeval.cremer.combination import choose_weight, combine
    from summeval.cremer.train import summary_criterion

    out = {}
    for held, other in (("summeval", "dialsummeval"), ("dialsummeval", "summeval")):
        neither = [s for n, s in sets.items() if n not in (held, other)]
        chooser, _ = train(neither, parts["feature_set"])
        p_other = {**parts[other], "readability": chooser.decision_function(sets[other].X)}

        def on_other(name: str, values: np.ndarray, part: dict = p_other) -> float:
            return summary_criterion(values, part)

        weight, gains = choose_weight({other: (p_other["tesla"], p_other["readability"], p_other["topics"])},
                                      on_other)
        p = parts[held]
        combined = combine(p["tesla"], unseen[held]["scores"], p["topics"], weight)
        scores = {"cremer (weight from the other set)": combined,
                  "tesla-s": p["tesla"], "rouge-2": p["rouge-2"]}
        out[held] = {"weight": weight, "chosen_on": other, "gains": gains,
                     "boards": _boards(scores, sets[held], ("mean",), n_boot, seed)}
    return out


def run(data: Path | None, out: Path, n_boot: int = 1000, seed: int = 0) -> dict:
    from coherence.readability.data import SETS, load_set
    from coherence.readability.extract import Extractor
    from coherence.readability.metric import load_readability_model
    from coherence.readability.train import SetFeatures, choose_feature_set, leave_one_set_out, set_features
    from evalcore.metric import Item
    from summeval.cremer.metric import load_weighted
    from summeval.tesla_s.metric import TeslaS

    start = time.perf_counter()
    root = data or shared_data_dir()
    extractor = Extractor("auto")
    judged = {name: load_set(name, root) for name in SETS}
    sets = {name: set_features(name, root, extractor, usable_cache_dir("readability")) for name in SETS}
    chosen, selection = choose_feature_set(list(sets.values()))
    folds = {fs: leave_one_set_out(list(sets.values()), fs) for fs in ("all", "no-length")}
    shipped, info = load_readability_model(None)
    report: dict = {"data": str(root), "machine": machine(), "bootstrap": n_boot, "seed": seed,
                    "feature_set": chosen, "selection": selection, "shipped": {
                        "trained_on": info["sets"], "params": info["params"], "weights": info["weights"]},
                    "sets": {}}
    parts: dict = {"feature_set": chosen}
    for name, data_ in list(sets.items()):
        base = _baselines(name, judged[name], data_.X)
        other, other_row = OTHER[chosen]
        scores = {CHOSEN: folds[chosen][name]["scores"], other_row: folds[other][name]["scores"], **base}
        if name not in info["sets"]:
            scores[SHIPPED] = shipped.decision_function(data_.X)
        dims = (*judged[name].dimensions, "readability")
        report["sets"][name] = {
            "n_texts": len(data_.X), "n_inputs": len(set(data_.topics.tolist())),
            "n_systems": len(set(data_.systems.tolist())), "dimensions": list(dims),
            "weights": {fs: folds[fs][name]["weights"] for fs in folds},
            "params": {fs: folds[fs][name]["params"] for fs in folds},
            "boards": _boards(scores, data_, dims, n_boot, seed)}
        if "rouge-2" in base:
            items = judged[name].items
            tesla = np.array([r.value for r in TeslaS().score_batch([Item(i.summary, i.references) for i in items])])
            parts[name] = {"tesla": tesla, "rouge-2": base["rouge-2"], "topics": data_.topics,
                           "systems": data_.systems, "human": np.array([i.human["mean"] for i in items])}
            sets[name] = SetFeatures(name, data_.X, data_.topics, data_.systems,
                                     {**data_.human, "mean": parts[name]["human"]})
    report["cremer"] = _cremer_folds(sets, parts, folds[chosen], n_boot, seed)
    report["cremer_shipped"] = {"weight": load_weighted(None)[0]["weight"]}
    report["seconds"] = time.perf_counter() - start
    md = _markdown(report)
    write_report(out, "readability", md, report)
    print(md)
    return report


def _cell(row: dict) -> str:
    if row["undefined"]:
        return row["undefined"]
    return f"{row['value']:.3f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}] #{row['cluster']}"


def set_table(report: dict, name: str) -> str:
    """One held-out set: every metric at the three levels for each dimension (value, BOOT-BOTH
    interval, PERM-BOTH cluster)."""
    s = report["sets"][name]
    out = []
    for level, statistic, label in LEVELS:
        boards = s["boards"][level]
        dims = list(boards)
        cells = {(r["metric"], d): r for d in dims for r in boards[d]}
        names = [r["metric"] for r in boards["readability"]]
        rows = [[m, *(_cell(cells[(m, d)]) for d in dims)] for m in names]
        out.append(f"**{label}** ({level} level, {statistic}), ranked on `readability`:\n\n"
                   + table(["metric", *dims], rows) + "\n")
    return (f"{s['n_systems']} systems x {s['n_inputs']} inputs ({s['n_texts']} texts).\n\n" + "\n".join(out))


def fold_table(report: dict) -> str:
    """Per held-out set: the chosen model (trained on the other sets) against word count and
    DICOMER at summary level, on the ``readability`` target."""
    rows = []
    for name, s in report["sets"].items():
        for level, _, label in LEVELS[:2]:
            value = {r["metric"]: r for r in s["boards"][level]["readability"]}
            mine = value[CHOSEN]["value"]
            rows.append([name, label, f"{mine:.3f}", f"{value[OTHER[report['feature_set']][1]]['value']:.3f}",
                         f"{value['words']['value']:.3f}", f"{value['dicomer']['value']:.3f}",
                         "yes" if mine > value["words"]["value"] and mine > value["dicomer"]["value"] else "NO"])
    return table(["held out", "statistic", f"readability ({report['feature_set']})", OTHER[report["feature_set"]][1],
                  "word count", "DICOMER", "above both"], rows)


def weights_table(report: dict) -> str:
    """The weight of every feature (on its standardised value) in each held-out fold's model of
    the chosen feature set, and in the shipped model."""
    chosen = report["feature_set"]
    folds = {n: s["weights"][chosen] for n, s in report["sets"].items()}
    names = list(report["shipped"]["weights"])
    rows = [[f, *(f"{folds[n].get(f, 0.0):+.3f}" for n in folds), f"{report['shipped']['weights'][f]:+.3f}"]
            for f in names]
    return table(["feature", *(f"without {n}" for n in folds), "shipped (SummEval)"], rows)


def cremer_table(report: dict) -> str:
    """CREMER against TESLA-S on each held-out set, at every level."""
    rows = []
    for held, fold in report["cremer"].items():
        for level, _, label in LEVELS:
            value = {r["metric"]: r for r in fold["boards"][level]["mean"]}
            c = value["cremer (weight from the other set)"]
            t = value["tesla-s"]
            rows.append([held, f"{fold['weight']:g} (on {fold['chosen_on']})", label, _cell(c), _cell(t),
                         _cell(value["rouge-2"]), "at or above" if c["value"] >= t["value"] else "BELOW"])
    return table(["held out", "weight (chosen on)", "statistic", "cremer", "tesla-s", "rouge-2", "cremer vs tesla-s"],
                 rows)


def setup_line(report: dict) -> str:
    return (f"Data: `{report['data']}`. Feature set chosen by leave-one-set-out: `{report['feature_set']}`. "
            f"BOOT-BOTH {report['bootstrap']} resamples (seed {report['seed']}); `#k` = PERM-BOTH cluster "
            f"(alpha 0.05). Shipped CREMER weight: {report['cremer_shipped']['weight']:g}. "
            f"{machine_line(report['machine'])}; {report['seconds']:.0f} s.")


def _markdown(report: dict) -> str:
    parts = ["## readability: leave one judged set out\n", setup_line(report), "",
             "### Summary level against word count and DICOMER (target: readability)\n", fold_table(report), "",
             "### Feature weights per held-out fold\n", weights_table(report), ""]
    for name in report["sets"]:
        parts += [f"### Held out: {name}\n", set_table(report, name), ""]
    parts += ["### CREMER against TESLA-S (mean of the four dimensions)\n", cremer_table(report), ""]
    return "\n".join(parts)
