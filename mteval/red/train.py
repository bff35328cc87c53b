"""`mteval tune red --out DIR`: REDp's parameters by the paper's procedure (RED §4: alternating
grid search over two subsets of parameters, objective = system-level Spearman + segment-level
Kendall, averaged over language pairs), on the WMT12 into-English rankings, and the honest test
of what it finds: folds grouped by segment (TESLA-F's folds, :mod:`mteval.tesla.train`), the grid
chosen on the training folds, Kendall on the held-out fold; RED and REDp with the paper's values,
sentence BLEU, chrF and METEOR on the same outputs in the same run.

Subsets (the paper does not list its own): 1 = alpha, w_fun, w_par on 0.1..0.9 step 0.1;
2 = w_stem, w_syn on 0.2..1.0 and w_1, w_2, w_3 on 0..1.0, step 0.2. w_exact stays at Table 1's
0.9: scaling the module and paraphrase weights together changes no ranking. The search starts
from Table 1. Kendall is the WMT12 variant (metric ties count against the metric); a system's
human score is its share of won comparisons (ties excluded), its metric score the mean over its
ranked outputs in the fold.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.io.tables import table
from evalcore.metric import Item
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import correlation_rows
from mteval.baselines.metric import Bleu, Chrf, Meteor
from mteval.data.wmt12 import Ranking, comparisons
from mteval.learn.pairwise import segment_folds
from mteval.learn.ranked import RankedSet, load_ranked_set
from mteval.learn.report import (
    baseline_scores,
    beats,
    cv_intro,
    kendall_by_pair,
    kendall_markdown,
    kendall_report,
    publish,
)
from mteval.red.metric import TABLE1, Red, RedP
from mteval.red.score import Weights, values

PARAMS = ("alpha", "w_fun", "w_exact", "w_stem", "w_syn", "w_par", "w_1", "w_2", "w_3")
FINE = tuple(round(0.1 * k, 1) for k in range(1, 10))
MODULE = tuple(round(0.2 * k, 1) for k in range(1, 6))
NGRAM = tuple(round(0.2 * k, 1) for k in range(0, 6))
SUBSETS = ({"alpha": FINE, "w_fun": FINE, "w_par": FINE},
           {"w_stem": MODULE, "w_syn": MODULE, "w_1": NGRAM, "w_2": NGRAM, "w_3": NGRAM})
START = {**{k: v for k, v in TABLE1.items() if k != "weights"}, **dict(zip(("w_1", "w_2", "w_3"), TABLE1["weights"]))}
CHUNK = 128
MAIN = "redp tuned (cv)"
TABLE1_ROW = "redp (table 1)"


def weights_of(settings: Sequence[dict[str, float]]) -> Weights:
    """The :class:`Weights` rows of parameter dicts (keys :data:`PARAMS`)."""
    m = np.array([[s[p] for p in PARAMS] for s in settings], dtype=float)
    return Weights(m[:, 0], m[:, 1], m[:, 2:5], m[:, 5], m[:, 6:9])


def output_values(stats: np.ndarray, owner: np.ndarray, n_outputs: int, w: Weights) -> np.ndarray:
    """(settings x outputs) values: the mean over each output's reference rows."""
    per_row = values(stats, w)
    summed = np.zeros((per_row.shape[0], n_outputs))
    np.add.at(summed.T, owner, per_row.T)
    return summed / np.bincount(owner, minlength=n_outputs)[None, :]


