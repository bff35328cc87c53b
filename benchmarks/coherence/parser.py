"""Parser benchmark: connective P/R/F1, Arg1 position, explicit and non-explicit level-1 senses
against their baselines, end-to-end relation F1 (partial and exact argument match) and speed,
Tier 0 beside Tier 1, on GDTB test, GDTB test2 (GENTLE) and TED-MDB test."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

from sklearn.metrics import accuracy_score, f1_score

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from coherence.corpora import load_gdtb, load_tedm
from coherence.gold import explicit_examples, pair_examples, parse_corpus
from coherence.parser.document import ParsedText, parse_texts
from coherence.parser.pipeline import DiscourseParser, load_parser_model
from coherence.relations import Relation
from evalcore.resources.registry import ResourceError

PUBLISHED_E2E = {"gold parses": 46.80, "automatic": 38.18}
ANCHORS = {"explicit_mfs_gdtb_test": 0.868, "nonexplicit_majority_gdtb_test": 0.424}


def prf(tp: int, n_pred: int, n_gold: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "tp": tp, "predicted": n_pred, "gold": n_gold}


def match_count(pred: list, gold: list, same) -> int:
    """Greedy one-to-one matches between predicted and gold items under ``same``."""
    used, tp = set(), 0
    for p in pred:
        for j, g in enumerate(gold):
            if j not in used and same(p, g):
                used.add(j)
                tp += 1
                break
    return tp


def _content(pt: ParsedText, tokens: set[int]) -> frozenset[int]:
    return frozenset(t for t in tokens if pt.pos[t] != "PUNCT")


def _view(pt: ParsedText, rel: Relation) -> tuple:
    return (rel.explicit, rel.l1, _content(pt, pt.tokens_in(rel.arg1)), _content(pt, pt.tokens_in(rel.arg2)))


def evaluate(parser: DiscourseParser, docs, parsed, nonexplicit_norel: bool) -> dict:
    """All component and end-to-end scores of one parser on one data set."""
    conn_tp = conn_pred = conn_gold = 0
    pos_gold, pos_pred, sense_gold, sense_pred, mfs_pred = [], [], [], [], []
    ne_gold, ne_pred, ne_annotated = [], [], []
    e2e = {"partial": 0, "exact": 0, "pred": 0, "gold": 0}
    for doc, pt in zip(docs, parsed):
        cands = parser.candidates(pt)
        found = [set(c.tokens) for c, ok in zip(cands, parser.is_discourse([(pt, c) for c in cands])) if ok]
        gold_conns = [pt.tokens_in(spans) for spans in doc.connectives]
        gold_conns = [g for g in gold_conns if g]
        conn_tp += match_count(found, gold_conns, lambda p, g: bool(p & g))
        conn_pred += len(found)
        conn_gold += len(gold_conns)
        exs = explicit_examples(pt, doc)
        gold_occurrences = [(pt, e.cand) for e in exs]
        pos_gold += [e.position for e in exs]
        pos_pred += parser.positions(gold_occurrences)
        sense_gold += [e.l1 for e in exs]
        sense_pred += parser.explicit_senses(gold_occurrences)
        mfs_pred += [parser.lexicon.mfs_train(e.cand.key) for e in exs]
        pairs, labels, annotated = pair_examples(pt, doc)
        if not nonexplicit_norel:
            pairs, labels = [p for p, a in zip(pairs, annotated) if a], [x for x, a in zip(labels, annotated) if a]
            annotated = [True] * len(pairs)
        ne_gold += labels
        ne_annotated += annotated
        ne_pred += parser.nonexplicit_labels([(pt, i) for i in pairs])
        pred = [_view(pt, r) for r in parser.parse_parsed(pt) if r.l1 != "NoRel"]
        gold = [_view(pt, r) for r in doc.relations if r.l1 != "NoRel"]
        gold = [g for g in gold if g[2] and g[3]]
        e2e["partial"] += match_count(pred, gold, lambda p, g: p[:2] == g[:2] and bool(p[2] & g[2])
                                      and bool(p[3] & g[3]))
        e2e["exact"] += match_count(pred, gold, lambda p, g: p == g)
        e2e["pred"] += len(pred)
        e2e["gold"] += len(gold)
    return {
        "connective": prf(conn_tp, conn_pred, conn_gold),
        "arg1_position_accuracy": accuracy_score(pos_gold, pos_pred) if pos_gold else None,
        "arg1_position_n": len(pos_gold), "arg1_position_gold_PS_share":
            pos_gold.count("PS") / len(pos_gold) if pos_gold else None,
        "explicit_sense_accuracy": accuracy_score(sense_gold, sense_pred) if sense_gold else None,
        "explicit_sense_n": len(sense_gold),
        "explicit_mfs_baseline_accuracy": accuracy_score(sense_gold, mfs_pred) if sense_gold else None,
        "nonexplicit_accuracy": accuracy_score(ne_gold, ne_pred) if ne_gold else None,
        "nonexplicit_macro_f1": f1_score(ne_gold, ne_pred, average="macro") if ne_gold else None,
        "nonexplicit_n": len(ne_gold), "nonexplicit_gold_distribution": dict(Counter(ne_gold)),
        "_ne_gold": ne_gold, "_ne_annotated": ne_annotated,
        "nonexplicit_annotated_accuracy": _subset_accuracy(ne_gold, ne_pred, ne_annotated),
        "nonexplicit_annotated_n": sum(ne_annotated),
        "e2e_partial": prf(e2e["partial"], e2e["pred"], e2e["gold"]),
        "e2e_exact": prf(e2e["exact"], e2e["pred"], e2e["gold"]),
    }


def _subset_accuracy(gold: list[str], pred: list[str], keep: list[bool]) -> float | None:
    pairs = [(g, p) for g, p, k in zip(gold, pred, keep) if k]
    return sum(g == p for g, p in pairs) / len(pairs) if pairs else None


def majority_baseline(gold: list[str], majority: str) -> dict[str, Any]:
    pred = [majority] * len(gold)
    return {"label": majority, "accuracy": accuracy_score(gold, pred) if gold else None,
            "macro_f1": f1_score(gold, pred, average="macro") if gold else None}


def speed(parsers: dict[int, DiscourseParser], texts: list[str]) -> dict:
    """Tokens per second: spaCy preprocessing once, then each tier's stages, and both summed."""
    t0 = time.perf_counter()
    parsed = parse_texts(texts)
    t_pre = time.perf_counter() - t0
    n_tok = sum(len(p) for p in parsed)
    out: dict[str, Any] = {"tokens": n_tok, "preprocessing_seconds": t_pre}
    for tier, parser in parsers.items():
        t1 = time.perf_counter()
        parser.parse_batch(parsed)
        t_stage = time.perf_counter() - t1
        out[f"tier{tier}"] = {"stage_seconds": t_stage, "tokens_per_second": n_tok / (t_pre + t_stage),
                              "stage_tokens_per_second": n_tok / t_stage if t_stage else None}
    return out


