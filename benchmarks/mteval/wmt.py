"""`python -m benchmarks wmt12`, `python -m benchmarks mqm` (and `wmt`, both in one report): MT metrics against
WMT human judgments, baselines in the same run, Markdown + JSON + a PNG plot per judgment kind.

- WMT12 (8 pairs, 5-way relative rankings): segment-level Kendall's tau in the WMT12 variant
  (metric ties penalised) and with metric ties excluded; system level = Spearman and Pearson of
  corpus scores with the human win ratio. Every ranked system is scored on a seeded sample of
  the ranked segments (``DEFAULT_SEGMENTS``), so system scores share one segment set.
- WMT21 MQM (en-de, zh-en; reference A): segment-level Kendall tau-b and Pearson, no grouping and
  per segment; system level Pearson/Kendall of corpus scores with mean MQM over the rated
  segments; without the ``ref-*`` rows (the headline) and, where their text exists, with them.

Bootstrap CIs (seeded) resample segments; "A>B" figures are the share of the same resamples in
which metric A correlates better than B. Each metric is timed alone (segments per second). A
metric that fails to load, or fails on segments, is reported, never dropped.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.harness import machine, machine_line, source_commit, write_report
from benchmarks.mteval.plots import kendall_plot
from evalcore.io.tables import table
from evalcore.io.textfiles import InputError
from evalcore.metric import Item, Metric, Score
from evalcore.metric.batch import score_with
from evalcore.metric.registry import declared_options, get_metric, registered
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import correlate, paired_significance, resample_documents
from mteval.data import mqm, wmt12
from mteval.data.testset import TestSet
from mteval.metaeval import (
    KendallCounts,
    average_kendall,
    corpus_statistics,
    kendall_beats,
    kendall_counts,
    orientation,
    sample_segments,
    system_correlations,
    win_counts,
    wmt12_kendall,
)
from mteval.registry import BASELINES

#: segments per pair the default run scores (seeded sample; --max-segments 0 = all): with every
#: ranked system scored on each, 10,300 WMT12 items (103 systems x 100) and 3,600 MQM items, which
#: keeps the whole bench (TESLA-M/B/F and sacrebleu's TER, ~10 ms a segment, included) within
#: about 15 minutes on 2 cores
DEFAULT_SEGMENTS = {"wmt12": 100, "mqm": 200}
MQM_PAIRS = ("mqm-en-de", "mqm-zh-en")
INTO_ENGLISH = ("cs-en", "de-en", "es-en", "fr-en")
TRAINED_NOTE = ("trained on these rankings (the shipped model's header): its segment-grouped cross-validated "
                "figures come from `mteval train {name} --cv-report DIR`")
#: baselines the metrics under study are tested against
AGAINST = ("bleu", "chrf")


@dataclass
class Scored:
    """One metric's scores of one pair's (segment, system) items, its time and its failures."""

    scores: dict[tuple[int, str], Score] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    items: int = 0


def not_by_default(package: str = "mteval") -> dict[str, str]:
    """The package's registered metrics a default run leaves out, and why, as each metric's facts
    say (``default`` and ``default_note``, opt-in configurations); each can still be asked for with -m."""
    out = {}
    for name in registered(package):
        metric = get_metric(name)
        if metric.is_opt_in():
            out[name] = "opt-in (a non-commercial model): ask for it with -m"
        elif not metric.default:
            out[name] = metric.default_note or "not in the default set: ask for it with -m"
    return out


def trained_here(metric: Metric, pair: str) -> bool:
    """Whether the metric's shipped model saw this WMT12 pair's rankings (its ``in_sample`` fact)."""
    return f"wmt12:{pair}" in metric.in_sample


def load_metrics(names: Sequence[str], language: str) -> tuple[list[Metric], dict[str, str]]:
    """Metrics configured for target ``language`` that load and validate, and for the others the
    reason (reported, never dropped)."""
    loaded, failed = [], {}
    for name in names:
        try:
            metric = get_metric(name, **declared_options(name, {"language": language}))
            metric.validate()
            loaded.append(metric)
        except Exception as exc:  # noqa: BLE001 - a metric that cannot load is a row of the report
            failed[name] = f"{type(exc).__name__}: {exc}"
    return loaded, failed


def score_pair(metrics: Sequence[Metric], testset: TestSet, segments: Sequence[int], systems: Sequence[str],
               jobs: int = 1) -> dict[str, Scored]:
    """Score every (segment, system) with each metric separately (so each is timed alone); a line
    that cannot be read is an error of every metric."""
    items, keys, unreadable = [], [], []
    for s in segments:
        for system in systems:
            out = testset.systems[system]
            bad = [f.errors[s - 1] for f in (out, *testset.references) if s - 1 in f.errors]
            if bad:
                unreadable.append("; ".join(bad))
                continue
            keys.append((s, system))
            items.append(Item(out.text(s - 1), tuple(r.text(s - 1) for r in testset.references),
                              testset.source.lines[s - 1], id=f"{testset.pair}:{system}:{s}"))
    result = {}
    for metric in metrics:
        start = time.perf_counter()
        rows = score_with([metric], items, jobs=jobs, key=lambda item: item.references)
        scored = Scored(seconds=time.perf_counter() - start, items=len(items), errors=list(unreadable))
        for key, row in zip(keys, rows):
            r = row[metric.name]
            if r.ok:
                scored.scores[key] = r
            else:
                scored.errors.append(str(r))
        result[metric.name] = scored
    return result


def _value(c) -> dict:
    return c.as_dict()


# --- WMT12 ---------------------------------------------------------------------------------------

def wmt12_pair(root: Path, pair: str, metrics: Sequence[Metric], rankings, limit: int, n_boot: int, seed: int,
               jobs: int) -> tuple[dict, dict[str, Scored], dict[str, KendallCounts]]:
    """One WMT12 pair: segment Kendall (both variants), system Spearman/Pearson, per metric."""
    comps = wmt12.comparisons(r for r in rankings if r.pair == pair)
    testset = wmt12.read_testset(root, pair)
    systems = sorted({s for c in comps for s in (c.a, c.b)})
    missing = [s for s in systems if s not in testset.systems]
    if missing:
        raise ValueError(f"WMT12 {pair}: ranked systems without output files: {', '.join(missing)}")
    segments = sample_segments({c.segment for c in comps if c.human}, limit, seed)
    chosen = set(segments)
    comps = [c for c in comps if c.segment in chosen]
    scored = score_pair(metrics, testset, segments, systems, jobs)
    wins, decided = win_counts(comps, segments, systems)
    out: dict = {"segments": len(segments), "segment_ids": segments, "systems": len(systems),
                 "comparisons": sum(1 for c in comps if c.human), "human_ties": sum(1 for c in comps if not c.human),
                 "metrics": {}}
    counts_by_metric = {}
    for metric in metrics:
        s = scored[metric.name]
        values = {k: v.value for k, v in s.scores.items()}
        counts = kendall_counts(comps, values, orientation(metric))
        counts_by_metric[metric.name] = counts
        stats = corpus_statistics(metric, [[s.scores.get((seg, sys)) for seg in segments] for sys in systems])
        corr, _, _ = system_correlations(stats, wins, decided, n_boot, seed, kinds=("spearman", "pearson"))
        out["metrics"][metric.name] = {
            "kendall_wmt12": _value(wmt12_kendall(counts, "wmt12", n_boot, seed)),
            "kendall_no_ties": _value(wmt12_kendall(counts, "no-ties", n_boot, seed)),
            "metric_ties": int(counts.ties.sum()), "unscored_comparisons": counts.unscored,
            "system": {k: _value(c) for k, c in corr.items()}}
    return out, scored, counts_by_metric


# --- MQM -----------------------------------------------------------------------------------------

def mqm_pair(root: Path, pair: str, metrics: Sequence[Metric], limit: int, n_boot: int, seed: int,
             jobs: int, versus: Sequence[tuple[str, str]] = ()) -> tuple[dict, dict[str, Scored]]:
    """One WMT21 MQM pair: segment and system level, without and with the ``ref-*`` systems."""
    testset = mqm.newstest_testset(root, pair, "A", with_references=True)
    human = mqm.newstest_scores(root, pair)
    rated = {s for s, _ in human}
    mt_systems = sorted(s for s in testset.systems if s in rated and not s.startswith("ref-"))
    ref_systems = sorted(s for s in testset.systems if s in rated and s.startswith("ref-"))
    segments = sample_segments([seg for seg in range(1, len(testset) + 1)
                                if all((s, seg) in human for s in mt_systems)], limit, seed)
    scored = score_pair(metrics, testset, segments, [*mt_systems, *ref_systems], jobs)
    out: dict = {"segments": len(segments), "systems": mt_systems, "reference_systems": ref_systems, "metrics": {}}
    resamples = resample_documents(len(segments), n_boot, seed) if n_boot else None
    for metric in metrics:
        entry = {}
        for label, systems in (("without_refs", mt_systems), ("with_refs", [*mt_systems, *ref_systems])):
            if label == "with_refs" and not ref_systems:
                continue
            entry[label] = _mqm_correlations(metric, scored[metric.name], human, segments, systems, resamples,
                                             n_boot, seed)
        out["metrics"][metric.name] = entry
    out["significance"] = _mqm_significance(metrics, scored, human, segments, mt_systems, resamples, versus)
    return out, scored


def _mqm_significance(metrics: Sequence[Metric], scored: dict[str, Scored], human: dict, segments: Sequence[int],
                      systems: Sequence[str], resamples, versus: Sequence[tuple[str, str]]) -> dict:
    """Share of segment resamples where metric a's Kendall beats metric b's, per (a, b) in ``versus``."""
    if resamples is None:
        return {}
    by_name = {m.name: m for m in metrics}
    mats = {n: mqm_matrices(m, scored[n], human, segments, systems) for n, m in by_name.items()}
    return {f"{a}>{b}": {g: paired_significance(mats[a][0], mats[b][0], mats[a][1], g, "kendall", resamples)
                         for g in ("none", "item")} for a, b in versus}


def mqm_matrices(metric: Metric, scored: Scored, human: dict, segments: Sequence[int],
                 systems: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(segments x systems) oriented metric values and MQM scores, NaN where missing."""
    sign = orientation(metric)
    m = np.array([[sign * scored.scores[(seg, s)].value if (seg, s) in scored.scores else np.nan
                   for s in systems] for seg in segments])
    h = np.array([[human.get((s, seg), np.nan) for s in systems] for seg in segments])
    return m, h


