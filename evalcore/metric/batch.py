"""Scoring many items with several metrics: one metric's failure (a cache it cannot write, a parse
it cannot do, a model that will not load) costs that metric's values only, never another's.

``score_with`` is what every CLI calls; ``jobs > 1`` maps chunks over worker processes (metrics
travel as their parameters and rebuild their models once per worker), ``scheduler`` over a Dask
cluster (:mod:`evalcore.run.distributed`), chunked the same way, so values never depend on where a
chunk ran.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from evalcore.metric.base import Item, Metric, Result
from evalcore.metric.inputs import InputLimits
from evalcore.metric.records import ErrorRecord

CHUNK_ITEMS = 256


def score_metric(metric: Metric, items: Sequence[Item], limits: InputLimits | None = None) -> list[Result]:
    """``metric.score_batch`` that never raises: a metric that fails as a whole gives one error
    record per item, naming the failure."""
    try:
        results = metric.score_batch(items, limits)
    except Exception as exc:  # noqa: BLE001 - a broken metric must not cost the other metrics
        message = f"{type(exc).__name__}: {exc}"
        return [ErrorRecord(it.id or f"item {k + 1}", metric.name, message) for k, it in enumerate(items)]
    return results


def score_chunk(metrics: Sequence[Metric], items: Sequence[Item],
                limits: InputLimits | None = None) -> list[dict[str, Result]]:
    """For each item, metric name -> Score or ErrorRecord."""
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
    caller can write and drop results as they come. On a Dask cluster the chunks are gathered
    first, then given in order."""
    from evalcore.run.progress import bar
    from evalcore.run.workers import stop_workers

    limits = limits or InputLimits.from_env()
    chunks = chunked(items, chunk_size, key)
    with bar(len(items), progress, unit) as pbar:
        if scheduler is not None:
            from evalcore.metric.cluster import map_chunks

            done_chunks: dict[int, list[dict[str, Result]]] = {}

            def done(index: int, results: list[dict[str, Result]]) -> None:
                done_chunks[index] = results
                pbar.update(len(chunks[index]))

            map_chunks(score_chunk, metrics, [[items[k] for k in chunk] for chunk in chunks], limits, scheduler,
                       jobs, done)
            for index, chunk in enumerate(chunks):
                yield chunk, done_chunks.pop(index)
        elif jobs > 1 and len(chunks) > 1:
            from concurrent.futures import ProcessPoolExecutor  # here: one-process runs start faster

            with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                                     initargs=(list(metrics), limits)) as pool:
                try:
                    results_iter = pool.map(_work, ([items[k] for k in chunk] for chunk in chunks))
                    for chunk, results in zip(chunks, results_iter):
                        pbar.update(len(chunk))
                        yield chunk, results
                except KeyboardInterrupt:
                    stop_workers(pool)
                    raise
        else:
            for chunk in chunks:
                results = score_chunk(metrics, [items[k] for k in chunk], limits)
                pbar.update(len(chunk))
                yield chunk, results


def score_chunks(metrics: Sequence[Metric], chunks: Iterable[Sequence[Item]], jobs: int = 1,
                 limits: InputLimits | None = None) -> Iterator[list[dict[str, Result]]]:
    """Each chunk's results, in the order of the chunks, as :func:`score_chunk` gives them; the
    chunks are drawn from ``chunks`` as they are scored (with ``jobs > 1``, a few ahead, in one
    pool of worker processes kept for the whole stream), so a stream of any length is scored
    holding a few chunks."""
    limits = limits or InputLimits.from_env()
    if jobs <= 1:
        for chunk in chunks:
            yield score_chunk(metrics, chunk, limits)
        return
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    from evalcore.run.workers import stop_workers

    ahead = 2 * jobs  # chunks in flight: every worker busy, one more waiting each
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(list(metrics), limits)) as pool:
        try:
            pending: deque = deque()
            for chunk in chunks:
                pending.append(pool.submit(_work, list(chunk)))
                if len(pending) >= ahead:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except KeyboardInterrupt:
            stop_workers(pool)
            raise
