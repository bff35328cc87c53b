"""Scoring the chunks of :func:`evalcore.metric.batch.iter_batches` on a Dask cluster, each chunk by
the same function as on one machine, as one Dask task; values, order and error records are those
of a one-process run.

What travels to a worker: the metrics as their parameters, the chunk's items and the input limits.
Each worker process keeps the metrics it has rebuilt (and the models they load) for later chunks and
later runs, and checks that its signature of each metric is the client's: a worker with another
version of the suite or another model scores nothing and says so in the chunk's error records.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from evalcore.metric.base import Item, Metric, Result
from evalcore.metric.inputs import InputLimits
from evalcore.metric.records import ErrorRecord
from evalcore.run.distributed import SchedulerError, one_line, open_client, scheduler_lost

#: metric configurations a worker process keeps loaded (the most recently used)
WORKER_CACHE_SIZE = 8

Chunk = list[dict[str, Result]]
Tag = TypeVar("Tag")
ChunkScorer = Callable[[Sequence[Metric], Sequence[Item], "InputLimits | None"], Chunk]


def iter_chunks(score_chunk: ChunkScorer, metrics: Sequence[Metric], batches: Iterable[tuple[Tag, Sequence[Item]]],
                limits: InputLimits | None, scheduler: object, jobs: int, ahead: int) -> Iterator[tuple[Tag, Chunk]]:
    """Score every ``(tag, items)`` batch with ``score_chunk`` as one Dask task; ``(tag, results)``
    in the order of the batches, with at most ``ahead`` tasks per worker submitted and not yet
    handed on, so the batches are read as the cluster scores them. A task that fails (a lost
    worker) gives error records for its batch's items, naming the failure."""
    metrics = list(metrics)
    expected = [_signature_or_none(m) for m in metrics]
    batches = iter(batches)
    with open_client(scheduler, jobs) as client:
        if client is None:
            import dask

            while group := list(itertools.islice(batches, ahead * max(jobs, os.cpu_count() or 1))):
                tasks = [dask.delayed(run_chunk, pure=False)(score_chunk, metrics, expected, list(b), limits)
                         for _, b in group]
                yield from zip((tag for tag, _ in group), dask.compute(*tasks))
            return
        window = ahead * max(jobs, sum(client.nthreads().values()))
        pending: deque = deque()  # (tag, items, future), in the order of the batches
        done = 0
        try:
            while True:
                for tag, items in itertools.islice(batches, window - len(pending)):
                    pending.append((tag, items, client.submit(run_chunk, score_chunk, metrics, expected, list(items),
                                                              limits, pure=False)))
                if not pending:
                    return
                tag, items, future = pending.popleft()
                try:
                    results = future.result()
                except Exception as exc:  # noqa: BLE001 - a lost task costs its chunk's items only
                    if scheduler_lost(client, exc):
                        raise SchedulerError(f"--scheduler {scheduler}: lost the connection to the Dask scheduler "
                                             f"after {done} chunk{'s' * (done != 1)}; run again") from None
                    results = _failed(metrics, items, f"Dask task failed: {one_line(exc)}")
                yield tag, results
                done += 1
        except SchedulerError:
            raise
        except BaseException:
            client.cancel([future for _, _, future in pending])
            raise


def run_chunk(score_chunk: ChunkScorer, metrics: list[Metric], expected: list[str | None],
              items: list[Item], limits: InputLimits | None) -> Chunk:
    """On a worker: score one chunk with this process's copy of ``metrics`` (kept for later
    chunks), if its signatures are the client's; else an error record per item and metric."""
    loaded, signatures, lock = _worker_metrics(metrics)
    mismatch = [f"{m.name}: worker {mine}, client {theirs}"
                for m, mine, theirs in zip(loaded, signatures, expected)
                if None not in (mine, theirs) and mine != theirs]
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


def _failed(metrics: Sequence[Metric], items: Sequence[Item], message: str) -> Chunk:
    """An error record per item and metric, all with ``message``."""
    return [{m.name: ErrorRecord(it.id or f"item {k + 1}", m.name, message) for m in metrics}
            for k, it in enumerate(items)]