def _mqm_correlations(metric: Metric, scored: Scored, human: dict, segments: Sequence[int], systems: Sequence[str],
                      resamples, n_boot: int, seed: int) -> dict:
    m, h = mqm_matrices(metric, scored, human, segments, systems)
    out = {f"segment_{grouping}": {kind: _value(correlate(m, h, grouping, kind, resamples))
                                   for kind in ("kendall", "pearson")}
           for grouping in ("none", "item")}
    stats = corpus_statistics(metric, [[scored.scores.get((seg, s)) for seg in segments] for s in systems])
    rated = ~np.isnan(h)
    corr, _, _ = system_correlations(stats, np.where(rated, h, 0.0), rated.astype(float), n_boot, seed,
                                     kinds=("pearson", "kendall"))
    out["system"] = {k: _value(c) for k, c in corr.items()}
    return out


# --- the run -------------------------------------------------------------------------------------

def run(out: Path, data: Path | None = None, metrics: Sequence[str] | None = None, pairs: Sequence[str] | None = None,
        max_segments: int | None = None, n_boot: int = 1000, seed: int = 0, jobs: int = 1,
        baselines: Sequence[str] = BASELINES, log: Callable[[str], None] = print, command: str = "wmt") -> dict:
    """Run the benchmark; write ``COMMAND.md``, ``COMMAND.json`` and a plot per judgment kind
    (``wmt12-kendall.png``, ``mqm-kendall.png``) into ``out``; ``command`` is the bench command (``wmt12``,
    ``mqm``, ``wmt`` for both). Metrics are configured for each pair's target language
    (``language``, where a metric has that parameter)."""
    root = (data or shared_data_dir()) / "mt"
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: the WMT data folder is missing (see ../shared/data/mt/README.md)")
    left_out = not_by_default()
    default = [n for n in registered("mteval") if n not in baselines and n not in left_out]
    names = list(dict.fromkeys([*(metrics or default), *baselines]))
    pairs = list(pairs or [*wmt12.PAIRS, *MQM_PAIRS])
    unknown = [p for p in pairs if p not in wmt12.PAIRS and p not in MQM_PAIRS]
    if unknown:
        raise ValueError(f"unknown pair {unknown[0]!r}; choose from {', '.join([*wmt12.PAIRS, *MQM_PAIRS])}")
    limits = {k: v if max_segments is None else max_segments for k, v in DEFAULT_SEGMENTS.items()}
    report: dict = {"data": str(root), "machine": machine(), "commit": source_commit(), "bootstrap": n_boot,
                    "seed": seed, "signatures": {},
                    "failed_to_load": {}, "segments_per_pair": limits, "wmt12": {}, "mqm": {},
                    "not_run": {} if metrics else dict(left_out)}
    by_language: dict[str, list[Metric]] = {}
    speed: dict[str, list] = {}
    errors: dict[str, list[str]] = {}
    kendall: dict[str, dict[str, KendallCounts]] = {}
    versus: set[tuple[str, str]] = set()
    rankings = wmt12.read_rankings(root / "wmt12" / "wmt12.RNK_results.csv") if set(pairs) & set(wmt12.PAIRS) else []
    start = time.perf_counter()
    for pair in pairs:
        target = pair.rsplit("-", 1)[1]
        if target not in by_language:
            by_language[target], failed = load_metrics(names, target)
            for name, why in failed.items():
                report["failed_to_load"][f"{name} ({target})"] = why
                log(f"[bench wmt] {name} does not load for target {target}: {why}")
            for m in by_language[target]:
                report["signatures"].setdefault(m.name, {})[target] = str(m.signature())
        loaded = by_language[target]
        here = [m.name for m in loaded if not trained_here(m, pair)]
        pair_versus = [(a, b) for a in here if a not in baselines for b in AGAINST if b in here and b != a]
        versus.update(pair_versus)
        log(f"[bench wmt] {pair}: {', '.join(here)} ({time.perf_counter() - start:.0f} s)")
        if pair in wmt12.PAIRS:
            trained = [m.name for m in loaded if trained_here(m, pair)]
            for name in trained:
                report["not_run"][f"{name} ({pair})"] = TRAINED_NOTE.format(name=name)
            result, scored, counts = wmt12_pair(root / "wmt12", pair, [m for m in loaded if m.name not in trained],
                                                rankings, limits["wmt12"], n_boot, seed, jobs)
            for name, c in counts.items():
                kendall.setdefault(name, {})[pair] = c
            report["wmt12"][pair] = result
        else:
            result, scored = mqm_pair(root / "wmt21-mqm", pair.removeprefix("mqm-"), loaded, limits["mqm"], n_boot,
                                      seed, jobs, pair_versus)
            report["mqm"][pair] = result
        for name, s in scored.items():
            total = speed.setdefault(name, [0, 0.0])
            total[0] += s.items
            total[1] += s.seconds
            errors.setdefault(name, []).extend(s.errors)
    report["seconds"] = time.perf_counter() - start
    report["speed"] = {n: {"segments": k, "seconds": t, "segments_per_second": k / t if t else math.nan}
                       for n, (k, t) in speed.items()}
    report["errors"] = {n: {"count": len(e), "examples": e[:5]} for n, e in errors.items()}
    _averages_and_significance(report, list(speed), kendall, sorted(versus), n_boot, seed)
    report["bench"] = command
    plots = (kendall_plot(report, kind, out / f"{kind}-kendall.png") for kind in ("wmt12", "mqm"))
    report["plots"] = [p.name for p in plots if p is not None]
    md = markdown(report)
    write_report(out, command, md, report)
    log(md)
    return report


