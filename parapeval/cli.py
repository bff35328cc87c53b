"""The `parapeval` command line: score, compare, correlate, train, setup, build-phrase-table, build-lm.

`score` follows the suite's CLI convention (:mod:`evalcore.cli.convention`): ``-i`` a pair file or ``-``,
``-o`` a file or ``-``, ``--format table|json|jsonl|tsv`` (machine formats pure on stdout, the
signature inside JSON or on stderr), exit codes 0 all pairs scored, 1 some pairs failed (count
on stderr), 2 usage error or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from evalcore.cli.convention import (
    EXIT_OK,
    add_io_args,
    add_limit_args,
    add_metric_args,
    add_output_args,
    check_input_path,
    check_output_dir,
    check_output_path,
    command,
    dispatch,
    emit,
    exit_code,
    guarded,
    limits_of,
    new_parser,
    positive_int,
    select_metrics,
)
from evalcore.cli.meta_evaluate import add_statistics_args
from evalcore.extras import require
from evalcore.io.textfiles import InputError
from evalcore.resources import defaults
from evalcore.text.languages import language_code

if TYPE_CHECKING:
    from evalcore.metric.base import Result

PROG = "parapeval"
MAX_ERRORS_SHOWN = 20


def _log(msg: str) -> None:
    print(f"[parapeval] {msg}", file=sys.stderr, flush=True)


def _table_args(args: argparse.Namespace) -> dict[str, str]:
    """``--table PIVOT=PATH`` options as a mapping; a malformed one is a usage error."""
    tables = {}
    for spec in args.table or []:
        pivot, sep, path = spec.partition("=")
        if not sep or not pivot or not path:
            raise InputError(f"--table takes PIVOT=PATH (e.g. fr=tables/fr.sqlite), got {spec!r}")
        tables[pivot] = path
    return tables


def _pivot_args(args: argparse.Namespace) -> list[str] | None:
    return [p for p in args.pivots.split(",") if p] if args.pivots else None


def _features(args: argparse.Namespace):
    """Features from --table/--pivots/--lm/--discount, the defaults filling what is not given
    (for training and the benchmark, where no model fixes the pivots)."""
    from parapeval.pem.metric import PEMFeatures

    tables = _table_args(args)
    pivots = _pivot_args(args) or list(tables) or list(defaults.DEFAULT_PIVOTS)
    paths = {p: tables.get(p, str(defaults.phrase_table_path(p))) for p in pivots}
    return PEMFeatures.from_paths(paths, args.lm or defaults.lm_path(), args.discount)


# ---- score ------------------------------------------------------------------------------------
def _metrics(args: argparse.Namespace) -> list:
    """The chosen metrics (default: PEM), configured from the options and validated; pairs carry
    no references, so a metric that reads them is a usage error (``parapeval compare`` takes them)."""
    metrics = select_metrics(args.metric, "parapeval", default=("pem",), options=_pem_params(args))
    needing = [m.name for m in metrics if m.reads == "source+references"]
    if needing:
        raise InputError(f"{', '.join(needing)} read references, which `parapeval score` pairs do not carry: "
                         "use `parapeval compare` (a references field, column or file)")
    return metrics


def cmd_score(args: argparse.Namespace) -> int:
    from evalcore.metric import Item
    from evalcore.metric.batch import score_with
    from evalcore.metric.records import ErrorRecord
    from parapeval.io import read_pairs
    from parapeval.report import Row, render_json, render_jsonl, render_table, render_tsv

    out = check_output_path(args.output)
    check_input_path(args.input)
    limits = limits_of(args)
    metrics = _metrics(args)
    signatures = {m.name: m.signature() for m in metrics}
    records = read_pairs(args.input, args.system_field)
    todo = [r for r in records if not r.error]
    # a JSON value that is not text is kept as read: the metric's input check names it
    items = [Item(r.paraphrase, source=r.original, id=r.item, lang=args.lang) for r in todo]
    scored = iter(score_with(metrics, items, jobs=args.jobs, progress=True, limits=limits,
                             key=lambda item: item.source, unit="pair", scheduler=args.scheduler))
    rows = []
    for rec in records:
        results: dict[str, Result]
        if rec.error:
            results = {m.name: ErrorRecord(rec.item, m.name, rec.error) for m in metrics}
        else:  # parapeval's rows show the item already: drop the repeated id from the message
            results = {name: res if res.ok else ErrorRecord(rec.item, name, res.message.removeprefix(f"{rec.item}: "))
                       for name, res in next(scored).items()}
        rows.append(Row(rec.item, rec.system, results))
    emit(args.format, {"json": lambda: render_json(rows, metrics, {n: s.as_dict() for n, s in signatures.items()}),
                       "jsonl": lambda: render_jsonl(rows), "tsv": lambda: render_tsv(rows, metrics),
                       "table": lambda: render_table(rows, metrics)},
         [str(s) for s in signatures.values()], out)
    failed = [r for r in rows if r.failed]
    for row in failed[:MAX_ERRORS_SHOWN]:
        for name, res in row.results.items():
            if not res.ok:
                print(f"{PROG}: {row.item}: {name}: {res.message}", file=sys.stderr)
    if len(failed) > MAX_ERRORS_SHOWN:
        print(f"{PROG}: ... and {len(failed) - MAX_ERRORS_SHOWN} more pairs with errors", file=sys.stderr)
    return exit_code(len(failed), len(rows), "pairs")


# ---- compare ----------------------------------------------------------------------------------
#: metrics against references, offered beside parapeval's own (mteval's registered baselines)
REFERENCE_BASELINES = ("bleu", "chrf", "ter", "meteor")


def _generator_metrics(args: argparse.Namespace, with_references: bool, where: str) -> list:
    """The chosen metrics of ``compare`` and ``correlate``; by default PEM, self-BLEU and, where
    references are given, iBLEU and the reference baselines. A metric that reads references
    without any given is a usage error saying ``where`` they go."""
    default = ("pem", "self-bleu", "ibleu", *REFERENCE_BASELINES) if with_references else ("pem", "self-bleu")
    metrics = select_metrics(args.metric, "parapeval", default=default,
                             options={**_pem_params(args), "alpha": getattr(args, "ibleu_alpha", None)},
                             also=REFERENCE_BASELINES)
    needing = [m.name for m in metrics if m.reads in ("references", "source+references")]
    if needing and not with_references:
        raise InputError(f"{', '.join(needing)} read references: {where}")
    return metrics


def cmd_compare(args: argparse.Namespace) -> int:
    from evalcore.cli.convention import system_names
    from evalcore.metric import Item
    from evalcore.metric.batch import score_with
    from evalcore.metric.records import ErrorRecord
    from parapeval.compare import (
        align,
        metric_tables,
        read_line_files,
        render_html,
        render_json,
        render_table,
        render_tsv,
    )
    from parapeval.io import read_pairs
    from parapeval.report import Row

    out = check_output_path(args.output)
    for path in [*args.input, *(args.references or []), *([args.originals] if args.originals else [])]:
        check_input_path(path)
    test = "bootstrap" if args.paired_bs else "randomization" if args.paired_ar else None
    if args.originals:
        records = read_line_files(args.originals, list(zip(system_names(args.input), args.input)),
                                  args.references or [])
    else:
        if args.references:
            raise InputError("--references goes with --originals (line files); JSONL and TSV carry references "
                             "in a references field or column")
        if len(args.input) > 1:
            raise InputError("several -i files are one file per system: give --originals too")
        records = read_pairs(args.input[0], args.system_field)
    metrics = _generator_metrics(args, any(r.references for r in records),
                                 "give --references files (with --originals) or a references field (JSONL) or "
                                 "column (TSV)")
    aligned = align(records)
    if test and len(aligned.systems) < 2:
        raise InputError(f"--paired-{'bs' if test == 'bootstrap' else 'ar'} compares systems: the input holds "
                         f"one ({aligned.systems[0]})")
    signatures = {m.name: m.signature() for m in metrics}
    todo = [k for k, r in enumerate(records) if not r.error and k not in aligned.duplicates]
    items = [Item(records[k].paraphrase, records[k].references, source=records[k].original, id=records[k].item,
                  lang=args.lang) for k in todo]
    scored = iter(score_with(metrics, items, jobs=args.jobs, progress=True, limits=limits_of(args),
                             key=lambda item: item.source, unit="pair", scheduler=args.scheduler))
    rows = []
    for k, rec in enumerate(records):
        why = rec.error or aligned.duplicates.get(k)
        results = ({m.name: ErrorRecord(rec.item, m.name, why) for m in metrics} if why else next(scored))
        rows.append(Row(rec.item, rec.system, results))
    tables = metric_tables(metrics, rows, aligned, test, args.paired_n, args.seed)
    shown_sigs = [str(s) for s in signatures.values()]
    size = (len(aligned.systems), len(aligned.keys))
    emit(args.format, {"json": lambda: render_json(rows, tables, {n: s.as_dict() for n, s in signatures.items()},
                                                   aligned),
                       "tsv": lambda: render_tsv(tables), "table": lambda: render_table(tables, *size),
                       "html": lambda: render_html(tables, *size, shown_sigs)},
         [] if args.format == "html" else shown_sigs, out)
    failed = [r for r in rows if r.failed]
    for row in failed[:MAX_ERRORS_SHOWN]:
        res = next(r for r in row.results.values() if not r.ok)
        print(f"{PROG}: {row.item}: {res.metric}: {res.message}", file=sys.stderr)
    missing = {s: aligned.missing(s) for s in aligned.systems if aligned.missing(s)}
    for system, n in missing.items():
        print(f"{PROG}: system {system} has no output for {n} of {len(aligned.keys)} inputs", file=sys.stderr)
    if missing and not failed:
        return exit_code(sum(missing.values()), len(aligned.keys) * len(aligned.systems), "system outputs")
    return exit_code(len(failed), len(rows), "pairs")


# ---- correlate --------------------------------------------------------------------------------
def cmd_correlate(args: argparse.Namespace) -> int:
    from evalcore.cli.convention import strict_json
    from evalcore.cli.meta_evaluate import board, board_text, settings_of, undefined_exit
    from evalcore.metric.batch import score_with
    from evalcore.stats.leaderboard import to_html
    from parapeval.correlate import DIMENSIONS, metric_cells, read_set

    out = check_output_path(args.output)
    settings = settings_of(args, args.resamples, args.seed)
    judged = read_set(args.set, args.data, args.max_inputs)
    metrics = _generator_metrics(args, all(j.references for j in judged), f"{args.set} has none")

    def score(ms, items):
        return score_with(ms, items, jobs=args.jobs, progress=True, limits=limits_of(args), key=lambda i: i.source,
                          unit="pair", scheduler=args.scheduler)

    cells = metric_cells(metrics, judged, score)
    human = {(j.system, j.input): j.score for j in judged}
    dimension = DIMENSIONS[args.set]
    b = board(cells, human, f"{args.set} {dimension}", settings, PROG)
    notes = [*b.notes, "metrics where lower is better are negated (-name): every row reads higher = better"]
    notes += [f"{m.name}: its shipped model was trained on {m.trained_on}: in-sample on this set"
              for m in metrics if m.trained_on and args.set == "twitter-para" and "Twitter-Para" in m.trained_on]
    signatures = {m.name: m.signature().as_dict() for m in metrics}
    shorts = [str(m.signature()) for m in metrics]
    emit(args.format, {"json": lambda: strict_json({"signature": signatures, "set": args.set, **b.result,
                                                    "notes": notes}) + "\n",
                       "table": lambda: board_text(type(b)(b.result, b.title, notes)),
                       "html": lambda: to_html(b.title, b.rows, notes, shorts)}, shorts, out)
    return undefined_exit([b], PROG)


# ---- building resources -----------------------------------------------------------------------
def cmd_build_phrase_table(args: argparse.Namespace) -> int:
    from evalcore.bpng import PhraseTableStore
    from evalcore.resources.phrase_table import build_phrase_table
    from evalcore.resources.phrase_table.bitext import read_parallel_files

    check_output_dir(Path(args.out).parent, "--out")
    pairs = read_parallel_files(args.src, args.tgt)
    if args.max_sentences:
        pairs = pairs[:args.max_sentences]
    name = args.name or Path(args.tgt).stem
    started = time.perf_counter()
    path = build_phrase_table(pairs, args.pivot, args.out, name, stem=not args.no_stem, log=_log)
    print(f"{path}\t{PhraseTableStore(path).signature()}\t{time.perf_counter() - started:.1f}s")
    return EXIT_OK


def cmd_build_lm(args: argparse.Namespace) -> int:
    from evalcore.io.textfiles import read_text
    from evalcore.resources.lm import KenLM, train_lm

    check_output_dir(Path(args.out).parent, "--out")
    lines = (line for path in args.text for line in read_text(path).splitlines())
    path = train_lm(lines, args.out, order=args.order, log=_log)
    print(f"{path}\tlm:{KenLM(path).signature()}")
    return EXIT_OK


def cmd_setup(args: argparse.Namespace) -> int:
    """Deprecated spelling of ``aesop-eval setup pem`` (kept for one release): builds the same
    resources and lists them as before (name, tab, path on stdout)."""
    from evalcore.resources.system import ensure

    print("parapeval: `parapeval setup` is deprecated and goes in the next release; use `aesop-eval setup pem`",
          file=sys.stderr)
    ensure("pem", verify=True)
    for pivot in defaults.DEFAULT_PIVOTS:
        print(f"{pivot}\t{defaults.phrase_table_path(pivot)}")
    print(f"lm\t{defaults.lm_path()}")
    return EXIT_OK


def cmd_train(args: argparse.Namespace) -> int:
    import numpy as np

    require("pem", "parapeval train (PEM's features and scikit-learn SVR)")
    from parapeval.data import TWITTER_PARA_LICENCE, read_twitter_para, twitter_para_path
    from parapeval.pem.model import neutral_point, save_pem
    from parapeval.pem.train import feature_matrix, fit_pem, training_pairs

    check_output_dir(Path(args.out).parent, "--out")
    features = _features(args)
    data = twitter_para_path(args.data)
    human = read_twitter_para(data)
    pairs = training_pairs(human, args.controls, args.seed)
    _log(f"computing features of {len(pairs)} pairs ({features.signature()})")
    X, _ = feature_matrix(features, [(p.original, p.paraphrase) for p in pairs], progress=True)
    model = fit_pem(X, np.array([p.score for p in pairs]), [p.original for p in pairs])
    controls = f" + {len(pairs) - len(human)} controls (seed {args.seed})" if args.controls else ""
    info = {"signature": features.signature(), "trained_on": f"Twitter-Para ({data.name}): {len(human)} "
            f"human-scored pairs{controls}", "licence": TWITTER_PARA_LICENCE, "pivots": list(features.tables),
            "discount": args.discount, "controls": args.controls, "seed": args.seed, "pairs": len(pairs),
            "tables": features.table_signatures(), "neutral": neutral_point(model, X),
            "best_params": {k: str(v) for k, v in model.best_params_.items()}}
    path = save_pem(model, args.out, info)
    print(f"{path}\t{json.dumps(info)}")
    return EXIT_OK


def _pem_params(args: argparse.Namespace) -> dict:
    """PEM's parameters from --model/--pivots/--table/--lm/--discount (None = the default)."""
    return {"model": args.model, "pivots": _pivot_args(args), "tables": _table_args(args) or None,
            "lm": args.lm, "discount": args.discount}


