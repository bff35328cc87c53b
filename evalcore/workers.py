"""The ``--jobs`` convention shared by the three command lines: N worker processes, 0 = all cores."""

from __future__ import annotations

import argparse
import os


def jobs_arg(text: str) -> int:
    """argparse type for ``--jobs``: a positive count, or 0 for every core of this machine."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"--jobs must be 0 (all cores) or a positive count, got {n}")
    return n or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
