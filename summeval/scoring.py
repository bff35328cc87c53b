"""Batch scoring: every item gets scores or an error record; per-system means and ranks.

Items are scored in chunks of whole topics (so a topic's models are preprocessed once per
process); ``jobs > 1`` spreads the chunks over worker processes. The same function is what a
distributed engine would map over partitions of the corpus.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from summeval.io.records import SummaryItem
from summeval.metrics import Metric, check_item, get_metric

CHUNK_ITEMS = 256


@dataclass(frozen=True)
class SummaryResult:
    """Scores of one summary (metric name -> headline value), or the reason it has none;
    ``notes`` (metric name -> note) say what to know about a score, e.g. degenerate input."""

    topic: str
    system: str
    scores: dict[str, float]
    error: str | None = None
    origin: str = ""
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SystemResult:
    """A summarizer's mean score per metric over its scored summaries, and its rank (1 = best)."""

    system: str
    scores: dict[str, float]
    rank: dict[str, int]
    n_summaries: int
    n_errors: int = 0
    per_topic: dict[str, dict[str, float]] = field(default_factory=dict)


def build_metrics(names: Sequence[str], options: dict | None = None) -> list[Metric]:
    """Scorer objects for metric names (unknown names raise with the list of valid ones)."""
    return [get_metric(n, **(options or {})) for n in names]


def score_chunk(items: Sequence[SummaryItem], metrics: Sequence[Metric]) -> list[SummaryResult]:
    """Score a list of items with every metric; bad items become error records, never dropped."""
    errors: dict[int, str] = {}
    for k, item in enumerate(items):
        try:
            check_item(item.references, item.summary)
        except ValueError as exc:
            errors[k] = f"{item.origin or item.key}: {exc}"
    good = [k for k in range(len(items)) if k not in errors]
    scores: dict[int, dict[str, float]] = {k: {} for k in good}
    notes: dict[int, dict[str, str]] = {k: {} for k in good}
    for metric in metrics:
        for k, score in _metric_scores(metric, [items[k] for k in good], good, errors):
            scores[k][metric.name] = float(score.value)  # rouge-score returns int 0 for no overlap
            if score.note:
                notes[k][metric.name] = score.note
    return [SummaryResult(it.topic, it.system, scores.get(k, {}) if k not in errors else {}, errors.get(k), it.origin,
                          notes.get(k, {}) if k not in errors else {})
            for k, it in enumerate(items)]


def _metric_scores(metric: Metric, items: list[SummaryItem], positions: list[int], errors: dict[int, str]):
    """(position, Score) pairs; if the batch fails, retry item by item to name the culprit."""
    pairs = [(it.references, it.summary) for it in items]
    try:
        return list(zip(positions, metric.score_batch(pairs)))
    except Exception:  # noqa: BLE001 - isolate the failing item below, then report it by name
        out = []
        for pos, item, pair in zip(positions, items, pairs):
            try:
                out.append((pos, metric.score(*pair)))
            except Exception as exc:  # noqa: BLE001
                errors[pos] = f"{item.origin or item.key}: {metric.name} failed: {exc}"
        return out


def chunks_by_topic(items: Sequence[SummaryItem], size: int) -> list[list[SummaryItem]]:
    """Consecutive groups of about ``size`` items that never split a topic."""
    by_topic: dict[str, list[SummaryItem]] = defaultdict(list)
    for item in items:
        by_topic[item.topic].append(item)
    chunks, current = [], []
    for topic_items in by_topic.values():
        current.extend(topic_items)
        if len(current) >= size:
            chunks.append(current)
            current = []
    if current:
        chunks.append(current)
    return chunks


_WORKER_METRICS: list[Metric] = []


def _init_worker(names: Sequence[str], options: dict) -> None:
    global _WORKER_METRICS
    _WORKER_METRICS = build_metrics(names, options)


def _score_in_worker(chunk: list[SummaryItem]) -> list[SummaryResult]:
    return score_chunk(chunk, _WORKER_METRICS)


def score_items(items: Sequence[SummaryItem], names: Sequence[str], options: dict | None = None,
                jobs: int = 1, progress: bool = False, chunk_size: int = CHUNK_ITEMS) -> list[SummaryResult]:
    """Score every item with every named metric, in input order (``chunk_size``: items per task)."""
    options = options or {}
    chunks = chunks_by_topic(items, chunk_size)
    bar = _progress(len(items), progress)
    results: list[SummaryResult] = []
    if jobs > 1 and len(chunks) > 1:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(list(names), options)) as pool:
            for chunk_results in pool.map(_score_in_worker, chunks):
                results.extend(chunk_results)
                bar.update(len(chunk_results))
    else:
        metrics = build_metrics(names, options)
        for chunk in chunks:
            chunk_results = score_chunk(chunk, metrics)
            results.extend(chunk_results)
            bar.update(len(chunk_results))
    bar.close()
    order = {item.key: k for k, item in enumerate(items)}
    return sorted(results, key=lambda r: order[(r.topic, r.system)])


def _progress(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="summary", disable=not enabled or total < 2 * CHUNK_ITEMS, leave=False)


def aggregate_systems(results: Iterable[SummaryResult], names: Sequence[str]) -> list[SystemResult]:
    """Per-system means over scored summaries, ranked per metric (1 = best, ties share a rank)."""
    by_system: dict[str, list[SummaryResult]] = defaultdict(list)
    for r in results:
        by_system[r.system].append(r)
    means = {}
    for system, rs in by_system.items():
        scored = [r for r in rs if r.error is None]
        means[system] = {n: (sum(r.scores[n] for r in scored) / len(scored)) if scored else math.nan for n in names}
    ranks = {n: _competition_ranks({s: m[n] for s, m in means.items()}) for n in names}
    systems = [SystemResult(s, means[s], {n: ranks[n][s] for n in names},
                            sum(r.error is None for r in rs), sum(r.error is not None for r in rs),
                            {r.topic: r.scores for r in rs if r.error is None})
               for s, rs in by_system.items()]
    first = names[0] if names else None
    return sorted(systems, key=lambda s: (s.rank[first] if first else 0, s.system))


def _competition_ranks(values: dict[str, float]) -> dict[str, int]:
    """1 + number of systems strictly better; systems without a score rank last."""
    ordered = sorted(v for v in values.values() if not math.isnan(v))
    worst = len(values)
    out = {}
    for system, v in values.items():
        out[system] = worst if math.isnan(v) else 1 + sum(1 for o in ordered if o > v)
    return out