def _fmt(x, pct: bool = True) -> str:
    if x is None:
        return "n/a"
    return f"{100 * x:.1f}" if pct else f"{x:.2f}"


def _targets(name: str) -> dict[str, str]:
    """The targets and published anchors a set's table quotes (GDTB test only)."""
    if name != "GDTB test":
        return {}
    return {"conn": ">= 90.0", "sense": f"> baseline (spec: {100 * ANCHORS['explicit_mfs_gdtb_test']:.1f})",
            "ne": "> majority baseline", "ne_ann": "spec Expansion baseline 42.4 (gold relations)",
            "e2e": f"published {PUBLISHED_E2E['automatic']} (PDTB, level 2, automatic parses)"}


def header_markdown(report: dict) -> str:
    """The data and model the tables come from, with the machine."""
    signature = report["model_signature"]
    return (f"Data: `{report['data']}`. Model: `{signature.get('model', 'n/a')}` (sklearn "
            f"{signature.get('sklearn_version', '?')}, seed {signature.get('seed', '?')}, trained on "
            f"{signature.get('training_split', '?')}). Senses are level 1 throughout.\n"
            + machine_line(report["machine"]))


def set_markdown(report: dict, name: str) -> str:
    """One data set's paragraph and table (without its heading), from the JSON alone."""
    entry = report["sets"][name]
    t0, t1, base = entry["tier0"], entry["tier1"], entry["nonexplicit_majority_baseline"]
    majority = report["settings"]["nonexplicit_majority_label_from_train"]
    skipped = entry["skipped"]
    info = (f"{entry['documents']} documents, {entry['tokens']} tokens" +
            (f"; skipped (blanked text): {', '.join(skipped)}" if skipped else "") +
            f". Explicit sense/position on {t1['explicit_sense_n']} gold explicit relations "
            f"with a connective span; non-explicit on {t1['nonexplicit_n']} adjacent sentence "
            "pairs without a gold inter-sentence explicit" +
            (" (pairs without a gold relation = NoRel)" if entry["nonexplicit_norel"] else
             " that carry a gold relation (this copy has no EntRel/NoRel rows)") +
            f"; non-explicit baseline = train majority class `{majority}`; explicit baseline = "
            "connective's most frequent sense in GDTB train, back-off PDTB-2, then Expansion."
            " End-to-end: NoRel left out on both sides; a match needs the same E/N type, level-1"
            " sense and Arg1/Arg2 each sharing a token (partial) or equal without punctuation (exact).")
    targets = _targets(name)
    rows = [
        ("Connective precision", None, t0["connective"]["precision"], t1["connective"]["precision"], ""),
        ("Connective recall", None, t0["connective"]["recall"], t1["connective"]["recall"], ""),
        ("Connective F1", None, t0["connective"]["f1"], t1["connective"]["f1"], targets.get("conn", "")),
        ("Arg1 position (SS/PS) accuracy", None, t0["arg1_position_accuracy"], t1["arg1_position_accuracy"], ""),
        ("Explicit level-1 sense accuracy (gold connectives)", t1["explicit_mfs_baseline_accuracy"],
         t0["explicit_sense_accuracy"], t1["explicit_sense_accuracy"], targets.get("sense", "")),
        ("Non-explicit level-1 accuracy", base["accuracy"], t0["nonexplicit_accuracy"],
         t1["nonexplicit_accuracy"], ""),
        ("Non-explicit level-1 accuracy, pairs with a gold relation (baseline Expansion)",
         base["annotated_expansion_accuracy"], t0["nonexplicit_annotated_accuracy"],
         t1["nonexplicit_annotated_accuracy"], targets.get("ne_ann", "")),
        ("Non-explicit macro-F1", base["macro_f1"], t0["nonexplicit_macro_f1"],
         t1["nonexplicit_macro_f1"], targets.get("ne", "")),
        ("End-to-end F1, partial argument match", None, t0["e2e_partial"]["f1"], t1["e2e_partial"]["f1"],
         targets.get("e2e", "")),
        ("End-to-end precision, partial", None, t0["e2e_partial"]["precision"], t1["e2e_partial"]["precision"], ""),
        ("End-to-end recall, partial", None, t0["e2e_partial"]["recall"], t1["e2e_partial"]["recall"], ""),
        ("End-to-end F1, exact argument match", None, t0["e2e_exact"]["f1"], t1["e2e_exact"]["f1"], ""),
    ]
    lines = [info, "", "| metric (%) | baseline | tier 0 | tier 1 | target / anchor |", "|---|---|---|---|---|"]
    for label, b, a, c, tgt in rows:
        lines.append(f"| {label} | {_fmt(b) if b is not None else '-'} | {_fmt(a)} | {_fmt(c)} | {tgt} |")
    return "\n".join(lines)


