"""Where scoring runs beyond this process: the ``--scheduler`` option every scoring command shares
and the Dask client it opens. The chunks themselves are run by :mod:`evalcore.metric.cluster`
(the same chunks and scoring function as on one machine, so values, order and error records are
those of a one-process run).

Needs the optional extra ``pip install 'aesop-eval[dask]'``. A scheduler is a
``distributed.Client``, a scheduler address (``tcp://host:8786``), a scheduler file (``.json``, as
``dask scheduler --scheduler-file`` writes), ``local`` (a cluster of ``--jobs`` worker processes on
this machine) or :data:`CONTEXT` (Dask's default scheduler of the current context).

This module knows no metric: the metric contract imports it, never the other way round.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
from collections.abc import Iterator
from typing import Any

from evalcore.extras import MissingExtraError, require
from evalcore.resources.registry import ResourceError

#: the scheduler value meaning "Dask's default for the current context" (a default client, else threads)
CONTEXT = "context"
#: the scheduler value meaning "a cluster of worker processes on this machine"
LOCAL = "local"


class SchedulerError(ResourceError):
    """The Dask scheduler cannot be reached (a wrong address, a stopped cluster)."""


class _SchedulerAction(argparse.Action):
    """``--scheduler``: checks the ``dask`` extra while parsing, so a missing one is one line and
    exit 2 before any input is read."""

    def __call__(self, parser, namespace, value, option_string=None):
        try:
            require("dask", option_string or "--scheduler")
        except MissingExtraError as exc:
            parser.exit(2, f"{parser.prog}: error: {exc}\n")  # 2: the convention's usage error
        setattr(namespace, self.dest, value)


def add_scheduler_arg(parser: argparse.ArgumentParser) -> None:
    """The ``--scheduler`` option every scoring command shares (default: score in this process)."""
    parser.add_argument("--scheduler", action=_SchedulerAction, default=None, metavar="ADDRESS",
                        help="score on a Dask cluster: a scheduler address (tcp://host:8786), a scheduler file "
                             "(.json), or 'local' for --jobs worker processes on this machine; values are "
                             "those of a one-process run (needs aesop-eval[dask]; see docs/distributed.md)")


@contextlib.contextmanager
def open_client(scheduler: object, jobs: int = 1) -> Iterator[Any]:  # a distributed.Client (imported late) or None
    """A ``distributed.Client`` for ``scheduler`` (closed, with any cluster it started, on exit);
    None for :data:`CONTEXT` without a default client (Dask's local threads then)."""
    require("dask", "Dask scoring")
    import distributed

    if not isinstance(scheduler, str):
        yield scheduler
        return
    if scheduler == CONTEXT:
        try:
            client = distributed.default_client()
        except ValueError:  # no client made in this process: dask.compute's own scheduler
            client = None
        yield client
        return
    if scheduler == LOCAL:
        with distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0",
                                      silence_logs=logging.ERROR) as cluster, \
                distributed.Client(cluster, set_as_default=False) as client:
            yield client
        return
    kind = "scheduler_file" if scheduler.endswith(".json") else "address"
    if kind == "scheduler_file" and not os.path.isfile(scheduler):
        raise SchedulerError(f"--scheduler {scheduler}: no such scheduler file")
    try:
        client = distributed.Client(**{kind: scheduler}, set_as_default=False)
    except (OSError, ValueError) as exc:  # refused, timed out, or not an address
        raise SchedulerError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
    with client:
        yield client


def one_line(exc: BaseException) -> str:
    """An exception and its cause in one line (Dask's messages run over several)."""
    text = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return f"{text} (because {one_line(exc.__cause__)})" if exc.__cause__ is not None else text
