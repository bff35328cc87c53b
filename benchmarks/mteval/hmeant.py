"""`python -m benchmarks hmeant`: MEANT's scoring on the human frames and alignments of the WMT 2013
HMEANT annotation (HMEANT), against automatic MEANT/UMEANT (the suite's labeller) and sentence
BLEU/chrF on the same MT sentences; agreement between the two annotators of each sentence.

Segment correlations pool every MT sentence (3 systems x source segments) and resample source
segments (seeded bootstrap, 95% percentile CIs). HMEANT of a sentence is the mean over its
annotators. Automatic MEANT needs an English labeller and English context vectors, so it runs on
the English output (de-en) only; HMEANT, the baselines and the agreement cover both languages.
Writes ``hmeant.md`` and ``hmeant.json``.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from benchmarks.harness import machine, machine_line, source_commit, write_report
from evalcore.io.tables import table
from evalcore.metric import Item
from evalcore.metric.registry import declared_options, get_metric
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import CORRELATIONS, correlate, resample_documents
from mteval.meant.alignment import meant_pair
from mteval.meant.hmeant import Annotated, HmeantData, hmeant, read_hmeant, reference_frames
from mteval.meant.lexsim import similarity
from mteval.meant.metric import Meant, role_weights
from mteval.meant.roles import count_roles, equal_weights, role_class, umeant_weights

LANGUAGES = ("en", "de")
BASELINE_METRICS = ("bleu", "chrf")
AUTOMATIC = ("meant", "umeant")


def _matrix(values: dict[str, float], annotated: Sequence[Annotated]) -> np.ndarray:
    """(source segments x systems) matrix of per-MT-sentence values, NaN where absent."""
    docs = sorted({a.document for a in annotated})
    systems = sorted({a.system for a in annotated})
    where = {a.hyp_id: (docs.index(a.document), systems.index(a.system)) for a in annotated}
    out = np.full((len(docs), len(systems)), np.nan)
    for hyp, v in values.items():
        out[where[hyp]] = v
    return out


def _correlations(metric: np.ndarray, human: np.ndarray, n_boot: int, seed: int) -> dict[str, dict]:
    resamples = resample_documents(metric.shape[0], n_boot, seed)
    return {kind: correlate(metric, human, "none", kind, resamples).as_dict() for kind in CORRELATIONS}


def _cell(c: dict) -> str:
    return f"{c['value']:.3f} [{c['ci_low']:.2f}, {c['ci_high']:.2f}]"


def hmeant_scores(annotated: Sequence[Annotated], weights) -> dict[str, dict[str, float]]:
    """MT sentence id -> annotator -> HMEANT."""
    out: dict[str, dict[str, float]] = defaultdict(dict)
    for a in annotated:
        out[a.hyp_id][a.annotator] = hmeant(a, weights).f
    return out


def frame_agreement(data: HmeantData, language: str) -> dict[str, float]:
    """Micro F1 between the two annotators of each reference: predicates (same head token) and
    role fillers (same predicate, span and role type)."""
    by_ref: dict[str, list] = defaultdict(list)
    for (lang, ref, _), frames in sorted(data.references.items()):
        if lang == language:
            by_ref[ref].append(frames.sentence)
    counts = np.zeros((2, 3))  # rows: predicates, roles; columns: both, first, second
    pairs = 0
    for sentences in by_ref.values():
        if len(sentences) != 2:
            continue
        pairs += 1
        preds = [{f.predicate for f in s.frames} for s in sentences]
        roles = [{(f.predicate, a.span, role_class(a.role)) for f in s.frames for a in f.arguments} for s in sentences]
        for row, (x, y) in enumerate((preds, roles)):
            counts[row] += (len(x & y), len(x), len(y))
    f1 = 2 * counts[:, 0] / np.maximum(counts[:, 1] + counts[:, 2], 1)
    return {"references": pairs, "predicate_f1": float(f1[0]), "role_f1": float(f1[1])}


def automatic(names: Sequence[str], annotated: Sequence[Annotated], language: str,
              log: Callable[[str], None]) -> tuple[dict[str, dict[str, float]], dict[str, str], dict, dict[str, str]]:
    """Registered metrics on the MT sentences (each sentence once): values by name, failures by
    name, MEANT's wall and CPU time per sentence with the share of CPU its labelling takes, and
    the signatures."""
    sentences = {a.hyp_id: a for a in annotated}
    items = [Item(a.mt_text, (a.ref_text,), id=hyp) for hyp, a in sentences.items()]
    values, failed, speed, signatures = {}, {}, {}, {}
    for name in names:
        try:
            metric = get_metric(name, **declared_options(name, {"language": language}))
            metric.validate()
        except Exception as exc:  # noqa: BLE001 - a metric that cannot run here is a row of the report
            failed[name] = f"{type(exc).__name__}: {exc}"
            continue
        metric.score_batch(items[:1])  # loads the labeller and the similarity model: not timed
        start, cpu = time.perf_counter(), time.process_time()
        results = metric.score_batch(items)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        signatures[name] = str(metric.signature())
        values[name] = {it.id: r.value for it, r in zip(items, results) if r.ok}
        failed.update({name: f"{len(items) - len(values[name])} sentences unscored"}
                      if len(values[name]) < len(items) else {})
        if isinstance(metric, Meant):
            texts = list(dict.fromkeys(t for it in items for t in (it.candidate, *it.references)))
            srl = time.process_time()
            metric.frames(texts)
            srl = time.process_time() - srl
            speed[name] = {"ms_per_sentence": 1000 * seconds / len(items),
                           "cpu_ms_per_sentence": 1000 * cpu / len(items),
                           "srl_share": srl / cpu, "texts_labelled": len(texts)}
        log(f"[bench hmeant] {language}: {name} ({seconds:.0f} s)")
    return values, failed, speed, signatures


def meant_on_human_frames(annotated: Sequence[Annotated]) -> dict[str, float]:
    """MEANT's own alignment and context-vector similarity on the human frames (no SRL error):
    per MT sentence, the mean over its annotators."""
    metric = Meant()
    sim, weights = similarity(metric.similarity), role_weights(metric.role_weights)
    out: dict[str, list[float]] = defaultdict(list)
    for a in annotated:
        mt, ref = a.mt.sentence, a.ref.sentence
        out[a.hyp_id].append(meant_pair(mt, ref, sim.matrix(mt.tokens, ref.tokens), weights).prf.f)
    return {k: float(np.mean(v)) for k, v in out.items()}


def language_report(data: HmeantData, language: str, n_boot: int, seed: int, log: Callable[[str], None]) -> dict:
    """Every figure of one output language."""
    annotated = [a for a in data.annotated if a.language == language]
    counts = count_roles(reference_frames(data, language))
    testset_weights = umeant_weights(counts, f"umeant-hmeant-{language}-refs")
    by_weights = {"equal": hmeant_scores(annotated, equal_weights()),
                  "umeant": hmeant_scores(annotated, testset_weights)}
    human = {k: {h: float(np.mean(list(v.values()))) for h, v in s.items()} for k, s in by_weights.items()}
    human_m = _matrix(human["equal"], annotated)
    two = {h: sorted(v.items()) for h, v in by_weights["equal"].items() if len(v) == 2}
    unlinked = sum(1 for a in annotated if a.mt.sentence.frames and a.ref.sentence.frames and not a.frame_links)
    agreement = {"sentences_with_two_annotators": len(two),
                 "hmeant": _correlations(_matrix({h: v[0][1] for h, v in two.items()}, annotated),
                                         _matrix({h: v[1][1] for h, v in two.items()}, annotated), n_boot, seed),
                 "frames_on_references": frame_agreement(data, language),
                 "annotations_with_frames_but_no_link": unlinked}
    metrics: dict[str, dict[str, float]] = {"HMEANT, UMEANT weights (test-set refs)": human["umeant"]}
    values, failed, speed, signatures = automatic([*AUTOMATIC, *BASELINE_METRICS], annotated, language, log)
    if language == "en":
        metrics["MEANT on human frames (automatic alignment)"] = meant_on_human_frames(annotated)
    metrics.update(values)
    return {"mt_sentences": len(human_m[~np.isnan(human_m)]), "source_segments": human_m.shape[0],
            "annotations": len(annotated), "annotators": sorted({a.annotator for a in annotated}),
            "hmeant_mean": float(np.nanmean(human_m)),
            "hmeant_by_system": {s: float(np.mean([human["equal"][a.hyp_id] for a in annotated if a.system == s]))
                                 for s in sorted({a.system for a in annotated})},
            "umeant_weights": testset_weights.describe(), "role_counts": dict(counts),
            "correlation_with_hmeant": {name: _correlations(_matrix(v, annotated), human_m, n_boot, seed)
                                        for name, v in metrics.items()},
            "failed": failed, "speed": speed, "signatures": signatures, "agreement": agreement}


def correlation_table(report: dict, language: str) -> str:
    """Each metric's segment-level correlation with HMEANT on one output language."""
    r = report["languages"][language]
    return table(["metric", "Pearson", "Spearman", "Kendall"],
                 [[name, *(_cell(c[k]) for k in CORRELATIONS)] for name, c in r["correlation_with_hmeant"].items()])


