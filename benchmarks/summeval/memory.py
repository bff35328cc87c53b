"""Peak memory of the scoring commands at 1x, 10x and 100x the items (part of `python -m benchmarks
scale`): each command runs in its own process on the synthetic corpus of :mod:`benchmarks.summeval.scale`
(as SummEval summaries for ``summeval score``, as hypothesis and reference lines for ``mteval score``),
its output written to a file, and the process's maximum resident set size is read from the kernel.

Streaming scoring keeps the peak flat in the number of items beyond the models' own footprint; the
table's last column, the growth from 10x to 100x, shows whether it does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from evalcore.data.records import SummaryItem
from evalcore.io.tables import table

#: (command name, metrics, arguments after the input files): cheap metrics, so memory is the items'
COMMANDS = (
    ("mteval score --segments --format jsonl", ("bleu", "chrf"), ("--segments", "--format", "jsonl")),
    ("mteval score --segments --format tsv", ("bleu", "chrf"), ("--segments", "--format", "tsv")),
    ("mteval score --segments --format json", ("bleu", "chrf"), ("--segments", "--format", "json")),
    ("mteval score --format jsonl", ("bleu", "chrf"), ("--format", "jsonl")),
    ("summeval score --format jsonl", ("rouge-2", "tesla-s"), ("--format", "jsonl")),
    ("summeval score --format tsv", ("rouge-2", "tesla-s"), ("--format", "tsv")),
    ("summeval score --format json", ("rouge-2", "tesla-s"), ("--format", "json")),
)
FACTORS = (1, 10, 100)


def write_inputs(items: list[SummaryItem], folder: Path) -> dict[str, Path]:
    """The corpus as ``summaries.jsonl`` (summeval) and ``hyp.txt``/``ref.txt`` (mteval: a summary's
    first sentence-joined text against its first reference, one segment a line)."""
    paths = {"jsonl": folder / "summaries.jsonl", "hyp": folder / "hyp.txt", "ref": folder / "ref.txt"}
    with paths["jsonl"].open("w", encoding="utf-8") as js, paths["hyp"].open("w", encoding="utf-8") as hyp, \
            paths["ref"].open("w", encoding="utf-8") as ref:
        for it in items:
            js.write(json.dumps({"topic": it.topic, "system": it.system, "summary": it.summary,
                                 "references": list(it.references)}) + "\n")
            hyp.write(" ".join(it.summary.split()) + "\n")
            ref.write(" ".join(it.references[0].split()) + "\n")
    return paths


#: a small process between the benchmark and the command: on Linux a child's peak counts the memory of
#: the process it was forked from (kept across exec), so the command is forked from this one, not
#: from the benchmark holding the corpus; it writes "peak_kib exit_code" to the file it is given
_LAUNCHER = ("import os, sys\npid = os.fork()\nif pid == 0:\n    os.execv(sys.argv[2], sys.argv[2:])\n"
             "_, status, usage = os.wait4(pid, 0)\n"
             "open(sys.argv[1], 'w').write(f'{usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}')\n")


def peak_of(argv: list[str], stdout: Path) -> tuple[float, int]:
    """(peak resident set size in MiB, exit code) of one command writing to ``stdout``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[2]),
                                                                       os.environ.get("PYTHONPATH")]))}
    result = stdout.with_name(stdout.name + ".peak")
    with stdout.open("wb") as out:
        subprocess.run([sys.executable, "-c", _LAUNCHER, str(result), *argv], stdout=out,
                       stderr=subprocess.DEVNULL, env=env, check=True)
    peak_kib, code = result.read_text().split()
    return int(peak_kib) / 1024, int(code)  # ru_maxrss is in KiB on Linux


def command_argv(name: str, metrics: tuple[str, ...], extra: tuple[str, ...], paths: dict[str, Path]) -> list[str]:
    package = name.split()[0]
    inputs = (["-i", str(paths["hyp"]), "-r", str(paths["ref"])] if package == "mteval"
              else ["--input", str(paths["jsonl"])])
    return [sys.executable, "-m", package, "score", *inputs, *(a for m in metrics for a in ("-m", m)), *extra]


def measure(corpus, base: int, packages: list[str] | None = None) -> list[dict]:
    """One row per command (of ``packages``, default all): the peak at each of :data:`FACTORS` times
    ``base`` items (``corpus(n)`` makes n items) and the growth from 10x to 100x."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="scale-memory-") as tmp:
        folders = {}
        for factor in FACTORS:
            folders[factor] = Path(tmp) / f"x{factor}"
            folders[factor].mkdir()
            write_inputs(corpus(base * factor), folders[factor])
        for name, metrics, extra in COMMANDS:
            if packages and name.split()[0] not in packages:
                continue
            row: dict = {"command": name, "metrics": list(metrics), "peak_mib": {}}
            for factor, folder in folders.items():
                paths = {"jsonl": folder / "summaries.jsonl", "hyp": folder / "hyp.txt", "ref": folder / "ref.txt"}
                peak, code = peak_of(command_argv(name, metrics, extra, paths), folder / "out")
                if code not in (0, 1):
                    raise RuntimeError(f"{name} on {base * factor} items exited with {code}")
                row["peak_mib"][str(factor)] = peak
            row["growth_10x_to_100x"] = row["peak_mib"]["100"] / row["peak_mib"]["10"] - 1
            rows.append(row)
    return rows


def memory_markdown(report: dict) -> str:
    """The peak-memory table of a ``scale`` report (its JSON alone)."""
    base = report["base_items"]
    head = ["command", "metrics", *(f"{f}x ({f * base:,} items), MiB" for f in FACTORS), "10x -> 100x"]
    return table(head, [[f"`{r['command']}`", ", ".join(r["metrics"]),
                         *(f"{r['peak_mib'][str(f)]:.0f}" for f in FACTORS), f"{r['growth_10x_to_100x']:+.1%}"]
                        for r in report["rows"]])
