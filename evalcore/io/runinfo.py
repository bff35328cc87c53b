"""What every report of measured figures carries (training reports, benchmarks): the machine, the
source commit, and Markdown + JSON written side by side."""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
from pathlib import Path


def machine() -> dict[str, str | int]:
    """CPU, core count, memory and Python version: the context of every number."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**30
    return {"cpu": cpu, "cores": os.cpu_count() or 1, "memory_gib": mem,
            "python": sys.version.split()[0], "platform": platform.platform()}


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_report(out: Path, name: str, markdown: str, data: dict) -> tuple[Path, Path]:
    """Write ``name.md`` and ``name.json`` into ``out`` (created if needed); return both paths."""
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / f"{name}.md", out / f"{name}.json"
    md.write_text(markdown, "utf-8")
    js.write_text(json.dumps(data, indent=2, default=float) + "\n", "utf-8")
    return md, js


def machine_line(info: dict) -> str:
    """The machine as one Markdown line."""
    return f"Machine: {info['cpu']}, {info['cores']} cores, {info['memory_gib']} GiB, Python {info['python']}."


def source_commit() -> str:
    """The checkout's commit (with ``+changes`` when its tree differs), so a report names its code;
    ``unknown`` outside a git checkout."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "evalcore", "summeval", "coherence", "parapeval",
                                "mteval", "benchmarks"], cwd=root, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")