@dataclass
class Objective:
    """System Spearman + segment Kendall (WMT12 variant) per pair, averaged, for many settings at once."""

    better: np.ndarray
    worse: np.ndarray
    pair_of_comparison: np.ndarray
    members: np.ndarray  # (outputs x systems) 1/|outputs of the system| for the outputs that count
    human: list[np.ndarray]  # per pair: human system scores
    columns: list[np.ndarray]  # per pair: its system columns
    n_pairs: int

    @classmethod
    def build(cls, data: RankedSet, rankings: Sequence[Ranking]) -> Objective:
        index = data.index()
        pairs = list(dict.fromkeys(r.pair for r in rankings))
        better, worse, pid = [], [], []
        wins: dict[tuple[str, str], list[int]] = {}
        for p, pair in enumerate(pairs):
            for c in comparisons(r for r in rankings if r.pair == pair):
                if not c.human:
                    continue
                win, lose = (c.a, c.b) if c.human > 0 else (c.b, c.a)
                better.append(index[(pair, c.segment, win)])
                worse.append(index[(pair, c.segment, lose)])
                pid.append(p)
                wins.setdefault((pair, win), [0, 0])[0] += 1
                for s in (win, lose):
                    wins.setdefault((pair, s), [0, 0])[1] += 1
        systems = sorted(wins)
        col = {s: k for k, s in enumerate(systems)}
        segments = {(r.pair, r.segment) for r in rankings}
        members = np.zeros((len(data.keys), len(systems)))
        for k, (pair, seg, system) in enumerate(data.keys):
            if (pair, seg) in segments and (pair, system) in col:
                members[k, col[(pair, system)]] = 1.0
        members /= np.maximum(members.sum(axis=0, keepdims=True), 1.0)
        columns = [np.array([col[s] for s in systems if s[0] == pair]) for pair in pairs]
        human = [np.array([wins[s][0] / wins[s][1] for s in systems if s[0] == pair]) for pair in pairs]
        return cls(np.array(better), np.array(worse), np.array(pid), members, human, columns, len(pairs))

    def __call__(self, v: np.ndarray) -> np.ndarray:
        """Objective of every row of (settings x outputs) values."""
        agree = np.where(v[:, self.better] > v[:, self.worse], 1.0, -1.0)
        tau = np.stack([agree[:, self.pair_of_comparison == p].mean(axis=1) for p in range(self.n_pairs)], axis=1)
        system = v @ self.members
        rho = np.zeros_like(tau)
        for p, (cols, human) in enumerate(zip(self.columns, self.human)):
            humans = np.broadcast_to(human, (len(system), len(human)))
            rho[:, p] = np.nan_to_num(correlation_rows(system[:, cols], humans, "spearman"))
        return (tau + rho).mean(axis=1)


def grid_search(stats: np.ndarray, owner: np.ndarray, n_outputs: int, objective: Objective,
                iterations: int = 2, start: dict[str, float] | None = None) -> tuple[dict[str, float], float]:
    """The paper's alternating search: each subset's grid with the other parameters fixed, in turn."""
    best, score = dict(start or START), -np.inf
    for _ in range(iterations):
        for subset in SUBSETS:
            names = list(subset)
            settings = [{**best, **dict(zip(names, combo))} for combo in itertools.product(*subset.values())]
            for lo in range(0, len(settings), CHUNK):
                part = settings[lo:lo + CHUNK]
                obj = objective(output_values(stats, owner, n_outputs, weights_of(part)))
                k = int(np.argmax(obj))
                if obj[k] > score + 1e-12:
                    best, score = part[k], float(obj[k])
    return best, score


def statistics(metric: RedP | Red, data: RankedSet, log: Callable[[str], None], chunk: int = 500):
    """(rows x N_STATS) statistics of every output's references and the output each row belongs to."""
    rows: list[np.ndarray] = []
    owner: list[int] = []
    start = time.perf_counter()
    for lo in range(0, len(data.items), chunk):
        part = data.items[lo:lo + chunk]
        for k, s in enumerate(metric.statistics([Item(hyp, refs) for refs, hyp in part])):
            rows.extend(s)
            owner.extend([lo + k] * len(s))
        log(f"{metric.name} statistics: {lo + len(part)}/{len(data.items)} outputs "
            f"({(lo + len(part)) / (time.perf_counter() - start):.1f}/s)")
    return np.array(rows), np.array(owner)


