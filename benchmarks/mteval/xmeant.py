"""XMEANT's benchmark: which WMT12 pairs it runs on, segment Kendall where it runs (beside BLEU,
chrF, METEOR and MEANT), and what its backoff gives on TED en-de (no reference)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evalcore.resources.registry import ResourceError
from mteval.meant.metric import FILLER_SIMILARITIES, Xmeant

#: WMT12 pairs by source-target; XMEANT runs where both sides have a labeller and English is one side
WMT12_BASELINES = ("bleu", "chrf", "meteor", "meant")


#: newstest sets of the shared bitexts the news tables are built from: newstest2012 is WMT12's test
#: set and is left out, so the tables can serve WMT12 (and TED, which none of them holds)
NEWS_SETS = {"de": ("newstest2009-2020-no2012-de", "de-en", "deu",
                    [f"newstest{y}" for y in range(2009, 2021) if y != 2012]),
             "fr": ("news-no2012-fr", "en-fr", "fra",
                    ["news-test2008", "newssyscomb2009", "newstest2009", "newstest2010", "newstest2011", "newstest2013",
                     "newstest2014", "newsdiscusstest2015"])}


def news_bitext(data: Path, pivot: str = "de") -> tuple[str, list[tuple[str, str]]]:
    """(English, pivot) newstest pairs from ``data/parallel`` (:data:`NEWS_SETS`, never newstest2012)."""
    from evalcore.resources.phrase_table.bitext import read_parallel_files

    name, folder, suffix, sets = NEWS_SETS[pivot]
    pairs = [p for part in sets
             for p in read_parallel_files(data / "parallel" / folder / f"{part}.eng",
                                          data / "parallel" / folder / f"{part}.{suffix}")]
    return name, pairs


def ted_lexical(data: Path, n_boot: int, seed: int) -> dict:
    """TED en-de (no reference, no German frames): what XMEANT can still compute there, its
    backoff (IBM-1 phrase F of whole output and source sentences) with the default (gettext) table
    and with a news table, beside the output length, correlated with MQM (segments x MT systems,
    ``ref-A`` left out)."""
    from evalcore.resources.lm import lm_tokens
    from evalcore.resources.phrase_table.bitext import tokenize_pivot
    from evalcore.stats.correlation import correlate, resample_documents
    from mteval.data.mqm import read_ted
    from mteval.meant.alignment import phrase_prf
    from mteval.meant.lexsim import Ibm1Similarity, cached_lexical_table

    ted = read_ted(data / "mt" / "ted-mqm")
    segments = sorted(ted.source)
    systems = sorted({s for s, _ in ted.scores if not s.startswith("ref-")})
    sims = {"gettext": Ibm1Similarity("de", "en"),
            "news": Ibm1Similarity("de", "en", table=cached_lexical_table(*news_bitext(data)))}
    names = [f"ibm1-{k} {part}" for k in sims for part in ("F (xmeant backoff)", "precision", "recall")]
    rows: dict[str, list] = {n: [] for n in [*names, "-output length"]}
    for seg in segments:
        src = lm_tokens(ted.source[seg])
        line: dict[str, list] = {k: [] for k in rows}
        for system in systems:
            output = ted.outputs.get((system, seg))
            toks = tokenize_pivot(output) if output is not None and (system, seg) in ted.scores else None
            values = [np.nan] * len(names) if toks is None else [
                x for sim in sims.values() for prf in [phrase_prf(sim.matrix(toks, src))]
                for x in (prf.f, prf.precision, prf.recall)]
            for name, v in zip(names, values):
                line[name].append(v)
            line["-output length"].append(np.nan if toks is None else -float(len(toks)))
        for k in rows:
            rows[k].append(line[k])
    human = np.array([[ted.scores.get((s, seg), np.nan) for s in systems] for seg in segments])
    resamples = resample_documents(len(segments), n_boot, seed)
    out: dict[str, Any] = {"segments": len(segments), "systems": systems,
                           "tables": {k: v.table.signature for k, v in sims.items()}, "rows": {}}
    for name, values in rows.items():
        m = np.array(values)
        out["rows"][name] = {f"{grouping}-{kind}": correlate(m, human, grouping, kind, resamples).as_dict()
                             for grouping in ("none", "item", "system") for kind in ("kendall", "pearson")}
    return out


def wmt12_xmeant(root: Path, pair: str, max_segments: int, n_boot: int, seed: int,
                 news_table: Path | None = None) -> dict:
    """XMEANT (f-score and ITG fillers; default table, and the news table when given) on one WMT12
    pair beside BLEU, chrF, METEOR and MEANT (reference-based) on the same segments: segment
    Kendall with CIs and items per second."""
    from benchmarks.mteval.wmt import wmt12_pair
    from evalcore.metric.registry import declared_options, get_metric
    from mteval.data import wmt12

    source, target = pair.split("-")
    metrics = [Xmeant(source, target), Xmeant(source, target, filler_similarity="itg")]
    for name in WMT12_BASELINES:
        try:
            metric = get_metric(name, **declared_options(name, {"language": target}))
            metric.validate()
            metrics.append(metric)
        except Exception:  # noqa: BLE001 - a baseline without this target language is left out
            continue
    rankings = wmt12.read_rankings(root / "wmt12.RNK_results.csv", [pair])
    runs = [("", metrics)]
    if news_table is not None:
        runs.append((" (news table)", [Xmeant(source, target, filler_similarity=f, lexical_table=str(news_table))
                                       for f in FILLER_SIMILARITIES]))
    result: dict = {}
    for suffix, group in runs:
        part, scored, _ = wmt12_pair(root, pair, group, rankings, max_segments, n_boot, seed, 1)
        for name, s in scored.items():
            entry = part["metrics"][name]
            entry["seconds_per_item"] = s.seconds / max(1, s.items)
            entry["errors"] = len(s.errors)
            entry["signature"] = str(next(m for m in group if m.name == name).signature())
        if not result:
            result = {**part, "metrics": {}}
        result["metrics"].update({name + suffix: entry for name, entry in part["metrics"].items()})
    return result


def _cell(c: dict) -> str:
    return f"{c['value']:.3f} [{c['ci_low']:.2f}, {c['ci_high']:.2f}]"


def bench(out: Path, data: Path | None = None, pairs: Sequence[str] = ("fr-en", "en-fr"), max_segments: int = 200,
          n_boot: int = 1000, seed: int = 0) -> dict:
    """XMEANT's benchmark: which WMT12 pairs it can run, segment Kendall where it runs, and the
    TED en-de lexical diagnostic; writes ``xmeant.md`` and ``xmeant.json`` into ``out``."""
    from benchmarks.harness import machine, machine_line, source_commit, write_report
    from evalcore.io.tables import table
    from evalcore.resources.registry import shared_data_dir
    from mteval.data import wmt12

    root = (data or shared_data_dir()) / "mt"
    report: dict = {"machine": machine(), "commit": source_commit(), "bootstrap": n_boot, "seed": seed,
                    "max_segments": max_segments, "coverage": {}, "wmt12": {}}
    for pair in (*wmt12.PAIRS, "ted-en-de"):
        src, tgt = pair.removeprefix("ted-").split("-")
        report["coverage"][pair] = runnable(src, tgt)
    lines = [f"# XMEANT bench ({report['commit']})", "", machine_line(report["machine"]), "",
             "## Where XMEANT runs (suite's labellers and IBM-1 tables, no external frames)", "",
             table(["pair", "runs", "what is missing"],
                   [[p, "yes" if why is None else "no", "" if why is None else why[:160]]
                    for p, why in report["coverage"].items()])]
    for pair in pairs:
        if report["coverage"].get(pair) is not None:
            continue
        from mteval.meant.lexsim import cached_lexical_table

        pivot = next(lang for lang in pair.split("-") if lang != "en")
        name, bitext = news_bitext(root.parent, pivot)
        news_table = out / f"ibm1-{name}.npz"
        out.mkdir(parents=True, exist_ok=True)
        cached_lexical_table(name, bitext).save(news_table)
        result = wmt12_xmeant(root / "wmt12", pair, max_segments, n_boot, seed, news_table)
        report["wmt12"][pair] = result
        rows = [[name, _cell(m["kendall_wmt12"]), _cell(m["kendall_no_ties"]), f"{1 / m['seconds_per_item']:.1f}",
                 str(m["errors"])] for name, m in result["metrics"].items()]
        lines += ["", f"## WMT12 {pair}: segment Kendall ({result['segments']} segments, {result['systems']} systems, "
                      f"{result['comparisons']} comparisons; 95% bootstrap CIs over segments)", "",
                  table(["metric", "Kendall (WMT12, ties penalised)", "Kendall (ties excluded)", "items/s", "errors"],
                        rows)]
    ted = ted_lexical(root.parent, n_boot, seed)
    report["ted"] = ted
    lines += ["", f"## TED en-de (MQM, no reference): XMEANT cannot run, what its backoff gives "
                  f"({ted['segments']} segments x {len(ted['systems'])} MT systems, ref-A left out)", "",
              "Tables: " + "; ".join(f"{k}: `{v}`" for k, v in ted["tables"].items()),
              "", table(["measure", "Kendall (no grouping)", "Pearson (no grouping)", "Kendall (per segment)",
                         "Pearson (system)"],
                        [[name, _cell(r["none-kendall"]), _cell(r["none-pearson"]), _cell(r["item-kendall"]),
                          _cell(r["system-pearson"])] for name, r in ted["rows"].items()])]
    md = "\n".join(lines) + "\n"
    write_report(out, "xmeant", md, report)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks xmeant``: options, run, the table on stdout."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks xmeant",
                                     description="XMEANT's benchmark (WMT12 pairs it can run, TED en-de diagnostic)")
    parser.add_argument("--out", type=Path, required=True, help="folder for xmeant.md and xmeant.json")
    parser.add_argument("--pairs", nargs="*", default=["fr-en", "en-fr"])
    parser.add_argument("--max-segments", type=int, default=200)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    bench(args.out, None, args.pairs, args.max_segments, args.bootstrap, args.seed)
    print((args.out / "xmeant.md").read_text(encoding="utf-8"))
    return 0


def runnable(source_language: str, language: str) -> str | None:
    """None when XMEANT (the suite's labellers, the default tables) runs on this pair, else why not."""
    try:
        Xmeant(source_language, language).validate()
    except (ResourceError, ValueError) as exc:
        return str(exc)
    return None
