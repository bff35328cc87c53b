"""The options of `mteval train beer` (light to import: the CLI builds its parser from them) and
what they run: training (:mod:`.train`) or the cross-validated report (:mod:`.cv_report`)."""

from __future__ import annotations

import argparse

from mteval.learn.cli import add_train_arguments
from mteval.learn.cli import run_train as _run


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options of `mteval train beer`."""
    add_train_arguments(p, 0, "instead of training: cross-validate by segment and write beer_cv.md/.json with the "
                              "feature ablations, sentence BLEU, chrF, METEOR and TESLA-M in the same run")


def run_train(args: argparse.Namespace) -> int:
    """Train (``--out``) or write the cross-validated report (``--cv-report``)."""
    return _run(args, "mteval.beer")