def _averages_and_significance(report: dict, names: Sequence[str], kendall: dict, versus: Sequence[tuple[str, str]],
                               n_boot: int, seed: int) -> None:
    """WMT12 averages (into English and all pairs) and A>B shares of the metrics under study vs
    BLEU and chrF."""
    averages: dict = {}
    for group, group_pairs in (("into-English", INTO_ENGLISH), ("all", wmt12.PAIRS)):
        present = [p for p in group_pairs if p in report["wmt12"]]
        if not present:
            continue
        averages[group] = {}
        for n in names:
            per_pair = {p: kendall[n][p] for p in present if p in kendall.get(n, {})}
            if len(per_pair) < len(present):  # an average over fewer pairs would not be comparable
                continue
            sys_rho = [report["wmt12"][p]["metrics"][n]["system"]["spearman"]["value"] for p in per_pair]
            averages[group][n] = {
                "kendall_wmt12": _value(average_kendall(per_pair, "wmt12", n_boot, seed)),
                "kendall_no_ties": _value(average_kendall(per_pair, "no-ties", n_boot, seed)),
                "system_spearman": float(np.nanmean(sys_rho)), "pairs": list(per_pair)}
    report["wmt12_average"] = averages
    sig = {f"{a}>{b}": {p: {v: kendall_beats(kendall[a][p], kendall[b][p], v, n_boot, seed)
                            for v in ("wmt12", "no-ties")}
                        for p in report["wmt12"] if p in kendall.get(a, {}) and p in kendall.get(b, {})}
           for a, b in versus}
    report["wmt12_significance"] = sig


