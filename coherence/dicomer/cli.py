"""DICOMER commands for the ``coherence`` CLI: ``score`` and ``train dicomer``.
:func:`add_commands` registers them on an existing argparse tree."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from coherence.dicomer.config import DEFAULT_MODE, DEFAULT_VARIANT, MODES, VARIANTS
from coherence.dicomer.synthetic import GENRE_SETS
from coherence.inputs import add_relation_source_args, add_text_inputs, text_sources
from evalcore.cli.convention import (
    EXIT_OK,
    add_limit_args,
    add_metric_args,
    add_output_args,
    check_output_dir,
    check_output_path,
    command,
    emit,
    exit_code,
    jsonl_line,
    limits_of,
    select_metrics,
    strict_json,
    tsv_cell,
)
from evalcore.extras import require
from evalcore.io.textfiles import InputError
from evalcore.metric import ErrorRecord, Item, Score
from evalcore.text.sentences import add_sentences_arg

Result = Score | ErrorRecord


def _metrics(args) -> list:
    """The metrics ``-m`` names (``coherence`` registers ``dicomer``), configured from the flags."""
    return select_metrics(args.metric, "coherence", default=("dicomer",),
                          options={"model": args.model, "precomputed": args.precomputed, "external": args.external,
                                   "external_format": args.external_format, "cache": not args.no_cache,
                                   "sentences": args.sentences})


def record(name: str, results: Mapping[str, Result]) -> dict:
    """One text as JSON: ``file``, ``scores`` (metric -> value) and where present ``components``,
    ``notes`` (metric -> list) and ``errors`` (metric -> message)."""
    out: dict = {"file": name, "scores": {m: r.value for m, r in results.items() if r.ok}}
    components = {m: dict(r.components) for m, r in results.items() if r.ok and r.components}
    notes = {m: list(r.notes) for m, r in results.items() if r.ok and r.notes}
    errors = {m: r.message for m, r in results.items() if not r.ok}
    for key, value in (("components", components), ("notes", notes), ("errors", errors)):
        if value:
            out[key] = value
    return out


def renderers(names: Sequence[str], metrics: Sequence,
              rows: Sequence[tuple[str, Mapping[str, Result]]]) -> dict[str, Callable[[], str]]:
    """The renderers of ``coherence score`` output, one per format of the convention; a metric's
    columns are its value and its ``component_names`` (DICOMER's log score, readability's questions)."""
    parts = {m.name: m.component_names for m in metrics}
    return {"json": lambda: strict_json({"signature": {m.name: m.signature().as_dict() for m in metrics},
                                         "texts": [record(n, r) for n, r in rows]}) + "\n",
            "jsonl": lambda: "".join(jsonl_line(record(n, r)) + "\n" for n, r in rows),
            "tsv": lambda: _tsv(names, parts, rows), "table": lambda: _table(names, parts, rows)}


def _tsv(names: Sequence[str], parts: Mapping[str, Sequence[str]],
         rows: Sequence[tuple[str, Mapping[str, Result]]]) -> str:
    head = ["file", *(c for n in names for c in (n, *(f"{n}.{p}" for p in parts[n]))), "notes", "errors"]
    lines = ["\t".join(head)]
    for file, results in rows:
        cells: list[object] = [file]
        for n in names:
            r = results[n]
            cells += [r.value if r.ok else None, *(r.components.get(p) if r.ok else None for p in parts[n])]
        cells.append("; ".join(f"{n}: {note}" for n, r in results.items() for note in r.notes))
        cells.append("; ".join(f"{n}: {r.message}" for n, r in results.items() if not r.ok))
        lines.append("\t".join(tsv_cell(c) for c in cells))
    return "\n".join(lines) + "\n"


def _table_cells(result: Result, parts: Sequence[str]) -> list[str]:
    """A text's value and components as the table shows them."""
    if not result.ok:
        return ["error", *("-" for _ in parts)]
    return [f"{result.value:.6f}", *(f"{result.components[p]:.4f}" for p in parts)]


def _table(names: Sequence[str], parts: Mapping[str, Sequence[str]],
           rows: Sequence[tuple[str, Mapping[str, Result]]]) -> str:
    from evalcore.io.tables import table

    body = table(["file", *(c for n in names for c in (n, *(p.replace("_", " ") for p in parts[n]))), "notes"],
                 [[file, *(c for n in names for c in _table_cells(results[n], parts[n])),
                   "; ".join(note for r in results.values() for note in r.notes) or "-"]
                  for file, results in rows])
    errors = [f"error: {file}: {n}: {r.message}" for file, results in rows for n, r in results.items() if not r.ok]
    return body + "\n" + "".join(f"{e}\n" for e in errors)


def cmd_score(args) -> int:
    """Score texts with DICOMER; output and signatures as the CLI convention says."""
    from evalcore.metric.batch import score_with

    sources = text_sources(args)
    output = check_output_path(args.output)
    metrics = _metrics(args)
    names = [m.name for m in metrics]
    signatures = [str(m.signature()) for m in metrics]  # loads the models: a missing one stops here
    limits = limits_of(args)
    items, unreadable = [], {}
    for k, source in enumerate(sources):
        try:
            items.append(Item(source.read(limits), id=source.name))
        except InputError as exc:  # the record names the file already
            unreadable[k] = str(exc).removeprefix(f"{source.name}: ")
    scored = iter(score_with(metrics, items, args.jobs, progress=True, limits=limits, unit="text",
                             scheduler=args.scheduler))
    rows: list[tuple[str, Mapping[str, Result]]] = []
    for k, source in enumerate(sources):
        if k in unreadable:
            rows.append((source.name, {n: ErrorRecord(source.name, n, unreadable[k]) for n in names}))
        else:
            rows.append((source.name, next(scored)))
    emit(args.format, renderers(names, metrics, rows), signatures, output)
    failed = sum(1 for _, results in rows if not all(r.ok for r in results.values()))
    return exit_code(failed, len(rows), "texts")


