"""Scoring on a Dask cluster: the same per-chunk function as local scoring, mapped by Dask.

Needs the optional extra ``pip install 'aesop-eval[dask]'``. Pass a ``distributed.Client`` for a
real cluster; without one, Dask's default scheduler for the current context is used. Metrics
travel as their parameters and load their models once per worker process.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.data.records import SummaryItem
from evalcore.metric import InputLimits, Metric
from evalcore.metric.batch import CHUNK_ITEMS, chunked, score_chunk
from summeval.pipeline import SummaryResult, collect, to_metric_items


def score_items_dask(items: Sequence[SummaryItem], metrics: Sequence[Metric], client=None,
                     chunk_size: int = CHUNK_ITEMS, limits: InputLimits | None = None) -> list[SummaryResult]:
    """Like :func:`summeval.pipeline.score_items`, with chunks of whole topics as Dask tasks."""
    from evalcore.extras import require

    require("dask", "Dask scoring")
    import dask

    limits = limits or InputLimits.from_env()
    metric_items = to_metric_items(items)
    topic_of = {mi.id: it.topic for mi, it in zip(metric_items, items)}
    chunks = chunked(metric_items, chunk_size, key=lambda mi: topic_of[mi.id])
    tasks = [dask.delayed(score_chunk)(list(metrics), [metric_items[k] for k in chunk], limits) for chunk in chunks]
    parts = client.gather(client.compute(tasks)) if client is not None else dask.compute(*tasks)
    per_item: list = [None] * len(items)
    for chunk, part in zip(chunks, parts):
        for k, result in zip(chunk, part):
            per_item[k] = result
    return collect(items, per_item)
