"""``aesop-eval meta-evaluate``: which metric agrees with the humans, with intervals and
significance clusters, for any judged set (score files of ``summeval score`` / ``mteval score``
or plain TSV/JSONL tables, and a judgment table). Exit codes: 0 every metric has a value, 1 some
metric's statistic is undefined (the reason is in the output, a count on stderr), 2 bad usage or
input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evalcore.cli.convention import (
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    add_output_args,
    check_input_path,
    check_output_path,
    command,
    emit,
    strict_json,
)
from evalcore.io.textfiles import InputError
from evalcore.stats.names import CI_METHODS, DESIGNS, LEVELS, MAX_RESAMPLES, STATISTICS, TESTS

FORMATS = ("table", "json", "html")
PROG = "aesop-eval"

if TYPE_CHECKING:
    from evalcore.stats.leaderboard import Settings


def _alpha(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {value}")
    return value


def resample_count(text: str) -> int:
    """The type of ``-n`` and ``--bootstrap``: a whole number from 1 to :data:`MAX_RESAMPLES`
    (anything else is a usage error, exit 2, before any work)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of resamples, got {text!r}") from None
    if not 1 <= n <= MAX_RESAMPLES:
        raise argparse.ArgumentTypeError(f"expected 1 to {MAX_RESAMPLES} resamples, got {n}")
    return n


def add_statistics_args(p: argparse.ArgumentParser, statistic_default: str | None = "kendall-b",
                        level_default: str = "system", resample_default: str = "both",
                        test_default: str = "perm-both") -> None:
    """The statistic, level, interval and test flags (shared by ``meta-evaluate`` and the
    ``correlate`` commands, where ``--statistic`` turns the leaderboard on: ``statistic_default`` None)."""
    p.add_argument("--level", choices=LEVELS, default=level_default, help=f"default: {level_default}")
    p.add_argument("--statistic", choices=(*STATISTICS, "kendall"), default=statistic_default,
                   help=(f"default: {statistic_default} (kendall is tau-b)" if statistic_default else
                         "print the leaderboard of this statistic (see `aesop-eval meta-evaluate`) instead of the "
                         "correlation table"))
    p.add_argument("--tie-calibration", action="store_true",
                   help="acc-eq: use the tie threshold epsilon that maximises it (reported; optimistic)")
    p.add_argument("--epsilon", type=float, default=0.0, help="acc-eq's tie threshold without calibration (0)")
    p.add_argument("--resample", choices=DESIGNS, default=resample_default,
                   help=f"interval design (default: {resample_default})")
    p.add_argument("--ci", choices=CI_METHODS, default="percentile", help="default: percentile")
    p.add_argument("--test", choices=TESTS, default=test_default,
                   help=f"test for the clusters (default: {test_default})")
    p.add_argument("--alpha", type=_alpha, default=0.05, help="1 - interval level and test level (0.05)")


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
    add_statistics_args(p)
    p.add_argument("-n", "--resamples", type=resample_count, default=1000, metavar="N",
                   help=f"resamples and permutations, 1 to {MAX_RESAMPLES} (default 1000; fewer where the "
                        "draws of the data would pass 2 GiB)")
    p.add_argument("--seed", type=int, default=0, help="default 0")
    p.add_argument("--lower-is-better", action="append", default=[], metavar="NAME",
                   help="a score column that is not a registered metric and where lower is better (repeatable): "
                        "negated like TER; a registered metric's orientation comes from its facts")
    add_output_args(p, FORMATS)
    return p


def settings_of(args: argparse.Namespace, n_resamples: int, seed: int) -> Settings:
    """The leaderboard settings the flags of :func:`add_statistics_args` ask for."""
    from evalcore.stats.leaderboard import Settings
    from evalcore.stats.levels import check

    statistic = check(args.level, args.statistic)
    if args.epsilon < 0:
        raise InputError(f"--epsilon must be at least 0, got {args.epsilon}")
    return Settings(args.level, statistic, args.tie_calibration, args.epsilon, args.resample, args.ci, args.test,
                    n_resamples, seed, args.alpha)


@dataclass(frozen=True)
class Board:
    """One dimension's leaderboard, rendered: the JSON object, its title and its notes."""

    result: dict
    title: str
    notes: list[str]

    @property
    def rows(self) -> list[dict]:
        return self.result["metrics"]


def orientations(names: Sequence[str], declared: Sequence[str] = ()) -> tuple[set[str], list[str]]:
    """(the columns where lower is better, the lines saying how each orientation was decided): a
    registered metric's from its facts (``lower_is_better``), a column named in ``declared``
    (``--lower-is-better``) lower, any other column higher, said as an assumption. Declaring a
    registered metric against its facts, or a column the score files lack, is an InputError."""
    from evalcore.metric.registry import lower_is_better

    facts = {name: lower_is_better(name) for name in names}
    for name in declared:
        if name not in facts:
            raise InputError(f"--lower-is-better {name}: no such score column ({', '.join(names)})")
        if facts[name] is False:
            raise InputError(f"--lower-is-better {name}: {name} is a registered metric and its facts say higher is "
                             "better")
    lower = {n for n, fact in facts.items() if fact or n in declared}
    by_fact = [n for n in names if facts[n] is not None]
    assumed = [n for n in names if facts[n] is None and n not in declared]
    lines = []
    if by_fact:
        lines.append("orientation from the metrics' facts: " + ", ".join(
            f"{n} {'lower' if n in lower else 'higher'} is better" for n in by_fact))
    if declared:
        lines.append(f"lower is better by --lower-is-better: {', '.join(declared)}")
    if assumed:
        lines.append(f"not registered metrics, read as higher is better: {', '.join(assumed)} "
                     "(--lower-is-better NAME says otherwise)")
    if lower:
        lines.append(f"negated so that a positive value means agreement: {', '.join(sorted(lower))}")
    return lower, lines


