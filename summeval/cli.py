"""``summeval``: score summaries, correlate metrics with human judgments, run benchmarks."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evalcore.workers import jobs_arg
from summeval.io import InputError, read_jsonl, read_summeval, read_tac
from summeval.metrics import ALL_METRICS, DEFAULT_METRICS, available_metrics, get_metric
from summeval.metrics.multiref import MULTI_REF_MODES


def _add_sources(p) -> None:
    """The summary inputs shared by ``score`` and ``train cremer``."""
    src = p.add_argument_group("input (a TAC folder pair, a JSONL file, or SummEval's file)")
    src.add_argument("--models", type=Path, help="folder of model (reference) summaries, TAC names")
    src.add_argument("--peers", type=Path, help="folder of peer summaries, TAC names")
    src.add_argument("--include-models", action="store_true",
                     help="also score each model against the other models of its topic")
    src.add_argument("--input", type=Path, help="JSONL with topic, system, summary, references")
    src.add_argument("--summeval", type=Path, help="SummEval 16-system JSON file or 12-system folder")


def _add_score(sub) -> None:
    p = sub.add_parser("score", help="score peer summaries against model summaries")
    _add_sources(p)
    p.add_argument("--metric", "-m", action="append", choices=[*available_metrics(), "all"], metavar="NAME",
                   help=f"metric to compute (repeatable; default: {' '.join(DEFAULT_METRICS)}); "
                        f"one of {', '.join(available_metrics())}, or all = {' '.join(ALL_METRICS)}")
    p.add_argument("--multi-ref", choices=MULTI_REF_MODES, default="max",
                   help="TESLA-S with several model summaries (default: max, as in the paper)")
    p.add_argument("--stem", action="store_true", help="Porter-stem content words for TESLA-S")
    p.add_argument("--function-words", choices=("list", "pos", "none"), default="list",
                   help="TESLA-S function-word detection (default: closed-class word list)")
    p.add_argument("--cremer-models", type=Path, metavar="DIR",
                   help="CREMER models from `summeval train cremer --out DIR` (default: the shipped ones)")
    p.add_argument("--format", choices=("table", "json", "tsv"), default="table")
    p.add_argument("--output", "-o", type=Path, help="write here instead of standard output")
    p.add_argument("--jobs", "-j", type=jobs_arg, default=1, help="worker processes (0 = all cores); work is split into "
                   "chunks of whole topics of ~256 summaries, so smaller inputs run in one process")
    p.add_argument("--report", type=Path, metavar="DIR",
                   help="also write a self-contained HTML report and its Markdown twin into DIR")
    p.add_argument("--human", type=Path,
                   help="human scores (JSONL or TSV with topic, system, dimensions) for the report's correlations")


def _add_correlate(sub) -> None:
    p = sub.add_parser("correlate", help="correlate metric scores with human scores")
    p.add_argument("--scores", type=Path, required=True, help="JSON written by `summeval score --format json`")
    p.add_argument("--human", type=Path, required=True,
                   help="human scores: JSONL (topic, system, dimension fields) or TSV/CSV with a header")
    p.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"),
                   help="Koehn-style test: share of topic resamples where metric A beats metric B")
    p.add_argument("--bootstrap", type=int, default=1000, help="resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--format", choices=("table", "json"), default="table")


def _add_bench(sub) -> None:
    p = sub.add_parser("bench", help="benchmarks that write Markdown + JSON tables")
    bench = p.add_subparsers(dest="bench", required=True)
    b = bench.add_parser("summeval", help="TESLA-S vs ROUGE against SummEval expert scores")
    b.add_argument("--data", type=Path, help="SummEval 16-system JSON (default: ../shared/data/summeval/...)")
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--bootstrap", type=int, default=1000)
    s = bench.add_parser("speed", help="throughput ratios vs rouge-score and LP solvers")
    s.add_argument("--data", type=Path, help="SummEval 16-system JSON (default: ../shared/data/summeval/...)")
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--problems", type=int, default=1000, help="random 30x30 LPs (default 1000)")
    r = bench.add_parser("responsiveness", help="CREMER vs TESLA-S, DICOMER, ROUGE on SummEval overall (5-fold CV)")
    r.add_argument("--data", type=Path, help="SummEval 16-system JSON (default: ../shared/data/summeval/...)")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--bootstrap", type=int, default=1000)
    c = bench.add_parser("scale", help="synthetic corpus: one process vs --jobs vs a Dask cluster")
    c.add_argument("--data", type=Path, help="SummEval 16-system JSON the corpus is drawn from")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--summaries", type=int, default=100_000)
    c.add_argument("--workers", type=int, default=2)


def _add_train(sub) -> None:
    p = sub.add_parser("train", help="retrain a shipped model")
    what = p.add_subparsers(dest="what", required=True)
    c = what.add_parser("cremer", help="CREMER SVR: on SummEval by default (TESLA-S + out-of-fold DICOMER -> "
                                       "overall), or on your judged summaries with --human")
    _add_sources(c)
    c.add_argument("--human", type=Path, help="human scores (JSONL or TSV with topic, system, dimensions) "
                                              "for --models/--peers or --input")
    c.add_argument("--kernel", choices=("rbf", "poly", "linear", "all"), default="all")
    c.add_argument("--target", default="mean",
                   help="human dimension to fit (default: mean = SummEval's mean of the four dimensions)")
    c.add_argument("--out", type=Path, help="model folder (default: data/summeval)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="summeval", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_score(sub)
    _add_correlate(sub)
    _add_bench(sub)
    _add_train(sub)
    return parser


def _read_items(args):
    sources = [s for s in (args.models or args.peers, args.input, args.summeval) if s]
    if len(sources) != 1:
        raise InputError("give exactly one input: --models DIR --peers DIR, --input FILE.jsonl, or --summeval PATH")
    if args.models or args.peers:
        if not (args.models and args.peers):
            raise InputError("--models and --peers go together")
        return read_tac(args.models, args.peers, include_models=args.include_models)
    if args.input:
        return read_jsonl(args.input)
    return read_summeval(args.summeval)


def _score(args) -> int:
    from summeval.report import to_json, to_text, to_tsv
    from summeval.scoring import aggregate_systems, score_items

    items = _read_items(args)
    names = list(dict.fromkeys(n for m in (args.metric or DEFAULT_METRICS)
                               for n in (ALL_METRICS if m == "all" else (m,))))
    options = {"multi_ref": args.multi_ref, "stem": args.stem, "function_words": args.function_words,
               "cremer_models": args.cremer_models}
    signatures = {n: get_metric(n, **options).signature() for n in names}
    results = score_items(items, names, options, jobs=args.jobs, progress=sys.stderr.isatty())
    systems = aggregate_systems(results, names)
    if args.format == "json":
        text = to_json(signatures, results, systems) + "\n"
    elif args.format == "tsv":
        text = to_tsv(names, results)
    else:
        text = to_text(signatures, names, results, systems)
    if args.output:
        args.output.write_text(text, "utf-8")
    else:
        sys.stdout.write(text)
    if args.format != "table":
        for sig in signatures.values():
            print(sig, file=sys.stderr)
    if args.report:
        _write_report(args, signatures, names, results, systems)
    failed = sum(r.error is not None for r in results)
    if failed:
        print(f"{failed} of {len(results)} summaries could not be scored (see error records)", file=sys.stderr)
    return 0


def _write_report(args, signatures, names, results, systems) -> None:
    """HTML + Markdown report; with --human, correlations and plots against the human scores."""
    import numpy as np

    from summeval.correlate import correlation_table, matrices, read_human
    from summeval.report_html import write_report

    human_by_system, corr = None, None
    if args.human:
        human = read_human(args.human)
        scored = {(r.topic, r.system): r.scores for r in results if r.error is None}
        keys = scored.keys() & human.keys()
        if not keys:
            raise InputError(f"no scored (topic, system) pair has human scores in {args.human}")
        topics, systems_ = sorted({t for t, _ in keys}), sorted({s for _, s in keys})
        dims = sorted({d for k in keys for d in human[k]})
        human_m = matrices({k: human[k] for k in keys}, dims, topics, systems_)
        corr = correlation_table(matrices({k: scored[k] for k in keys}, names, topics, systems_), human_m)
        human_by_system = {s: {d: float(np.nanmean(human_m[d][:, j])) for d in dims} for j, s in enumerate(systems_)}
    html_path, _ = write_report(args.report, signatures, names, results, systems, human_by_system, corr)
    print(f"report written to {html_path}", file=sys.stderr)


def _correlate(args) -> int:
    from summeval.bench.tables import correlation_markdown
    from summeval.correlate import correlation_table, matrices, read_human, significance_table

    try:
        doc = json.loads(args.scores.read_text("utf-8"))
        summaries = doc["summaries"]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputError(f"{args.scores}: not a `summeval score --format json` file ({exc})") from None
    human = read_human(args.human)
    scored = {(s["topic"], s["system"]): s["scores"] for s in summaries if not s.get("error")}
    names = sorted({n for s in scored.values() for n in s})
    dims = sorted({d for h in human.values() for d in h})
    keys = scored.keys() & human.keys()
    if not keys:
        raise InputError(f"no (topic, system) pair of {args.scores} has human scores in {args.human}")
    topics = sorted({t for t, _ in keys})
    systems = sorted({s for _, s in keys})
    metric_m = matrices({k: scored[k] for k in keys}, names, topics, systems)
    human_m = matrices({k: human[k] for k in keys}, dims, topics, systems)
    result = {"signature": doc.get("signature"), "n_topics": len(topics), "n_systems": len(systems),
              "correlations": correlation_table(metric_m, human_m, args.bootstrap, args.seed)}
    pairs = [tuple(p) for p in args.compare or []]
    for a, b in pairs:
        if a not in metric_m or b not in metric_m:
            raise InputError(f"--compare {a} {b}: both must be metrics in {args.scores} ({', '.join(names)})")
    if pairs:
        result["significance"] = significance_table(metric_m, human_m, pairs, args.bootstrap, args.seed)
    if args.format == "json":
        print(json.dumps(result, indent=2))
    else:
        print(correlation_markdown(result["correlations"], result.get("significance")))
        print(f"\n{len(topics)} topics x {len(systems)} systems; bootstrap {args.bootstrap} resamples of topics, seed {args.seed}")
        signatures = result["signature"] or {}
        print("\nSignatures", *(signatures.values() if isinstance(signatures, dict) else [signatures]), sep="\n")
    return 0


def _bench(args) -> int:
    if args.bench == "summeval":
        from summeval.bench.summeval_bench import run
        run(args.data, args.out, n_boot=args.bootstrap)
    elif args.bench == "responsiveness":
        from summeval.bench.responsiveness import run
        run(args.data, args.out, n_boot=args.bootstrap)
    elif args.bench == "speed":
        from summeval.bench.speed import run
        run(args.data, args.out, n_problems=args.problems)
    else:
        from summeval.bench.scale import run
        run(args.data, args.out, n_summaries=args.summaries, workers=args.workers)
    return 0


def _train(args) -> int:
    from evalcore.resources import shared_data_dir
    from summeval.cremer import KERNELS, train_on_judged, train_on_summeval

    kernels = tuple(KERNELS) if args.kernel == "all" else (args.kernel,)
    if args.models or args.peers or args.input:
        if not args.human:
            raise InputError("--human FILE is needed to train on --models/--peers or --input")
        from summeval.correlate import read_human

        items = _read_items(args)
        paths = train_on_judged(items, read_human(args.human), args.target, kernels, args.out,
                                source=str(args.input or args.peers))
    else:
        data = args.summeval or shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
        paths = train_on_summeval(data, kernels, args.target, args.out)
    for path in paths:
        print(f"wrote {path}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"score": _score, "correlate": _correlate, "bench": _bench, "train": _train}[args.command](args)
    except (InputError, ValueError) as exc:
        print(f"summeval: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
