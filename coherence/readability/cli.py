"""``coherence train readability``: retrain the shipped readability models from the judged sets
(scoring is ``coherence score -m readability`` / ``summeval score -m readability``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from evalcore.cli.convention import EXIT_OK, check_output_dir, command
from evalcore.extras import require


def cmd_train_readability(args) -> int:
    """Choose the feature set by leave-one-set-out, train both shipped models, print what was chosen."""
    require("coherence", "coherence train readability (spaCy parses, scikit-learn, KenLM)")
    from coherence.readability.train import train_shipped
    from evalcore.resources.registry import package_path, shared_data_dir, usable_cache_dir

    out = check_output_dir(args.out, "--out") if args.out else package_path("coherence", "models")
    data = Path(args.data) if args.data else shared_data_dir()
    info = train_shipped(data, out, usable_cache_dir("readability"), log=lambda m: print(m, file=sys.stderr))
    print(json.dumps(info, indent=2))
    return EXIT_OK


def add_commands(train_subparsers) -> None:
    """Register ``readability`` under ``train`` of the ``coherence`` command tree."""
    t = command(train_subparsers, "readability", cmd_train_readability,
                help="retrain the shipped readability models (SummEval: the default; every judged set: the "
                     "opt-in, non-commercial 'all') with the feature set chosen by leave-one-set-out")
    t.add_argument("--data", help="the judged sets' root: summeval/, dialsummeval/, webnlg2020-humeval/ "
                                  "(default: ../shared/data beside the checkout, or AESOP_SHARED_DATA)")
    t.add_argument("--out", help="output folder (default coherence/models: replaces the shipped models)")
