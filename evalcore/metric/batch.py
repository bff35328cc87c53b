"""Scoring many items with several metrics: one metric's failure (a cache it cannot write, a parse
it cannot do, a model that will not load) costs that metric's values only, never another's.

``score_with`` is what every CLI calls; ``jobs > 1`` maps chunks over worker processes (metrics
travel as their parameters and rebuild their models once per worker), ``scheduler`` over a Dask
cluster (:mod:`evalcore.run.distributed`), chunked the same way, so values never depend on where a
chunk ran. :func:`iter_batches` scores batches as a caller makes them, holding a few at a time, so
an input of any length streams.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from evalcore.metric.base import Item, Metric, Result
from evalcore.metric.inputs import InputLimits
from evalcore.metric.records import ErrorRecord

CHUNK_ITEMS = 256
#: batches in flight per worker process or Dask worker: enough to keep them busy, few enough to stream
AHEAD_PER_WORKER = 2

Tag = TypeVar("Tag")


def score_metric(metric: Metric, items: Sequence[Item], limits: InputLimits | None = None) -> list[Result]:
    """``metric.score_batch`` that never raises: a metric that fails as a whole gives one error
    record per item, naming the failure."""
    try:
        results = metric.score_batch(items, limits)
    except Exception as exc:  # noqa: BLE001 - a broken metric must not cost the other metrics
        message = f"{type(exc).__name__}: {exc}"
        return [ErrorRecord(it.id or f"item {k + 1}", metric.name, message) for k, it in enumerate(items)]
    return results


def check_distinct_names(metrics: Sequence[Metric]) -> None:
    """Refuse two differently configured metrics under one name in one run (ValueError naming the
    name and what differs): results are keyed by name, so one would overwrite the other.
    ``TeslaS()`` and ``TeslaS(alpha=0.2)`` are both ``tesla-s`` (no registered name states alpha:
    the registry's bracket names mark only the values a registered configuration states). The same
    configuration given twice is one metric, scored under its name."""
    seen: dict[str, Metric] = {}
    for metric in metrics:
        first = seen.setdefault(metric.name, metric)
        if first is metric:
            continue
        a, b = _configuration(first), _configuration(metric)
        if type(first) is type(metric) and a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a):
            continue
        differing = sorted(k for k in a.keys() | b.keys() if k not in a or k not in b or not _equal(a[k], b[k]))
        what = ", ".join(f"{k}={a.get(k, '-')!r} and {b.get(k, '-')!r}" for k in differing) or \
            f"classes {type(first).__qualname__} and {type(metric).__qualname__}"
        raise ValueError(f"two metrics of one run are both named {metric.name!r} but configured differently ({what}): "
                         "their values would share one name, one lost. Register a name for each configuration "
                         "(docs/adding-a-metric.md) or score them in separate runs")


def _configuration(metric: Metric) -> dict[str, object]:
    return {k: getattr(metric, k) for k in metric._param_names() if hasattr(metric, k)}


def _equal(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - array-valued parameters: equal only when one object
        return a is b


def score_chunk(metrics: Sequence[Metric], items: Sequence[Item],
                limits: InputLimits | None = None) -> list[dict[str, Result]]:
    """For each item, metric name -> Score or ErrorRecord (:func:`check_distinct_names` first)."""
    check_distinct_names(metrics)
    per_metric = {m.name: score_metric(m, items, limits) for m in metrics}
    return [{name: results[k] for name, results in per_metric.items()} for k in range(len(items))]


_WORKER: tuple[list[Metric], InputLimits | None] = ([], None)


def _init_worker(metrics: list[Metric], limits: InputLimits | None) -> None:
    from evalcore.run.workers import quiet_interrupt

    global _WORKER
    quiet_interrupt()
    _WORKER = (metrics, limits)


def _work(chunk: list[Item]) -> list[dict[str, Result]]:
    return score_chunk(_WORKER[0], chunk, _WORKER[1])


def chunked(items: Sequence[Item], size: int = CHUNK_ITEMS, key=None) -> list[list[int]]:
    """Positions of consecutive groups of about ``size`` items; with ``key`` (e.g. the topic), a
    group never splits items of one key, so their shared texts are preprocessed once."""
    groups: dict[object, list[int]] = {}
    for k, item in enumerate(items):
        groups.setdefault(key(item) if key else k // size, []).append(k)
    chunks: list[list[int]] = []
    current: list[int] = []
    for group in groups.values():
        current.extend(group)
        if len(current) >= size:
            chunks.append(current)
            current = []
    if current:
        chunks.append(current)
    return chunks


def score_with(metrics: Sequence[Metric], items: Sequence[Item], jobs: int = 1, progress: bool = False,
               limits: InputLimits | None = None, key=None, chunk_size: int = CHUNK_ITEMS,
               unit: str = "item", scheduler=None) -> list[dict[str, Result]]:
    """Score every item with every metric, in input order; ``key`` keeps groups together;
    ``scheduler`` (see :mod:`evalcore.run.distributed`; with ``local``, ``jobs`` is its worker count)
    scores the chunks on a Dask cluster."""
    out: list[dict[str, Result] | None] = [None] * len(items)
    for chunk, results in iter_scored(metrics, items, jobs, progress, limits, key, chunk_size, unit, scheduler):
        for k, result in zip(chunk, results):
            out[k] = result
    return out  # type: ignore[return-value]  # every position is in exactly one chunk


def iter_scored(metrics: Sequence[Metric], items: Sequence[Item], jobs: int = 1, progress: bool = False,
                limits: InputLimits | None = None, key=None, chunk_size: int = CHUNK_ITEMS,
                unit: str = "item", scheduler=None) -> Iterator[tuple[list[int], list[dict[str, Result]]]]:
    """As :func:`score_with`, chunk by chunk: ``(positions, results)`` in the order of the chunks
    (a chunk's positions ascend, but with ``key`` a later chunk may hold an earlier position), so a
    caller can write and drop results as they come."""
    batches = ((chunk, [items[k] for k in chunk]) for chunk in chunked(items, chunk_size, key))
    yield from iter_batches(metrics, batches, jobs, progress, limits, unit, scheduler, total=len(items))


def iter_batches(metrics: Sequence[Metric], batches: Iterable[tuple[Tag, Sequence[Item]]], jobs: int = 1,
                 progress: bool = False, limits: InputLimits | None = None, unit: str = "item", scheduler=None,
                 total: int = 0) -> Iterator[tuple[Tag, list[dict[str, Result]]]]:
    """Score each ``(tag, items)`` batch as ``batches`` makes it; ``(tag, results)`` in the order
    of the batches. Worker processes (``jobs > 1``, when there is more than one batch) or a Dask
    cluster (``scheduler``) hold at most :data:`AHEAD_PER_WORKER` batches each beyond the one handed
    on, so neither the batches nor their results pile up. ``total``: items, for the progress bar."""
    from evalcore.run.progress import bar

    check_distinct_names(metrics)
    limits = limits or InputLimits.from_env()
    batches = iter(batches)
    first = list(itertools.islice(batches, 2))  # one batch is scored here: no workers to start
    batches = itertools.chain(first, batches)
    with bar(total, progress, unit) as pbar:
        if scheduler is not None:
            from evalcore.metric.cluster import iter_chunks

            scored = iter_chunks(score_chunk, metrics, batches, limits, scheduler, jobs, AHEAD_PER_WORKER)
        elif jobs > 1 and len(first) > 1:
            scored = _in_workers(metrics, batches, limits, jobs)
        else:
            scored = ((tag, score_chunk(metrics, items, limits)) for tag, items in batches)
        for tag, results in scored:
            pbar.update(len(results))
            yield tag, results


def _in_workers(metrics: Sequence[Metric], batches: Iterable[tuple[Tag, Sequence[Item]]],
                limits: InputLimits | None, jobs: int) -> Iterator[tuple[Tag, list[dict[str, Result]]]]:
    """The batches scored by ``jobs`` worker processes, in order, a few ahead."""
    from concurrent.futures import ProcessPoolExecutor  # here: one-process runs start faster

    from evalcore.run.workers import stop_workers

    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(list(metrics), limits)) as pool:
        try:
            pending: deque = deque()
            for tag, items in batches:
                pending.append((tag, pool.submit(_work, list(items))))
                if len(pending) > AHEAD_PER_WORKER * jobs:
                    tag, future = pending.popleft()
                    yield tag, future.result()
            while pending:
                tag, future = pending.popleft()
                yield tag, future.result()
        except KeyboardInterrupt:
            stop_workers(pool)
            raise
