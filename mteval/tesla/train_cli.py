"""The options of `mteval train tesla-f` (light to import: the CLI builds its parser from them)
and what they run: training (:mod:`.train`) or the cross-validated report (:mod:`.cv_report`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from mteval.learn.cli import add_train_arguments
from mteval.learn.cli import run_train as _run

#: segments (of the 2,318 ranked into English) training and the CV report read by default: 0 = all
#: (20,427 outputs; their features take ~25-40 minutes from scratch on a loaded 2-core machine,
#: cached per output, so a rerun takes seconds); ``--max-segments 1200`` is a ~11-minute sample
DEFAULT_SEGMENTS = 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `mteval train tesla-f`."""
    add_train_arguments(p, DEFAULT_SEGMENTS, "instead of training: cross-validate by segment and write "
                                             "tesla_f_cv.md/.json with TESLA-M, TESLA-B, BLEU and chrF in the same run")


def run_train(args: argparse.Namespace) -> int:
    """Train (``--out``) or write the cross-validated report (``--cv-report``)."""
    return _run(args, "mteval.tesla")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mteval.tesla.train", description="Train TESLA-F on WMT12 rankings.")
    add_arguments(p)
    return run_train(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
