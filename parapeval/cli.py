"""The `parapeval` command line: build-phrase-table, build-lm, setup, train, score, bench."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from evalcore.resources import ResourceError
from evalcore.workers import jobs_arg
from parapeval import defaults
from parapeval.fluency import LMTrainingError


def _log(msg: str) -> None:
    print(f"[parapeval] {msg}", file=sys.stderr, flush=True)


def cmd_build_phrase_table(args: argparse.Namespace) -> int:
    from parapeval.phrase_table import build_phrase_table
    from parapeval.phrase_table.bitext import read_parallel_files

    pairs = read_parallel_files(args.src, args.tgt)
    if args.max_sentences:
        pairs = pairs[:args.max_sentences]
    name = args.name or Path(args.tgt).stem
    started = time.perf_counter()
    path = build_phrase_table(pairs, args.pivot, args.out, name, stem=not args.no_stem, log=_log)
    from evalcore.bpng import PhraseTableStore

    print(f"{path}\t{PhraseTableStore(path).signature()}\t{time.perf_counter() - started:.1f}s")
    return 0


def cmd_build_lm(args: argparse.Namespace) -> int:
    from evalcore.textio import read_utf8
    from parapeval.fluency import FluencyScorer, train_lm

    lines = (line for path in args.text for line in read_utf8(path).splitlines())
    path = train_lm(lines, args.out, order=args.order, log=_log)
    print(f"{path}\t{FluencyScorer(path).signature()}")
    return 0


def cmd_setup(args: argparse.Namespace) -> int:
    from parapeval.default_resources import build_defaults

    for name, path in build_defaults(Path(args.cache) if args.cache else None, log=_log).items():
        print(f"{name}\t{path}")
    return 0


def _features(args: argparse.Namespace, pivots=defaults.DEFAULT_PIVOTS, discount: float | None = None):
    """Features from --table/--pivots/--lm/--discount, the defaults filling what is not given."""
    from parapeval.scoring import PEMFeatures

    tables = {}
    for spec in args.table or []:
        pivot, _, path = spec.partition("=")
        tables[pivot] = path
    if args.pivots:
        pivots = args.pivots.split(",")
    elif tables:
        pivots = list(tables)
    for p in pivots:
        tables.setdefault(p, str(defaults.phrase_table_path(p)))
    tables = {p: tables[p] for p in pivots}
    return PEMFeatures.from_paths(tables, args.lm or defaults.lm_path(),
                                  args.discount if args.discount is not None else discount)


def cmd_train(args: argparse.Namespace) -> int:
    from parapeval.data import read_twitter_para, twitter_para_path
    from parapeval.model import save_model
    from parapeval.training import controls_for, feature_matrix, fit_pem

    features = _features(args)
    pairs = read_twitter_para(twitter_para_path(args.data))
    if args.controls:
        y = [p.score for p in pairs]
        pairs = pairs + controls_for(pairs, min(y), max(y), args.seed)
    _log(f"computing features of {len(pairs)} pairs ({features.signature()})")
    X, _ = feature_matrix(features, [(p.original, p.paraphrase) for p in pairs],
                          progress=lambda i, n: _log(f"  {i}/{n}"))
    model = fit_pem(X, np.array([p.score for p in pairs]), [p.original for p in pairs])
    meta = {"pivots": list(features.tables), "discount": args.discount, "controls": args.controls,
            "features": features.signature(), "tables": features.table_signatures(), "pairs": len(pairs),
            "data": "twitter_para", "best_params": {k: str(v) for k, v in model.best_params_.items()}}
    path = save_model(model, args.out, meta)
    print(f"{path}\t{json.dumps(meta)}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from parapeval.io import read_pairs, write_results
    from parapeval.model import load_model
    from parapeval.scoring import PEM, PEMError, system_summary

    model_path = Path(args.model) if args.model else defaults.model_path()
    model, meta = load_model(model_path)
    pem = PEM(_features(args, meta.get("pivots", defaults.DEFAULT_PIVOTS), meta.get("discount")), model, model_path.stem)
    records = read_pairs(args.input, args.system_field)
    results, rows = [], []
    todo = [(r.item, r.original, r.paraphrase) for r in records if not r.error]
    scored = iter(pem.score_batch(todo, jobs=args.jobs))
    for rec in records:
        result = PEMError(rec.item, rec.error) if rec.error else next(scored)
        results.append(result)
        row = {"item": rec.item, "system": rec.system}
        if isinstance(result, PEMError):
            row["error"] = result.error
            _log(f"{rec.item}: {result.error}")
        else:
            row.update(pem=result.pem, adequacy=result.adequacy, fluency=result.fluency,
                       dissimilarity=result.dissimilarity, **{f"pivot_f1_{k}": v for k, v in result.pivot_f1.items()})
            if result.note:
                row["note"] = result.note
        rows.append(row)
    if args.out:
        write_results(args.out, rows)
    else:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    print(pem.signature())
    print(f"{'rank':>4}  {'system':<20} {'n':>6} {'err':>4} {'PEM':>8} {'adequacy':>9} {'fluency':>8} {'target F1':>9}")
    for row in system_summary([r.system for r in records], results):
        print(f"{row.get('rank', '-'):>4}  {row['system']:<20} {row['n']:>6} {row['errors']:>4} {row['pem']:>8.4f} "
              f"{row['adequacy']:>9.4f} {row['fluency']:>8.4f} {row['dissimilarity']:>9.4f}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from parapeval.bench.run import run_bench

    run_bench(Path(args.data) if args.data else None, Path(args.out), _features(args), log=_log,
              extra_tables=dict(spec.partition("=")[::2] for spec in args.bench_table or []))
    return 0


def _feature_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pivots", help="comma-separated pivot languages (default fr,de,es,zh)")
    p.add_argument("--table", action="append", metavar="PIVOT=PATH", help="phrase table for a pivot (repeatable)")
    p.add_argument("--lm", help="KenLM model file (default: the one built by setup)")
    p.add_argument("--discount", type=float, default=None, help="function-word discount in BPNG (off by default)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="parapeval", description="PEM paraphrase evaluation")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build-phrase-table", help="phrase table from a line-aligned bitext")
    p.add_argument("--src", required=True, help="English side, one sentence per line")
    p.add_argument("--tgt", required=True, help="pivot side, line-aligned")
    p.add_argument("--pivot", required=True, help="pivot language code (fr, de, zh, ...)")
    p.add_argument("--out", required=True)
    p.add_argument("--name", help="bitext name in the signature (default: pivot file name)")
    p.add_argument("--no-stem", action="store_true", help="do not Porter-stem English")
    p.add_argument("--max-sentences", type=int, default=0)
    p.set_defaults(func=cmd_build_phrase_table)

    p = sub.add_parser("build-lm", help="4-gram modified-KN LM with KenLM lmplz")
    p.add_argument("--text", nargs="+", required=True, help="English text files, one sentence per line")
    p.add_argument("--out", required=True)
    p.add_argument("--order", type=int, default=4)
    p.set_defaults(func=cmd_build_lm)

    p = sub.add_parser("setup", help="build default phrase tables and LM (skips what exists)")
    p.add_argument("--cache", help=f"cache folder (default {defaults.cache_dir()})")
    p.set_defaults(func=cmd_setup)

    p = sub.add_parser("train", help="train a PEM regressor on Twitter-Para")
    p.add_argument("--data", help="twitter_para.jsonl or a folder holding it (default ../shared/data/paraphrase)")
    p.add_argument("--out", required=True)
    p.add_argument("--controls", action="store_true", help="add the paper's three artificial controls per original")
    p.add_argument("--seed", type=int, default=0)
    _feature_args(p)
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("score", help="score pairs with PEM")
    p.add_argument("--input", required=True, help="pairs.jsonl (original/paraphrase fields) or pairs.tsv")
    p.add_argument("--system-field", help="field (JSONL) or column (TSV) naming the generator")
    p.add_argument("--model", help="PEM model file (default: shipped data/parapeval/pem-default.pkl)")
    p.add_argument("--out", help="per-pair results (.jsonl or .tsv); default: JSONL on stdout")
    p.add_argument("--jobs", type=jobs_arg, default=1, help="worker processes (0 = all cores)")
    _feature_args(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("bench", help="Twitter-Para CV, STS-B adequacy check, speed")
    p.add_argument("--data", help="folder holding twitter_para/ and stsbenchmark/ (default ../shared/data/paraphrase)")
    p.add_argument("--out", required=True)
    p.add_argument("--bench-table", action="append", metavar="NAME=PIVOT:PATH",
                   help="extra phrase table to compare (e.g. news-fr=fr:/path/fr.sqlite)")
    _feature_args(p)
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ResourceError, LMTrainingError, ValueError, OSError) as exc:
        print(f"parapeval {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
