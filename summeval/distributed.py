"""Scoring summaries on a Dask cluster from Python: :func:`summeval.pipeline.score_items` with a
scheduler (:mod:`evalcore.run.distributed` says what travels and what each worker keeps).

Needs the optional extra ``pip install 'aesop-eval[dask]'``. Pass a ``distributed.Client`` for a
real cluster; without one, Dask's default scheduler for the current context is used.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.data.records import SummaryItem
from evalcore.metric import InputLimits, Metric
from evalcore.metric.batch import CHUNK_ITEMS
from evalcore.run.distributed import CONTEXT
from summeval.pipeline import SummaryResult, score_items


def score_items_dask(items: Sequence[SummaryItem], metrics: Sequence[Metric], client=None,
                     chunk_size: int = CHUNK_ITEMS, limits: InputLimits | None = None) -> list[SummaryResult]:
    """Like :func:`summeval.pipeline.score_items`, with chunks of whole topics as Dask tasks."""
    return score_items(items, metrics, limits=limits, chunk_size=chunk_size,
                       scheduler=CONTEXT if client is None else client)
