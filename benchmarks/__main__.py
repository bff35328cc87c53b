"""``python -m benchmarks NAME --out DIR [options]`` runs one benchmark and records the run
(:func:`benchmarks.harness.record`); ``--list`` names them all; ``render`` regenerates the docs'
result tables from the committed runs (:mod:`benchmarks.render`)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from benchmarks.catalog import BENCHMARKS
from benchmarks.harness import record, started
from evalcore.cli.convention import check_output_dir, guarded, run


@guarded("python -m benchmarks")
def main(argv: list[str] | None = None) -> int:
    """Run the benchmark ``argv`` names; exit code 0, or 2 on a usage error, bad input or missing data."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("--list", "-h", "--help"):
        width = max(map(len, BENCHMARKS))
        print("python -m benchmarks NAME --out DIR [options]   (NAME --help for its options)")
        print("python -m benchmarks render [--collect DIR] [--check]   (the docs' tables from docs/results/data)\n")
        print("\n".join(f"{name:<{width}}  {what}" for name, (what, _) in BENCHMARKS.items()))
        return 0
    name, rest = argv[0], argv[1:]
    if name == "render":
        from benchmarks.render import main as render

        return run("python -m benchmarks render", argparse.Namespace(func=lambda _: render(rest)))
    if name not in BENCHMARKS:
        print(f"unknown benchmark {name!r}; `python -m benchmarks --list` names them", file=sys.stderr)
        return 2
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--out", type=Path)
    out = pre.parse_known_args(rest)[0].out
    run_start = started()
    start = time.perf_counter()

    def bench(_: argparse.Namespace) -> int:
        check_output_dir(out, "--out")
        return BENCHMARKS[name][1](rest)

    code = run(f"python -m benchmarks {name}", argparse.Namespace(func=bench))
    if code == 0 and out is not None:
        record(out, name, rest, time.perf_counter() - start, run_start)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
