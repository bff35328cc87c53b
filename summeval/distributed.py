"""Scoring on a Dask cluster: the same per-chunk function as local scoring, mapped by Dask.

Needs the optional extra ``pip install 'aesop-eval[dask]'``. Pass a ``distributed.Client`` for a
real cluster; without one, Dask's default scheduler for the current context is used.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from summeval.io.records import SummaryItem
from summeval.scoring import CHUNK_ITEMS, SummaryResult, build_metrics, chunks_by_topic, score_chunk


@functools.lru_cache(maxsize=8)
def _worker_metrics(names: tuple[str, ...], options: tuple[tuple[str, object], ...]):
    """Metrics built once per worker process (their text caches then serve every chunk)."""
    return build_metrics(names, dict(options))


def _score_remote(chunk: list[SummaryItem], names: tuple[str, ...], options: tuple) -> list[SummaryResult]:
    return score_chunk(chunk, _worker_metrics(names, options))


def score_items_dask(items: Sequence[SummaryItem], names: Sequence[str], options: dict | None = None,
                     client=None, chunk_size: int = CHUNK_ITEMS) -> list[SummaryResult]:
    """Like :func:`summeval.scoring.score_items`, with chunks of whole topics as Dask tasks."""
    try:
        import dask
    except ImportError as exc:
        raise ImportError("Dask scoring needs the optional extra: pip install 'aesop-eval[dask]'") from exc
    frozen = tuple(sorted((options or {}).items()))
    tasks = [dask.delayed(_score_remote)(chunk, tuple(names), frozen) for chunk in chunks_by_topic(items, chunk_size)]
    if client is not None:
        parts = client.gather(client.compute(tasks))
    else:
        parts = dask.compute(*tasks)
    order = {item.key: k for k, item in enumerate(items)}
    return sorted((r for part in parts for r in part), key=lambda r: order[(r.topic, r.system)])