# --- Markdown ------------------------------------------------------------------------------------

def _get(tree: dict, *keys) -> dict:
    """A nested entry, or {} where a metric has no result (it did not load for that pair)."""
    for key in keys:
        tree = tree.get(key, {}) if isinstance(tree, dict) else {}
    return tree


def _cell(entry: dict) -> str:
    v, lo, hi = entry.get("value"), entry.get("ci_low"), entry.get("ci_high")
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return f"{v:.3f}"
    return f"{v:.3f} [{lo:.2f}, {hi:.2f}]" + (" !" if entry.get("flags") else "")


KENDALL_TITLES = {"kendall_wmt12": "WMT12 segment level: Kendall's tau, WMT12 variant (metric ties penalised)",
                  "kendall_no_ties": "WMT12 segment level: Kendall's tau, metric ties excluded"}


def _rows(rows: list[list[str]]) -> list[list[str]]:
    """Rows with at least one value (a metric that ran nowhere in a table is left out of it)."""
    return [r for r in rows if any(c != "-" for c in r[1:])]


def _average_label(avg: dict, group: str) -> str:
    """The column title of an average: ``avg GROUP`` when it covers the group's every pair, else
    the pairs it covers (a run with ``--pairs`` averages only those)."""
    whole = {"into-English": INTO_ENGLISH, "all": wmt12.PAIRS}[group]
    covered = next((v["pairs"] for v in avg[group].values() if "pairs" in v), whole)
    return f"avg {group}" if len(covered) == len(whole) else f"avg {' + '.join(covered)}"