# ---- parser -----------------------------------------------------------------------------------
def _feature_args(p: argparse.ArgumentParser, model: bool = False) -> None:
    p.add_argument("--pivots", help="comma-separated pivot languages (default: the model's, else fr,de,es,zh)")
    p.add_argument("--table", action="append", metavar="PIVOT=PATH", help="phrase table for a pivot (repeatable)")
    p.add_argument("--lm", help="KenLM model file (default: the one `aesop-eval setup pem` builds)")
    p.add_argument("--discount", type=float, default=None,
                   help="function-word discount in BPNG (default: the model's; off for training)")
    if model:
        p.add_argument("--model", help="PEM model file (default: shipped parapeval/models/pem-default.npz)")


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser(PROG, "PEM paraphrase evaluation", "parapeval")
    sub = parser.add_subparsers(dest="command", required=True)

    p = command(sub, "score", cmd_score, help="score (original, paraphrase) pairs with PEM")
    add_io_args(p, "parapeval", input_required=True, default_metrics=("pem",),
                input_help="pairs: .jsonl (original/paraphrase fields) or TSV (original, paraphrase[, system]); "
                           "- for standard input")
    p.add_argument("--system-field",
                   help="field (JSONL) or column (TSV) naming the generator (default: system, where present)")
    p.add_argument("--lang", metavar="CODE", type=language_code, default=None,
                   help="language of the pairs (ISO 639-1, default en): PEM reads English only, so pairs in "
                        "another language get error records naming it")
    _feature_args(p, model=True)

    p = command(sub, "compare", cmd_compare,
                help="rank paraphrase generators: system values with intervals, paired tests, clusters")
    add_io_args(p, "parapeval", input_required=True, input_nargs="+", formats=("table", "json", "tsv", "html"),
                also=REFERENCE_BASELINES,
                default_metrics=("pem", "self-bleu", "ibleu", *REFERENCE_BASELINES),
                input_help="generator outputs: one .jsonl (id, original, paraphrase, system, optional references) "
                           "or TSV (original, paraphrase, system[, references] with a header) file or -; or, with "
                           "--originals, one line file per system")
    p.add_argument("--originals", metavar="FILE", help="the inputs, one a line, line-aligned with each -i file")
    p.add_argument("--references", metavar="FILE", action="append",
                   help="human paraphrases, one a line, line-aligned with --originals (repeatable)")
    p.add_argument("--system-field", help="field (JSONL) or column (TSV) naming the generator (default: system)")
    p.add_argument("--lang", metavar="CODE", type=language_code, default=None,
                   help="language of the pairs (ISO 639-1, default en)")
    sig = p.add_mutually_exclusive_group()
    sig.add_argument("--paired-bs", action="store_true",
                     help="paired bootstrap resampling between every pair of systems (as sacrebleu's --paired-bs)")
    sig.add_argument("--paired-ar", action="store_true",
                     help="approximate randomization between every pair of systems (as sacrebleu's --paired-ar)")
    p.add_argument("--paired-n", type=positive_int, metavar="N",
                   help="resamples (default: 1000 bootstrap, 10000 randomization, as sacrebleu)")
    p.add_argument("--seed", type=int, default=12345,
                   help="seed of the intervals and paired tests (default 12345, as sacrebleu)")
    p.add_argument("--ibleu-alpha", type=float, default=None,
                   help="iBLEU's weight of BLEU against the references (default 0.8, Sun and Zhou 2012)")
    _feature_args(p, model=True)

    p = command(sub, "correlate", cmd_correlate,
                help="which metric agrees with human judgments of paraphrases (Twitter-Para, STS-B): a leaderboard")
    p.add_argument("--set", choices=("twitter-para", "sts-b"), default="twitter-para",
                   help="judged set (default twitter-para: overall 0..1; sts-b: similarity 0..5)")
    p.add_argument("--data", help="folder holding twitter_para/ and stsbenchmark/ (default ../shared/data/paraphrase)")
    p.add_argument("--max-inputs", type=positive_int, metavar="N",
                   help="only the first N tweets (Twitter-Para) or pairs (STS-B)")
    add_metric_args(p, "parapeval", also=REFERENCE_BASELINES, default_metrics=("pem", "self-bleu", "ibleu",
                                                                              *REFERENCE_BASELINES))
    add_statistics_args(p, statistic_default="pearson", level_default="global", resample_default="inputs",
                        test_default="perm-inputs")
    p.add_argument("-n", "--resamples", type=positive_int, default=1000, metavar="N",
                   help="resamples and permutations (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="default 0")
    add_output_args(p, ("table", "json", "html"))
    add_limit_args(p, scheduler=True)
    _feature_args(p, model=True)

    p = command(sub, "train", cmd_train, help="train a PEM regressor on Twitter-Para")
    p.add_argument("--data", help="twitter_para.jsonl or a folder holding it (default ../shared/data/paraphrase)")
    p.add_argument("--out", required=True, help="model file to write (.npz, data only, see docs/models.md)")
    p.add_argument("--controls", action="store_true", help="add the paper's three artificial controls per original")
    p.add_argument("--seed", type=int, default=0)
    _feature_args(p)

    command(sub, "setup", cmd_setup, help="deprecated: use `aesop-eval setup pem` (builds the same default phrase "
                                          "tables and LM into $AESOP_CACHE/resources)")

    p = command(sub, "build-phrase-table", cmd_build_phrase_table, help="phrase table from a line-aligned bitext")
    p.add_argument("--src", required=True, help="English side, one sentence per line")
    p.add_argument("--tgt", required=True, help="pivot side, line-aligned")
    p.add_argument("--pivot", required=True, help="pivot language code (fr, de, zh, ...)")
    p.add_argument("--out", required=True)
    p.add_argument("--name", help="bitext name in the signature (default: pivot file name)")
    p.add_argument("--no-stem", action="store_true", help="do not Porter-stem English")
    p.add_argument("--max-sentences", type=int, default=0)

    p = command(sub, "build-lm", cmd_build_lm, help="4-gram modified-KN LM with KenLM lmplz")
    p.add_argument("--text", nargs="+", required=True, help="English text files, one sentence per line")
    p.add_argument("--out", required=True)
    p.add_argument("--order", type=int, default=4)
    return parser


@guarded(PROG)
def main(argv: list[str] | None = None) -> int:
    return dispatch(PROG, build_parser, argv, "parapeval")


if __name__ == "__main__":
    sys.exit(main())
