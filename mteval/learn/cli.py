"""The options every `mteval train <metric>` shares and what they run: training a model
(``--out``) or the cross-validated report (``--cv-report``), each from the metric's own package
(``<package>.train.train_default``, ``<package>.cv_report.run``), imported only when run."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from evalcore.io.textfiles import InputError


def add_train_arguments(p: argparse.ArgumentParser, default_segments: int, cv_help: str) -> None:
    """``--out``, ``--data``, ``--max-segments``, ``--seed`` and ``--cv-report`` (``cv_help`` says what it writes)."""
    p.add_argument("--out", type=Path, help="model file to write (.npz, data only, see docs/models.md)")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("--max-segments", type=int, default=default_segments, metavar="N",
                   help="seeded sample of ranked segments (default 0 = all 2,318)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cv-report", type=Path, metavar="DIR", help=cv_help)


def run_train(args: argparse.Namespace, package: str) -> int:
    """Train (``--out``) or write the cross-validated report (``--cv-report``) of the metric in ``package``."""
    if args.cv_report is not None:
        importlib.import_module(f"{package}.cv_report").run(args.cv_report, args.data, args.max_segments,
                                                            seed=args.seed)
    elif args.out is None:
        raise InputError("--out MODEL is needed to train (or --cv-report DIR to cross-validate)")
    else:
        importlib.import_module(f"{package}.train").train_default(args.out, args.data, args.max_segments, args.seed)
    return 0