def _kendall_block(report: dict, key: str, metrics: Sequence[str] | None = None, pairs: Sequence[str] | None = None,
                   groups: Sequence[str] | None = None) -> list[str]:
    """Segment-level Kendall (``kendall_wmt12`` or ``kendall_no_ties``) per pair and averaged, for
    ``metrics`` (default: all, in run order), ``pairs`` and average ``groups`` (default: every one)."""
    avg = report.get("wmt12_average", {})
    pairs = [p for p in (pairs or report["wmt12"]) if p in report["wmt12"]]
    groups = [g for g in (avg if groups is None else groups) if g in avg]
    title = KENDALL_TITLES[key]
    head = ["metric", *pairs, *(_average_label(avg, g) for g in groups)]
    rows = [[n, *(_cell(_get(report["wmt12"], p, "metrics", n, key)) for p in pairs),
             *(_cell(_get(avg, g, n, key)) for g in groups)] for n in (metrics or list(report["speed"]))]
    return [f"**{title}** (95% CI)", "", table(head, _rows(rows)), ""]


def _comparisons_block(report: dict) -> list[str]:
    counts = [[p, str(r["segments"]), str(r["systems"]), str(r["comparisons"]), str(r["human_ties"])]
              for p, r in report["wmt12"].items()]
    return ["Human comparisons used (ties excluded from tau):", "",
            table(["pair", "segments", "systems", "decided comparisons", "human ties"], counts), ""]


def _system_block(report: dict, kind: str) -> list[str]:
    pairs = list(report["wmt12"])
    avg = report.get("wmt12_average", {})
    mean = kind == "spearman" and "all" in avg
    head = ["metric", *pairs] + ([_average_label(avg, "all")] if mean else [])
    rows = [[n, *(_cell(_get(report["wmt12"], p, "metrics", n, "system", kind)) for p in pairs)]
            + ([_cell({"value": _get(avg, "all", n).get("system_spearman")})] if mean else [])
            for n in report["speed"]]
    return [f"**WMT12 system level: {kind.capitalize()} with the human win ratio** (95% CI)", "",
            table(head, _rows(rows)), ""]