def agreement_table(report: dict, language: str) -> str:
    """HMEANT of one annotator against the other's on one output language."""
    ag = report["languages"][language]["agreement"]
    return table(["agreement", "Pearson", "Spearman", "Kendall"],
                 [["HMEANT, annotator 1 vs 2", *(_cell(ag["hmeant"][k]) for k in CORRELATIONS)]])


def markdown(report: dict) -> str:
    """The report: per output language, the correlations with HMEANT, speed, signatures and agreement."""
    lines = ["# HMEANT (WMT 2013 human frames) vs automatic MEANT", "",
             f"Data: `{report['data']}` (Birch et al. 2013). Commit {report['commit']}. "
             f"{machine_line(report['machine'])} Bootstrap: {report['bootstrap']} resamples of source segments "
             f"(seed {report['seed']}), 95% percentile CIs. HMEANT = MEANT's f-score on the human frames and links "
             "(full = 1, partial = 0.5), equal role weights, coverage frame weights, all frames in the denominators; "
             "per MT sentence the mean over its annotators.", ""]
    for lang, r in report["languages"].items():
        target = {"en": "German-English (English output)", "de": "English-German (German output)"}[lang]
        lines += [f"## {target}", "",
                  f"{r['mt_sentences']} MT sentences ({r['source_segments']} source segments x 3 systems), "
                  f"{r['annotations']} annotations by {', '.join(r['annotators'])}. Mean HMEANT {r['hmeant_mean']:.3f} "
                  "(" + ", ".join(f"{s} {v:.3f}" for s, v in r["hmeant_by_system"].items()) + ").", "",
                  "Segment-level correlation with HMEANT (value [95% CI]):", "",
                  correlation_table(report, lang), ""]
        for name, why in r["failed"].items():
            lines.append(f"- not scored: {name}: {why}")
        for name, s in r["speed"].items():
            lines.append(f"- speed: {name} {s['cpu_ms_per_sentence']:.0f} ms CPU ({s['ms_per_sentence']:.0f} ms wall) "
                         f"per MT sentence; labelling its {s['texts_labelled']} distinct texts takes "
                         f"{100 * s['srl_share']:.0f}% of the CPU time")
        lines += [f"- signature: `{sig}`" for sig in r["signatures"].values()]
        ag = r["agreement"]
        fa = ag["frames_on_references"]
        lines += ["", f"Annotator agreement ({ag['sentences_with_two_annotators']} MT sentences with two annotators; "
                      "HMEANT of the first vs the second, by name):", "",
                  agreement_table(report, lang), "",
                  f"Frames on the {fa['references']} doubly annotated references: predicate F1 "
                  f"{fa['predicate_f1']:.3f}, "
                  f"role filler F1 (same predicate, span and role type) {fa['role_f1']:.3f}. "
                  f"{ag['annotations_with_frames_but_no_link']} MT annotations have frames on both sides but no "
                  "frame link (HMEANT 0).", "",
                  f"UMEANT weights counted on this test set's human reference frames: `{r['umeant_weights']}`.", ""]
    return "\n".join(lines)


def run(out: Path, data: Path | None = None, n_boot: int = 1000, seed: int = 0,
        languages: Sequence[str] = LANGUAGES, log: Callable[[str], None] = print) -> dict:
    """Run the benchmark and write ``hmeant.md`` / ``hmeant.json`` into ``out``."""
    root = (data or shared_data_dir()) / "srl" / "hmeant-wmt13"
    hm = read_hmeant(root)
    report: dict = {"data": str(root), "commit": source_commit(), "machine": machine(), "bootstrap": n_boot,
                    "seed": seed, "languages": {}}
    for lang in languages:
        report["languages"][lang] = language_report(hm, lang, n_boot, seed, log)
    write_report(out, "hmeant", markdown(report), report)
    return report
