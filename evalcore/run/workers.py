"""The ``--jobs`` convention shared by the command lines: N worker processes, 0 = all cores; and
what a worker does on Ctrl-C."""

from __future__ import annotations

import argparse
import os
import signal


def jobs_arg(text: str) -> int:
    """argparse type for ``--jobs``: a positive count, or 0 for every core of this machine."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"--jobs must be 0 (all cores) or a positive count, got {n}")
    return n or (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def stop_workers(pool) -> None:
    """On Ctrl-C in the parent: drop the pool's queued work and end the process's multiprocessing
    children (the pool's workers) now, so the interrupt never waits for submitted work to finish."""
    import multiprocessing

    pool.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.terminate()


def quiet_interrupt() -> None:
    """In a worker process: Ctrl-C ends it at once without a traceback (the parent, which gets the
    same signal, reports the interrupt in one line)."""
    signal.signal(signal.SIGINT, _exit_interrupted)


def _exit_interrupted(signum, frame) -> None:
    os._exit(128 + signum)
