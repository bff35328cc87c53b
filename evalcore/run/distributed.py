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
import json
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
    """``--scheduler``: checks the ``dask`` extra and the address while parsing, so a missing extra
    or a malformed address is one line and exit 2 before any input is read."""

    def __call__(self, parser, namespace, value, option_string=None):
        try:
            require("dask", option_string or "--scheduler")
            check_scheduler(value)
        except (MissingExtraError, SchedulerError) as exc:
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
    kind = check_scheduler(scheduler)
    with _dask_logs_quiet():
        try:
            client = distributed.Client(**{kind: scheduler}, set_as_default=False)
        except (OSError, ValueError) as exc:  # refused, timed out, or not an address
            raise SchedulerError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
        try:
            yield client
        finally:
            client.close(timeout=CLOSE_TIMEOUT)


#: seconds a client waits to close (a lost scheduler never answers)
CLOSE_TIMEOUT = 5


def scheduler_lost(client: Any, exc: BaseException) -> bool:
    """Whether ``exc``, raised by one of ``client``'s futures, means the scheduler is gone (killed,
    or its machine unreachable) rather than that one task failed."""
    return getattr(exc, "reason", None) == "scheduler-connection-lost" or client.status != "running"


@contextlib.contextmanager
def _dask_logs_quiet() -> Iterator[None]:
    """Dask's own log records off while a client runs: a lost scheduler makes its client log a
    traceback per reconnection attempt, where the command says in one line what happened."""
    loggers = [logging.getLogger(name) for name in ("distributed", "distributed.client", "distributed.core",
                                                     "distributed.comm", "tornado", "asyncio")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def check_scheduler(scheduler: str) -> str:
    """How ``scheduler`` names a scheduler (``address``, ``scheduler_file``, or itself for
    :data:`LOCAL` and :data:`CONTEXT`); SchedulerError when it is no file, not a scheduler file, or
    an address Dask cannot parse or resolve. A client made on such an address leaves a
    half-started event loop whose clean-up waits 60 s and prints a traceback."""
    if scheduler in (LOCAL, CONTEXT):
        return scheduler
    kind = "scheduler_file" if scheduler.endswith(".json") else "address"
    if kind == "scheduler_file" and not os.path.isfile(scheduler):
        raise SchedulerError(f"--scheduler {scheduler}: no such scheduler file")
    address = _file_address(scheduler) if kind == "scheduler_file" else scheduler
    from distributed.comm import resolve_address

    try:
        resolve_address(address)
    except (OSError, ValueError) as exc:  # a malformed address, an unknown scheme or host name
        raise SchedulerError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
    return kind


def _file_address(path: str) -> str:
    """The scheduler address a scheduler file holds (``dask scheduler --scheduler-file`` writes it)."""
    try:
        with open(path, encoding="utf-8") as f:
            address = json.load(f)["address"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SchedulerError(f"--scheduler {path}: not a Dask scheduler file ({one_line(exc)})") from None
    if not isinstance(address, str):
        raise SchedulerError(f"--scheduler {path}: not a Dask scheduler file (its address is {address!r})")
    return address


def one_line(exc: BaseException) -> str:
    """An exception and its cause in one line (Dask's messages run over several)."""
    text = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return f"{text} (because {one_line(exc.__cause__)})" if exc.__cause__ is not None else text
