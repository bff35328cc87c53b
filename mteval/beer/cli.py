"""The options of `mteval train beer` (light to import: the CLI builds its parser from them) and
what they run: training (:mod:`.train`) or the cross-validated report (:mod:`.cv_report`)."""

from __future__ import annotations

import argparse

from mteval.learn.cli import add_train_arguments, run_train_or_report


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `mteval train beer`."""
    add_train_arguments(p, "instead of training: cross-validate by segment and write beer_cv.md/.json with the "
                           "feature ablations, sentence BLEU, chrF, METEOR and TESLA-M in the same run")


def run_train(args: argparse.Namespace) -> int:
    """Train (``--out``) or write the cross-validated report (``--cv-report``)."""
    from mteval.beer import cv_report, train

    return run_train_or_report(args, train.train_default, cv_report.run)