def cmd_train_dicomer(args) -> int:
    require("coherence", "coherence train dicomer (spaCy parses, a scikit-learn RankSVM)")
    from coherence.dicomer.metric import model_path
    from coherence.dicomer.train import model_name, train

    out = check_output_dir(args.out, "--out") if args.out else None
    if args.input or args.models or args.peers or args.human:
        args.mode = args.mode or "listwise"
        return _train_on_judged(args, out)
    args.mode = args.mode or DEFAULT_MODE
    target = model_path(out, model_name(args.mode, args.genres))
    if target.exists():
        print(f"overwriting {target}", file=sys.stderr)
    info = train(args.mode, args.variant, Path(args.data) if args.data else None, args.tier,
                 args.C if args.C == "svmlight" else _positive_float(args.C), args.seed, out, genres=args.genres)
    print(json.dumps(info, indent=2))
    return EXIT_OK


def _train_on_judged(args, out: Path | None) -> int:
    """`coherence train dicomer --input FILE.jsonl | --models DIR --peers DIR --human FILE`."""
    from coherence.dicomer.train import train_on_judged
    from evalcore.cli.convention import check_input_path
    from evalcore.data.human import read_human

    if not args.human:
        raise InputError("--human FILE (JSONL or TSV with topic, system and the --target dimension) is needed "
                         "to train on --input or --models/--peers")
    if args.mode != "listwise":
        raise InputError("your own judged summaries train listwise: give --mode listwise (or leave --mode out)")
    check_input_path(args.human, "--human")
    if bool(args.models) != bool(args.peers):
        raise InputError("--models and --peers go together")
    if bool(args.input) == bool(args.models):
        raise InputError("give one input: --input FILE.jsonl or --models DIR --peers DIR")
    if args.input:
        from evalcore.data.jsonl import read_jsonl

        check_input_path(args.input)
        items, source = read_jsonl(args.input), args.input
    else:
        from evalcore.data.tac import read_tac

        items, source = read_tac(args.models, args.peers), args.peers
    info = train_on_judged(items, read_human(args.human), args.target, args.variant, args.tier,
                           args.C if args.C == "svmlight" else _positive_float(args.C), args.seed, out, str(source))
    print(json.dumps(info, indent=2))
    return EXIT_OK


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"--C takes a positive number or 'svmlight', got {text!r}") from None
    if not value > 0:
        raise InputError(f"--C must be positive, got {value}")
    return value


def add_commands(subparsers, train_subparsers) -> None:
    """Register ``score`` on ``subparsers`` and ``dicomer`` under ``train`` of the ``coherence``
    command tree."""
    s = command(subparsers, "score", cmd_score, help="DICOMER readability scores of text files")
    add_metric_args(s, "coherence", default_metrics=("dicomer",))
    add_text_inputs(s, "score")
    add_output_args(s)
    add_limit_args(s, scheduler=True)
    s.add_argument("--model", help="a DICOMER model other than the shipped one")
    s.add_argument("--no-cache", action="store_true", help="neither read nor write the on-disk parse cache")
    add_sentences_arg(s)
    add_relation_source_args(s)

    t = command(train_subparsers, "dicomer", cmd_train_dicomer,
                help="retrain the shipped DICOMER model (default: GDTB windows vs permutations, licence-clean genres)")
    t.add_argument("--mode", choices=MODES, default=None,
                   help="gdtb-permutation (default): GDTB windows vs seeded permutations; listwise/permutation/"
                        "combined: SummEval summaries and/or articles (listwise models)")
    t.add_argument("--genres", choices=GENRE_SETS, default="open",
                   help="gdtb-permutation: GUM genres whose text licence allows commercial use (default), or all "
                        "(opt-in, non-commercial: written as dicomer_gdtb_all, scored as dicomer-gdtb-all)")
    t.add_argument("--variant", choices=list(VARIANTS), default=DEFAULT_VARIANT)
    t.add_argument("--data", help="gdtb-permutation: shared data root; else SummEval file or folder "
                                  "(default ../shared/data)")
    t.add_argument("--tier", type=int, choices=(0, 1), default=1, help="discourse parser tier")
    own = t.add_argument_group("your own judged summaries (listwise; needs --human and --out)")
    own.add_argument("-i", "--input", help="JSONL with topic, system, summary, references (the format of `summeval`; "
                                           "references unused)")
    own.add_argument("--models", type=Path, help="TAC folder of model (reference) summaries")
    own.add_argument("--peers", type=Path, help="TAC folder of peer summaries")
    own.add_argument("--human", type=Path, help="human scores: JSONL or TSV/CSV with topic, system, dimensions")
    own.add_argument("--target", default="coherence", help="human dimension to rank by (default coherence)")
    t.add_argument("--C", default="svmlight", help="RankSVM C or 'svmlight' (1 / mean(d.d))")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", help="output folder (default coherence/models: replaces the shipped model)")