def board(metrics: dict[str, dict], human: dict, dimension: str, settings: Settings, prog: str,
          declared_lower: Sequence[str] = ()) -> Board:
    """The leaderboard of the metric cells against one dimension's cells ({(system, input): value}),
    each metric oriented by :func:`orientations`; unmatched cells are counted on stderr."""
    from evalcore.data.cells import align
    from evalcore.stats.leaderboard import leaderboard
    from evalcore.stats.resampling import check_resamples

    m = align(metrics, human)
    try:
        check_resamples(settings.n_resamples, len(m.systems), len(m.inputs), settings.test)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    lower, orientation = orientations(list(metrics), declared_lower)
    for name in metrics:
        if not metrics[name]:
            print(f"{prog}: {name}: no cell has a score (every one is blank or an error): undefined", file=sys.stderr)
        elif m.unjudged[name] or m.unscored[name]:
            print(f"{prog}: {name}: {m.unjudged[name]} scored cells without a judgment (left out), "
                  f"{m.unscored[name]} judged cells without a score (missing)", file=sys.stderr)
    s = settings
    rows = leaderboard(m.metrics, m.human, s, lower)
    notes = [f"{len(m.systems)} systems x {len(m.inputs)} inputs judged on {dimension}; intervals: {s.ci}, "
             f"{s.n_resamples} resamples of {s.resample}, seed {s.seed}; clusters: {s.test}, alpha {s.alpha}",
             *orientation]
    if s.statistic == "acc-eq" and s.tie_calibration:
        notes.append("acc-eq is tie-calibrated: epsilon maximises it on this data, so the value is optimistic")
    result = {"settings": s.as_dict(), "dimension": dimension, "n_systems": len(m.systems),
              "n_inputs": len(m.inputs), "systems": m.systems, "metrics": rows,
              "cells": {n: {"unjudged": m.unjudged[n], "unscored": m.unscored[n]} for n in metrics}}
    return Board(result, f"{s.statistic} at {s.level} level against {dimension}", notes)


def board_text(b: Board) -> str:
    from evalcore.io.tables import table
    from evalcore.stats.leaderboard import text_rows

    return f"{b.title}\n\n" + table(*text_rows(b.rows)) + "\n\n" + "\n".join(b.notes) + "\n"


def undefined_exit(boards: list[Board], prog: str) -> int:
    """1 with a count on stderr when some metric has no defined statistic, else 0."""
    undefined = sum(r["value"] is None for b in boards for r in b.rows)
    if undefined:
        print(f"{prog}: {undefined} of {sum(len(b.rows) for b in boards)} leaderboard entries have no defined "
              "statistic (see the reasons)", file=sys.stderr)
        return EXIT_ITEM_ERRORS
    return EXIT_OK


def short_signatures(signatures: dict) -> list[str]:
    return [s["short"] if isinstance(s, dict) and "short" in s else str(s) for s in signatures.values()]


def run_meta_evaluate(args: argparse.Namespace) -> int:
    from evalcore.data.cells import read_cells
    from evalcore.stats.leaderboard import to_html

    output = check_output_path(args.output)
    for path in (*args.scores, args.human):
        check_input_path(path, "--scores" if path != args.human else "--human")
    settings = settings_of(args, args.resamples, args.seed)
    human = read_cells(args.human)
    if args.dimension not in human.values:
        raise InputError(f"{args.human}: no dimension {args.dimension!r}; it has {', '.join(human.columns)}")
    if not human.values[args.dimension]:
        raise InputError(f"{args.human}: every cell of dimension {args.dimension!r} is blank or an error")
    metrics: dict[str, dict] = {}
    origin: dict[str, Path] = {}
    signatures: dict = {}
    for path in args.scores:
        cells = read_cells(path)
        for name in cells.ignored:
            print(f"{PROG}: {path}: column {name!r} holds text, not scores: ignored", file=sys.stderr)
        for name in cells.columns:
            if name in metrics:
                raise InputError(f"metric {name!r} is in both {origin[name]} and {path}")
            metrics[name], origin[name] = cells.values[name], path
        signatures.update(cells.signatures)
    if not metrics:
        raise InputError("the score files hold no metric column")
    b = board(metrics, human.values[args.dimension], args.dimension, settings, PROG, args.lower_is_better)
    shorts = short_signatures(signatures)
    emit(args.format, {"json": lambda: strict_json({"signature": signatures, **b.result}) + "\n",
                       "table": lambda: board_text(b),
                       "html": lambda: to_html(b.title, b.rows, b.notes, shorts)}, shorts, output)
    return undefined_exit([b], PROG)