def _significance_block(report: dict) -> list[str]:
    pairs, sig = list(report["wmt12"]), report.get("wmt12_significance")
    if not sig:
        return []
    rows = [[k, *(f"{v[p]['wmt12']:.2f} / {v[p]['no-ties']:.2f}" if p in v else "-" for p in pairs)]
            for k, v in sig.items()]
    return ["**Share of segment resamples where A's tau beats B's** (WMT12 variant / ties excluded)", "",
            table(["A>B", *pairs], _rows(rows)), ""]


def _mqm_block(report: dict, pair: str, label: str) -> list[str]:
    r = report["mqm"][pair]
    if not any(label in e for e in r["metrics"].values()):
        return []
    systems = r["systems"] + (r["reference_systems"] if label == "with_refs" else [])
    head = ["metric", "seg τb (none)", "seg r (none)", "seg τb (per segment)", "seg r (per segment)",
            "system r", "system τb"]
    cells = (("segment_none", "kendall"), ("segment_none", "pearson"), ("segment_item", "kendall"),
             ("segment_item", "pearson"), ("system", "pearson"), ("system", "kendall"))
    rows = [[n, *(_cell(_get(r["metrics"], n, label, *c)) for c in cells)] for n in report["speed"]]
    refs = "ref-* rows excluded" if label == "without_refs" else f"with {', '.join(r['reference_systems'])}"
    return [f"**WMT21 MQM {pair.removeprefix('mqm-')}** (reference A; {r['segments']} rated segments x "
            f"{len(systems)} systems; {refs}; 95% CI)", "", table(head, _rows(rows)), ""]


def _mqm_significance_block(report: dict) -> list[str]:
    mqm_sig = {(k, p): v for p, r in report["mqm"].items() for k, v in r.get("significance", {}).items()}
    if not mqm_sig:
        return []
    rows = [[k, p.removeprefix("mqm-"), f"{v['none']:.2f}", f"{v['item']:.2f}"] for (k, p), v in mqm_sig.items()]
    return ["**MQM: share of segment resamples where A's Kendall beats B's** (without ref-* rows)", "",
            table(["A>B", "pair", "no grouping", "per segment"], rows), ""]


def _speed_block(report: dict) -> list[str]:
    rows = [[n, str(s["segments"]), f"{s['seconds']:.1f}", f"{s['segments_per_second']:.0f}",
             str(report["errors"][n]["count"])] for n, s in report["speed"].items()]
    return ["**Speed** (each metric timed alone, one process, preprocessing included)", "",
            table(["metric", "segments", "seconds", "segments/s", "not scored"], rows), ""]


def _left_out_block(report: dict) -> list[str]:
    """Segments not scored, metrics not run or not loaded, with the reasons."""
    out = []
    bad = [(n, e) for n, e in report["errors"].items() if e["count"]]
    if bad:
        out += ["Segments not scored (examples):", *(f"- {n}: {ex}" for n, e in bad for ex in e["examples"]), ""]
    if report.get("not_run"):
        out += ["Not run:", *(f"- {n}: {why}" for n, why in report["not_run"].items()), ""]
    if report["failed_to_load"]:
        out += ["Metrics that did not load:", *(f"- {n}: {why}" for n, why in report["failed_to_load"].items()), ""]
    return out


def _signatures_block(report: dict) -> list[str]:
    sigs = dict.fromkeys(s for by_target in report["signatures"].values() for s in by_target.values())
    return ["Signatures (one per metric and target language):", *(f"- `{s}`" for s in sigs), ""]


