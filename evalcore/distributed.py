"""Scoring on a Dask cluster: the chunks of :func:`evalcore.metric.batch.score_with`, each scored
by the same function as on one machine, as Dask tasks; values, order and error records are those
of a one-process run.

Needs the optional extra ``pip install 'aesop-eval[dask]'``. A scheduler is a
``distributed.Client``, a scheduler address (``tcp://host:8786``), a scheduler file (``.json``, as
``dask scheduler --scheduler-file`` writes), ``local`` (a cluster of ``--jobs`` worker processes on
this machine) or :data:`CONTEXT` (Dask's default scheduler of the current context).

What travels to a worker: the metrics as their parameters, the chunk's items and the input limits.
Each worker process keeps the metrics it has rebuilt (and the models they load) for later chunks and
later runs, and checks that its signature of each metric is the client's: a worker with another
version of the suite or another model scores nothing and says so in the chunk's error records.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from evalcore.extras import MissingExtraError, require
from evalcore.resources import ResourceError

if TYPE_CHECKING:  # the CLIs import this module to add --scheduler: the metric contract loads only to score
    from evalcore.metric.base import Item, Metric, Result
    from evalcore.metric.inputs import InputLimits

#: the scheduler value meaning "Dask's default for the current context" (a default client, else threads)
CONTEXT = "context"
#: the scheduler value meaning "a cluster of worker processes on this machine"
LOCAL = "local"
#: metric configurations a worker process keeps loaded (the most recently used)
WORKER_CACHE_SIZE = 8

Chunk = list[dict[str, "Result"]]
ChunkScorer = Callable[[Sequence["Metric"], Sequence["Item"], "InputLimits | None"], Chunk]


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
def open_client(scheduler: object, jobs: int = 1) -> Iterator[object | None]:
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


def map_chunks(score_chunk: ChunkScorer, metrics: Sequence[Metric], batches: Sequence[Sequence[Item]],
               limits: InputLimits | None, scheduler: object, jobs: int,
               on_done: Callable[[int, Chunk], None]) -> None:
    """Score every batch with ``score_chunk`` as one Dask task; ``on_done(index, results)`` gets
    each batch's results (in completion order). A task that fails (a lost worker) gives error
    records for its batch's items, naming the failure."""
    metrics = list(metrics)
    expected = [_signature_or_none(m) for m in metrics]
    with open_client(scheduler, jobs) as client:
        if client is None:
            import dask

            tasks = [dask.delayed(run_chunk, pure=False)(score_chunk, metrics, expected, list(b), limits)
                     for b in batches]
            for index, results in enumerate(dask.compute(*tasks)):
                on_done(index, results)
            return
        from distributed import as_completed

        futures = [client.submit(run_chunk, score_chunk, metrics, expected, list(b), limits, pure=False)
                   for b in batches]
        index_of = {f.key: k for k, f in enumerate(futures)}
        try:
            for future in as_completed(futures, loop=client.loop):
                index = index_of[future.key]
                try:
                    results = future.result()
                except Exception as exc:  # noqa: BLE001 - a lost task costs its chunk's items only
                    results = _failed(metrics, batches[index], f"Dask task failed: {_one_line(exc)}")
                on_done(index, results)
        except BaseException:
            client.cancel(futures)
            raise


def run_chunk(score_chunk: ChunkScorer, metrics: list[Metric], expected: list[str | None],
              items: list[Item], limits: InputLimits | None) -> Chunk:
    """On a worker: score one chunk with this process's copy of ``metrics`` (kept for later
    chunks), if its signatures are the client's; else an error record per item and metric."""
    loaded, signatures, lock = _worker_metrics(metrics)
    mismatch = [f"{m.name}: worker {mine}, client {theirs}"
                for m, mine, theirs in zip(loaded, signatures, expected) if None not in (mine, theirs) and mine != theirs]
    if mismatch:
        return _failed(loaded, items, "this Dask worker's signature differs (another version or model): "
                                      + "; ".join(mismatch))
    with lock:  # one chunk at a time per metric set: a metric's models and caches are not shared by threads
        return score_chunk(loaded, items, limits)


_LOADED: OrderedDict[tuple, tuple[list[Metric], list[str | None], threading.Lock]] = OrderedDict()
_LOADED_LOCK = threading.Lock()


def _worker_metrics(metrics: list[Metric]) -> tuple[list[Metric], list[str | None], threading.Lock]:
    """This process's metrics of these parameters (the first copy it received, models loaded by
    earlier chunks), their signatures and the lock their chunks take."""
    key = tuple((type(m).__module__, type(m).__qualname__, repr(m)) for m in metrics)
    with _LOADED_LOCK:
        if key not in _LOADED:
            _LOADED[key] = (metrics, [_signature_or_none(m) for m in metrics], threading.Lock())
            while len(_LOADED) > WORKER_CACHE_SIZE:
                _LOADED.popitem(last=False)
        _LOADED.move_to_end(key)
        return _LOADED[key]


def _signature_or_none(metric: Metric) -> str | None:
    """The metric's signature; None when it cannot be made here (the scoring reports why)."""
    try:
        return str(metric.signature())
    except Exception:  # noqa: BLE001 - the metric's own scoring gives the error record
        return None


def _one_line(exc: BaseException) -> str:
    """An exception and its cause in one line (Dask's messages run over several)."""
    text = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return f"{text} (because {_one_line(exc.__cause__)})" if exc.__cause__ is not None else text


def _failed(metrics: Sequence[Metric], items: Sequence[Item], message: str) -> Chunk:
    """An error record per item and metric, all with ``message``."""
    from evalcore.metric.records import ErrorRecord

    return [{m.name: ErrorRecord(it.id or f"item {k + 1}", m.name, message) for m in metrics}
            for k, it in enumerate(items)]
