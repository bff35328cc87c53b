"""The options of `mteval train tesla-f` (light to import: the CLI builds its parser from them)
and what they run: training (:mod:`.train`) or the cross-validated report (:mod:`.bench`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from evalcore.textio import InputError

#: segments (of the 2,318 ranked into English) training and the CV report read by default: 0 = all
#: (20,427 outputs; their features take ~25-40 minutes from scratch on a loaded 2-core machine,
#: cached per output, so a rerun takes seconds); ``--max-segments 1200`` is a ~11-minute sample
DEFAULT_SEGMENTS = 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `mteval train tesla-f`."""
    p.add_argument("--out", type=Path, help="model file to write (its .json sidecar beside it)")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("--max-segments", type=int, default=DEFAULT_SEGMENTS, metavar="N",
                   help="seeded sample of ranked segments (default 0 = all 2,318)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cv-report", type=Path, metavar="DIR",
                   help="instead of training: cross-validate by segment and write tesla_f_cv.md/.json "
                        "with TESLA-M, TESLA-B, BLEU and chrF in the same run")


def run_train(args: argparse.Namespace) -> int:
    """Train (``--out``) or write the cross-validated report (``--cv-report``)."""
    if args.cv_report is not None:
        from mteval.tesla.cv_report import run

        run(args.cv_report, args.data, args.max_segments, seed=args.seed)
    elif args.out is None:
        raise InputError("--out MODEL is needed to train (or --cv-report DIR to cross-validate)")
    else:
        from mteval.tesla.train import train_default

        train_default(args.out, args.data, args.max_segments, args.seed)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mteval.tesla.train", description="Train TESLA-F on WMT12 rankings.")
    add_arguments(p)
    return run_train(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
