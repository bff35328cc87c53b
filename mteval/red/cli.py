"""The options of `mteval tune red` (light to import: the CLI builds its parser from them) and
what they run (:func:`mteval.red.train.run`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evalcore.cli.convention import EXIT_OK, check_output_dir
from evalcore.io.textfiles import InputError
from mteval.learn.ranked import DEFAULT_SEGMENTS


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `mteval tune red`."""
    p.add_argument("--out", type=Path, required=True,
                   help="folder for red_tune.md/.json (cross-validated report) and red_tuned_values.json")
    p.add_argument("--data", type=Path, default=None, help="the shared data folder (default: ../shared/data)")
    p.add_argument("--max-segments", type=int, default=DEFAULT_SEGMENTS, metavar="N",
                   help="a seeded sample of N ranked segments (0 = all)")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds, grouped by segment")
    p.add_argument("--iterations", type=int, default=2, help="alternations of the two parameter subsets")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)


def run_tune(args: argparse.Namespace) -> int:
    """Tune REDp on the WMT12 into-English rankings and write the cross-validated report."""
    from mteval.red.train import run

    check_output_dir(args.out, "--out")
    if args.folds < 2 or args.iterations < 1 or args.max_segments < 0:
        raise InputError("need --folds >= 2, --iterations >= 1 and --max-segments >= 0")
    run(args.out, args.data, args.max_segments, args.folds, args.iterations, args.bootstrap, args.seed,
        log=lambda msg: print(msg, file=sys.stderr, flush=True))
    return EXIT_OK