def speed_markdown(report: dict) -> str:
    """The speed paragraph, table and peak memory (without the heading)."""
    sp = report["speed"]
    md = [f"{sp['tokens']} tokens; spaCy preprocessing {sp['preprocessing_seconds']:.1f}s "
          f"({sp['tokens'] / sp['preprocessing_seconds']:.0f} tokens/s).", "",
          "| tier | parser stages (s) | end-to-end tokens/s |", "|---|---|---|"]
    for t in (0, 1):
        s = sp[f"tier{t}"]
        md.append(f"| tier {t} | {s['stage_seconds']:.2f} | {s['tokens_per_second']:.0f} |")
    md += ["", f"Peak memory: {report['peak_rss_mib']:.0f} MiB."]
    return "\n".join(md)


def markdown(report: dict) -> str:
    """``parser.md``: the header, every set's table and the speed, from the JSON alone."""
    md = ["# Discourse parser benchmark", "", header_markdown(report), ""]
    for name in report["sets"]:
        md += [f"### {name}", "", set_markdown(report, name) + "\n"]
    md += ["### Speed (GDTB test, one process, spaCy included)", "", speed_markdown(report), ""]
    return "\n".join(md)


def run(data: Path, out: Path, model_path: str | None = None, limit: int | None = None, log=print):
    """Run the benchmark and write ``parser.md`` and ``parser.json`` into ``out``."""
    gdtb, tedm = data / "gdtb", data / "tedm"
    if not (gdtb / "splits.md").exists():
        raise ResourceError(f"GDTB not found under {data}: `python -m benchmarks parser` needs the public "
                            "discourse data (../shared/data/discourse, or --data DIR)")
    signature = load_parser_model(model_path)[1]
    parsers = {0: DiscourseParser(tier=0), 1: DiscourseParser(tier=1, model_path=model_path)}
    train_dist = signature.get("nonexplicit_train_distribution") or {}
    majority = max(train_dist, key=train_dist.__getitem__) if train_dist else "Expansion"
    sets = []
    for split in ("test", "test2"):
        docs, skipped = load_gdtb(gdtb, split)
        sets.append((f"GDTB {split}" + (" (GENTLE, out of genre)" if split == "test2" else ""),
                     docs[:limit] if limit else docs, skipped, True))
    if tedm.exists():
        sets.append(("TED-MDB test (out of domain)", load_tedm(tedm, "test")[:limit] if limit else
                     load_tedm(tedm, "test"), [], False))
    else:
        log(f"TED-MDB not found under {tedm}: skipped")
    report: dict[str, Any] = {"data": str(data), "model_signature": signature, "machine": machine(), "sets": {},
              "published_end_to_end_f1": PUBLISHED_E2E,
              "settings": {"sense_level": 1, "nonexplicit_majority_label_from_train": majority,
                           "limit": limit}}
    for name, docs, skipped, with_norel in sets:
        log(f"{name}: {len(docs)} documents")
        parsed = parse_corpus(docs)
        res = {t: evaluate(p, docs, parsed, with_norel) for t, p in parsers.items()}
        ne_gold, ne_ann = res[1].pop("_ne_gold"), res[1].pop("_ne_annotated")
        res[0].pop("_ne_gold"), res[0].pop("_ne_annotated")
        base = majority_baseline(ne_gold, majority)
        base["annotated_expansion_accuracy"] = _subset_accuracy(ne_gold, ["Expansion"] * len(ne_gold), ne_ann)
        n_tok = sum(len(p) for p in parsed)
        report["sets"][name] = {"documents": len(docs), "tokens": n_tok, "skipped": skipped,
                                "nonexplicit_norel": with_norel, "tier0": res[0], "tier1": res[1],
                                "nonexplicit_majority_baseline": base}
    test_docs = sets[0][1]
    sp = speed(parsers, [d.text for d in test_docs])
    report["speed"] = sp
    report["peak_rss_mib"] = peak_rss_mib()
    return write_report(out, "parser", markdown(report), report)
