"""The options every `mteval train <metric>` shares and what they run: training a model
(``--out``) or the cross-validated report (``--cv-report``), each a function of the metric's own
family that its ``cli`` module imports only when run."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from evalcore.io.textfiles import InputError
from mteval.learn.ranked import DEFAULT_SEGMENTS


def add_train_arguments(p: argparse.ArgumentParser, cv_help: str) -> None:
    """``--out``, ``--data``, ``--max-segments``, ``--seed`` and ``--cv-report`` (``cv_help`` says what it writes)."""
    p.add_argument("--out", type=Path, help="model file to write (.npz, data only, see docs/models.md)")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("--max-segments", type=int, default=DEFAULT_SEGMENTS, metavar="N",
                   help="seeded sample of ranked segments (default 0 = all 2,318)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cv-report", type=Path, metavar="DIR", help=cv_help)


def run_train_or_report(args: argparse.Namespace, train: Callable[..., object], report: Callable[..., object]) -> int:
    """``report(DIR, data, max_segments, seed=...)`` for ``--cv-report``, else ``train(MODEL, data,
    max_segments, seed)`` for ``--out``."""
    if args.cv_report is not None:
        report(args.cv_report, args.data, args.max_segments, seed=args.seed)
    elif args.out is None:
        raise InputError("--out MODEL is needed to train (or --cv-report DIR to cross-validate)")
    else:
        train(args.out, args.data, args.max_segments, args.seed)
    return 0
