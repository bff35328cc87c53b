"""The options of `mteval train tesla-f` (light to import: the CLI builds its parser from them)
and what they run: training (:mod:`.train`) or the cross-validated report (:mod:`.cv_report`)."""

from __future__ import annotations

import argparse

from mteval.learn.cli import add_train_arguments, run_train_or_report


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `mteval train tesla-f`."""
    add_train_arguments(p, "instead of training: cross-validate by segment and write tesla_f_cv.md/.json with "
                           "TESLA-M, TESLA-B, BLEU and chrF in the same run")


def run_train(args: argparse.Namespace) -> int:
    """Train (``--out``) or write the cross-validated report (``--cv-report``)."""
    from mteval.tesla import cv_report, train

    return run_train_or_report(args, train.train_default, cv_report.run)
