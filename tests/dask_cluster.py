"""A light Dask cluster for the tests that compare a cluster run with a one-process run: two
in-process workers behind a TCP scheduler, so every task and result is serialised as on a real
cluster. Skips when the ``dask`` extra is not installed."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def local_scheduler() -> Iterator[str]:
    """The address of a running two-worker cluster (for a module-scoped fixture)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def slow_chunk(metrics, items, limits):
    """A chunk scorer that takes a second a chunk, so a test can stop the scheduler mid-run."""
    import time

    from evalcore.metric.batch import score_chunk

    time.sleep(1.0)
    return score_chunk(metrics, items, limits)


@contextlib.contextmanager
def scheduler_process(tmp: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """A ``dask scheduler`` and one ``dask worker`` in processes of their own (the worker imports
    this checkout): (the scheduler's address, its process), both stopped on exit."""
    pytest.importorskip("distributed")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    file = tmp / "scheduler.json"
    procs = [subprocess.Popen([*dask, "--port", "0", "--dashboard-address", ":0", "--scheduler-file", str(file)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=root)]
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(file.read_text())["address"]
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
                                       "--nthreads", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      env=env, cwd=root))
        yield address, procs[0]
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
