"""``aesop-eval meta-evaluate``: which metric agrees with the humans, with intervals and
significance clusters, for any judged set (score files of ``summeval score`` / ``mteval score``
or plain TSV/JSONL tables, and a judgment table). Exit codes: 0 every metric has a value, 1 some
metric's statistic is undefined (the reason is in the output, a count on stderr), 2 bad usage or
input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evalcore.cli.convention import (
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    add_output_args,
    check_input_path,
    check_output_path,
    command,
    emit,
    positive_int,
    strict_json,
)
from evalcore.io.textfiles import InputError
from evalcore.stats.names import CI_METHODS, DESIGNS, LEVELS, STATISTICS, TESTS

FORMATS = ("table", "json", "html")


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def add_meta_evaluate(sub) -> argparse.ArgumentParser:
    """Add ``meta-evaluate`` to a subparsers object."""
    p = command(sub, "meta-evaluate", run_meta_evaluate,
                help="a leaderboard of metrics against human judgments, with intervals and clusters",
                description="Correlate (or pairwise-compare) every metric of the score files with one human "
                            "dimension at a level; intervals resample systems, inputs or both; metrics are "
                            "ranked into significance clusters. See docs/meta-evaluation.md.")
    p.add_argument("--scores", nargs="+", required=True, type=Path, metavar="FILE",
                   help="score files: `summeval score --format json`, `mteval score --format json --segments`, "
                        "or TSV/CSV/JSONL with system, input (topic, line, ...) and metric columns")
    p.add_argument("--human", required=True, type=Path, metavar="FILE",
                   help="judgments: TSV/CSV/JSONL with system, input and one column per dimension")
    p.add_argument("--dimension", required=True, metavar="NAME", help="the human dimension (a column of --human)")
    p.add_argument("--level", choices=LEVELS, default="system", help="default: system")
    p.add_argument("--statistic", choices=(*STATISTICS, "kendall"), default="kendall-b",
                   help="default: kendall-b (kendall is tau-b)")
    p.add_argument("--tie-calibration", action="store_true",
                   help="acc-eq: use the tie threshold epsilon that maximises it (reported; optimistic)")
    p.add_argument("--epsilon", type=float, default=0.0, help="acc-eq's tie threshold without calibration (0)")
    p.add_argument("--resample", choices=DESIGNS, default="both", help="interval design (default: both)")
    p.add_argument("--ci", choices=CI_METHODS, default="percentile", help="default: percentile")
    p.add_argument("--test", choices=TESTS, default="perm-both", help="test for the clusters (default: perm-both)")
    p.add_argument("-n", "--resamples", type=positive_int, default=1000, metavar="N",
                   help="resamples and permutations (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="default 0")
    p.add_argument("--alpha", type=_alpha, default=0.05, help="1 - interval level and test level (0.05)")
    add_output_args(p, FORMATS)
    return p


def run_meta_evaluate(args: argparse.Namespace) -> int:
    from evalcore.data.cells import align, read_cells
    from evalcore.io.tables import table
    from evalcore.stats.leaderboard import Settings, leaderboard, text_rows, to_html
    from evalcore.stats.levels import check

    output = check_output_path(args.output)
    for path in (*args.scores, args.human):
        check_input_path(path, "--scores" if path != args.human else "--human")
    statistic = check(args.level, args.statistic)
    if args.epsilon < 0:
        raise InputError(f"--epsilon must be at least 0, got {args.epsilon}")
    human = read_cells(args.human)
    if args.dimension not in human.values:
        raise InputError(f"{args.human}: no dimension {args.dimension!r}; it has {', '.join(human.columns)}")
    metrics: dict[str, dict] = {}
    origin: dict[str, Path] = {}
    signatures: dict = {}
    for path in args.scores:
        cells = read_cells(path)
        for name in cells.columns:
            if name in metrics:
                raise InputError(f"metric {name!r} is in both {origin[name]} and {path}")
            metrics[name], origin[name] = cells.values[name], path
        signatures.update(cells.signatures)
    if not metrics:
        raise InputError("the score files hold no metric column")
    m = align(metrics, human.values[args.dimension])
    for name in metrics:
        if m.unjudged[name] or m.unscored[name]:
            print(f"{name}: {m.unjudged[name]} scored cells without a judgment (left out), {m.unscored[name]} "
                  "judged cells without a score (missing)", file=sys.stderr)
    settings = Settings(args.level, statistic, args.tie_calibration, args.epsilon, args.resample, args.ci, args.test,
                        args.resamples, args.seed, args.alpha)
    rows = leaderboard(m.metrics, m.human, settings)
    shorts = [s["short"] if isinstance(s, dict) and "short" in s else str(s) for s in signatures.values()]
    size = f"{len(m.systems)} systems x {len(m.inputs)} inputs judged on {args.dimension}"
    title = f"{statistic} at {args.level} level against {args.dimension}"
    notes = [f"{size}; intervals: {args.ci}, {args.resamples} resamples of {args.resample}, seed {args.seed}; "
             f"clusters: {args.test}, alpha {args.alpha}"]
    if statistic == "acc-eq" and args.tie_calibration:
        notes.append("acc-eq is tie-calibrated: epsilon maximises it on this data, so the value is optimistic")
    result = {"signature": signatures, "settings": settings.as_dict(),
              "dimension": args.dimension, "n_systems": len(m.systems), "n_inputs": len(m.inputs),
              "systems": m.systems, "metrics": rows,
              "cells": {n: {"unjudged": m.unjudged[n], "unscored": m.unscored[n]} for n in metrics}}
    emit(args.format, {"json": lambda: strict_json(result) + "\n",
                       "table": lambda: f"{title}\n\n" + table(*text_rows(rows)) + "\n\n" + "\n".join(notes) + "\n",
                       "html": lambda: to_html(title, rows, notes, shorts)}, shorts, output)
    undefined = sum(r["value"] is None for r in rows)
    if undefined:
        print(f"{undefined} of {len(rows)} metrics have no defined {statistic} (see the reasons)", file=sys.stderr)
        return EXIT_ITEM_ERRORS
    return EXIT_OK
