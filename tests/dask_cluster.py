"""A light Dask cluster for the tests that compare a cluster run with a one-process run: two
in-process workers behind a TCP scheduler, so every task and result is serialised as on a real
cluster. Skips when the ``dask`` extra is not installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


def local_scheduler() -> Iterator[str]:
    """The address of a running two-worker cluster (for a module-scoped fixture)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address
