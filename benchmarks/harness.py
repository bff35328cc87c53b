"""What every benchmark run records and how it times: the machine (CPU, cores, RAM, Python, the
versions of the packages the figures depend on), the git commit, the arguments, the timing
policy, written as JSON and Markdown into the run's --out folder beside the benchmark's tables."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from evalcore.io.runinfo import machine as _machine
from evalcore.io.runinfo import machine_line, peak_rss_mib, source_commit, write_report

__all__ = ["KEY_PACKAGES", "TIMING", "machine", "machine_line", "peak_rss_mib", "record", "source_commit", "started",
           "timed", "write_report"]

#: distributions whose versions change the figures (speed or scores); missing ones read "absent"
KEY_PACKAGES = ("aesop-eval", "numpy", "scipy", "scikit-learn", "POT", "highspy", "PuLP", "sacrebleu", "nltk",
                "spacy", "kenlm", "rouge-score", "dask", "distributed")
#: the timing policy every run states: one clock, warm-up and repeats named
TIMING = ("wall clock time.perf_counter; one untimed warm-up call, then the repeats each benchmark states "
          "(harness.timed: 1 warm-up, 3 repeats, the least reported); a benchmark that measures CPU time or "
          "interleaves rounds says so in its own table")


def package_versions(names: Sequence[str] = KEY_PACKAGES) -> dict[str, str]:
    """{distribution: installed version or "absent"}."""
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def machine() -> dict:
    """CPU model, cores, memory, Python and platform, plus the key package versions."""
    return {**_machine(), "packages": package_versions()}


def timed(call: Callable[[], object], warmup: int = 1, repeats: int = 3) -> dict[str, float | int | list[float]]:
    """Time ``call`` with perf_counter after ``warmup`` untimed calls: every repeat, and the least."""
    for _ in range(warmup):
        call()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    return {"warmup": warmup, "repeats": repeats, "seconds": seconds, "best": min(seconds)}


def started() -> dict[str, str]:
    """The commit and UTC date at a run's start: the code a run imports is the code checked out
    when it starts, whatever is committed while it runs."""
    return {"commit": source_commit(), "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def record(out: Path, name: str, argv: Sequence[str], seconds: float, start: dict[str, str]) -> tuple[Path, Path]:
    """Write ``run-NAME.json`` and ``run-NAME.md`` into ``out``: what ran, where, on which code
    (``start``: :func:`started`), how timed."""
    info: dict[str, Any] = {"benchmark": name, "command": ["python", "-m", "benchmarks", name, *argv], **start,
                            "machine": machine(), "timing": TIMING, "wall_seconds": round(seconds, 3)}
    versions = ", ".join(f"{k} {v}" for k, v in info["machine"]["packages"].items() if v != "absent")
    md = "\n".join([f"# Run of `{name}`", "", f"Command: `{' '.join(info['command'])}`", "",
                    f"Commit: {info['commit']}; date {info['date']}; {seconds:.1f} s wall.", "",
                    machine_line(info["machine"]), "", f"Packages: {versions}.", "", f"Timing: {TIMING}.", ""])
    return write_report(out, f"run-{name}", md, info)