def run(out: Path, data_root: Path | None = None, max_segments: int = 0, folds: int = 5, iterations: int = 2,
        n_boot: int = 1000, seed: int = 0, log: Callable[[str], None] = print) -> dict:
    """Tune on each training fold, score its held-out fold, tune once more on all rankings (the
    values to use elsewhere, never tested here); write ``red_tune.md``/``.json`` into ``out``."""
    started = time.perf_counter()
    root = (data_root or shared_data_dir()) / "mt" / "wmt12"
    data = load_ranked_set(root, max_segments=max_segments, seed=seed)
    redp = RedP()
    stats, owner = statistics(redp, data, log)
    n = len(data.keys)
    fold_of = segment_folds(data.keys, folds, seed)
    key_fold = np.array([fold_of[k[1]] for k in data.keys])
    tuned = np.full(n, np.nan)
    chosen = []
    for f in range(folds):
        train = [r for r in data.rankings if fold_of[r.segment] != f]
        best, score = grid_search(stats, owner, n, Objective.build(data, train), iterations)
        chosen.append({"fold": f, "objective": score, **best})
        tuned[key_fold == f] = output_values(stats, owner, n, weights_of([best]))[0, key_fold == f]
        log(f"fold {f}: objective {score:.4f} on training folds; " + ", ".join(f"{k} {v:g}" for k, v in best.items()))
    final, final_score = grid_search(stats, owner, n, Objective.build(data, data.rankings), iterations)
    rows = {MAIN: tuned,
            TABLE1_ROW: output_values(stats, owner, n, weights_of([START]))[0]}
    red_stats, red_owner = statistics(Red(), data, log)
    rows["red"] = output_values(red_stats, red_owner, n, Red().setting())[0]
    for metric in (Bleu(), Chrf(), Meteor()):
        rows[metric.name] = baseline_scores(metric, data)
    report, pairs = kendall_report(root, data, rows, MAIN, "tuned_beats", (Red(), RedP()), folds, n_boot, seed,
                                   max_segments, iterations=iterations,
                                   grid={k: list(v) for s in SUBSETS for k, v in s.items()}, start=START,
                                   fold_choices=chosen, tuned_on_all={"objective": final_score, **final})
    table1 = {k: kendall_by_pair(data, rows[k]) for k in (TABLE1_ROW, "red", "bleu")}
    report["table1_beats"] = beats(table1, TABLE1_ROW, n_boot, seed)
    everything = Objective.build(data, data.rankings)
    report["system_spearman"] = {label: _spearman_by_pair(everything, v, pairs) for label, v in rows.items()}
    out.mkdir(parents=True, exist_ok=True)
    (out / "red_tuned_values.json").write_text(json.dumps(report["tuned_on_all"], indent=2) + "\n", "utf-8")
    return publish(out, "red_tune", report, started, lambda r: markdown(r, pairs), log)


def _spearman_by_pair(objective: Objective, v: np.ndarray, pairs: Sequence[str]) -> dict[str, float]:
    """System-level Spearman per pair (and averaged) of one row of output values (NaN outputs: 0)."""
    system = np.nan_to_num(v)[None, :] @ objective.members
    out = {p: float(correlation_rows(system[:, cols], human[None, :], "spearman")[0])
           for p, cols, human in zip(pairs, objective.columns, objective.human)}
    out["average"] = float(np.mean(list(out.values())))
    return out


def markdown(report: dict, pairs: Sequence[str]) -> str:
    """The report's tables: Kendall per variant, the tuned rows' wins, system Spearman, the choices."""
    out = cv_intro("RED/REDp tuned by grid search, cross-validated on WMT12 into English (`mteval tune red --out DIR`)",
                   report, pairs, f". `{MAIN}`: out-of-fold values ({report['folds']} folds grouped by segment, seed "
                                  f"{report['seed']}; grid chosen on the training folds, {report['iterations']} "
                                  f"alternations); the other rows use fixed values (RED untuned, REDp Table 1).",
                   pooled_average=False)
    out += kendall_markdown(report["kendall"], report["tuned_beats"], pairs, MAIN)
    out += [f"### Share of resamples in which {TABLE1_ROW} beats the row (WMT12 variant / ties excluded)", "",
            table(["row", *pairs], [[other, *(f"{b['wmt12'][p]:.3f} / {b['no-ties'][p]:.3f}" for p in pairs)]
                                    for other, b in report["table1_beats"].items()]), ""]
    out += ["### System level: Spearman of mean scores over the ranked outputs with the human win ratio (no CI)", "",
            table(["metric", *pairs, "average"],
                  [[label, *(f"{s[p]:.3f}" for p in [*pairs, "average"])]
                   for label, s in report["system_spearman"].items()]),
            "",
            "### Values chosen (per training fold, and on all rankings: the latter never tested here)", "",
            table(["fold", "objective", *PARAMS],
                  [[str(c.get("fold", "all")), f"{c['objective']:.4f}", *(f"{c[p]:g}" for p in PARAMS)]
                   for c in [*report["fold_choices"], report["tuned_on_all"]]]), ""]
    return "\n".join(out)


__all__ = ["Objective", "grid_search", "run"]