def blocks(report: dict) -> dict[str, list[str]]:
    """The report's tables in order, by name (the docs' generated regions draw them one by one)."""
    out: dict[str, list[str]] = {}
    if report["wmt12"]:
        out["kendall-wmt12"] = _kendall_block(report, "kendall_wmt12")
        out["kendall-no-ties"] = _kendall_block(report, "kendall_no_ties")
        out["comparisons"] = _comparisons_block(report)
        out["spearman"] = _system_block(report, "spearman")
        out["pearson"] = _system_block(report, "pearson")
        out["significance"] = _significance_block(report)
    for pair in report["mqm"]:
        for label in ("without_refs", "with_refs"):
            out[f"{pair}{'-refs' if label == 'with_refs' else ''}"] = _mqm_block(report, pair, label)
    out["mqm-significance"] = _mqm_significance_block(report)
    out["flag"] = ["`!`: the estimate lies outside its own percentile interval (skewed resamples, typical of "
                   "system-level correlations over few systems).", ""]
    out["speed"] = _speed_block(report)
    out["left-out"] = _left_out_block(report)
    out["plots"] = ["Plots: " + ", ".join(f"`{p}`" for p in report["plots"]), ""] if report.get("plots") else []
    out["signatures"] = _signatures_block(report)
    return out


def block(report: dict, name: str) -> str:
    """One named table of the report, as Markdown; an error naming it when the run has no such table."""
    tables = blocks(report)
    if name not in tables:
        raise InputError(f"the wmt run has no table {name!r} (a run with other --pairs?); it has {', '.join(tables)}")
    return "\n".join(tables[name])


def kendall_table(report: dict, key: str, metrics: Sequence[str] | None, pairs: Sequence[str] = INTO_ENGLISH,
                  groups: Sequence[str] = ("into-English",)) -> str:
    """A segment-level Kendall table cut to some metrics (None: all), pairs and averages (a metric page's view)."""
    return "\n".join(_kendall_block(report, key, metrics, pairs, groups))


def markdown(report: dict) -> str:
    """The report: settings, WMT12 and MQM tables, speed, errors and metrics that did not load."""
    out = [f"## MT metrics on WMT human judgments (`python -m benchmarks {report.get('bench', 'wmt')}`)", "",
           f"Data: `{report['data']}`. Segments per pair: WMT12 {report['segments_per_pair']['wmt12'] or 'all'} "
           "(seeded sample of the ranked segments; every ranked system scored on each), MQM "
           f"{report['segments_per_pair']['mqm'] or 'all'} (rated segments). Bootstrap {report['bootstrap']} "
           f"resamples of segments, seed {report['seed']}. {machine_line(report['machine'])} "
           f"Code: {report.get('commit', 'unknown')}. Run time {report.get('seconds', 0):.0f} s.", ""]
    for lines in blocks(report).values():
        out += lines
    return "\n".join(out)


#: a metric page's summary rows: (label, where in the report, whether the metric's own cell has its CI)
SUMMARY_ROWS = (
    ("WMT12 into English, Kendall (WMT12 variant)", ("wmt12_average", "into-English", "{m}", "kendall_wmt12")),
    ("WMT12 all 8 pairs, Kendall (WMT12 variant)", ("wmt12_average", "all", "{m}", "kendall_wmt12")),
    ("WMT12 into English, Kendall (ties excluded)", ("wmt12_average", "into-English", "{m}", "kendall_no_ties")),
    ("WMT12 all pairs, system Spearman (mean)", ("wmt12_average", "all", "{m}", "system_spearman")),
    ("MQM en-de, segment τb (no grouping)",
     ("mqm", "mqm-en-de", "metrics", "{m}", "without_refs", "segment_none", "kendall")),
    ("MQM zh-en, segment τb (no grouping)",
     ("mqm", "mqm-zh-en", "metrics", "{m}", "without_refs", "segment_none", "kendall")),
    ("MQM en-de, system Pearson", ("mqm", "mqm-en-de", "metrics", "{m}", "without_refs", "system", "pearson")),
)
BASELINE_LABELS = {"bleu": "BLEU", "chrf": "chrF", "meteor": "METEOR", "ter": "TER"}


def summary_table(report: dict, name: str, against: Sequence[str] = ("bleu", "chrf", "meteor", "ter")) -> str:
    """One metric's headline figures beside the baselines' (the metric with its CI, the baselines' values)."""
    def cell(path: tuple[str, ...], metric: str, ci: bool) -> str:
        entry = _get(report, *(k.format(m=metric) for k in path[:-1]))
        value = entry.get(path[-1])
        value = value if isinstance(value, dict) else {"value": value}
        return _cell(value if ci else {"value": value.get("value")})

    rows = [[label, cell(path, name, True), *(cell(path, b, False) for b in against)] for label, path in SUMMARY_ROWS]
    return table(["", name, *(BASELINE_LABELS.get(b, b) for b in against)], rows)
