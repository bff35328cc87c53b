"""Scoring summaries with several metrics, then per-system means and ranks.

Every (summary, metric) pair gets a value or an error record: one metric failing on a summary
costs that metric's value only (:func:`evalcore.metric.batch.score_with`). Items are scored in
chunks of whole topics, so a topic's references are preprocessed once per process; ``jobs > 1``
spreads the chunks over worker processes.

Systems are ranked per metric on the topics every ranked system has a score for, so a system
that skipped the hard topics cannot rise above one that did them all; systems missing topics
are flagged (:class:`SystemResult`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from evalcore.data.records import SummaryItem
from evalcore.metric import InputLimits, Item, Metric
from evalcore.metric.batch import CHUNK_ITEMS, score_with
from evalcore.metric.registry import get_metric, spec


@dataclass(frozen=True)
class SummaryResult:
    """One summary's results: ``scores`` (metric -> value) for the metrics that scored it,
    ``errors`` (metric -> why it has no value) for the others, ``components`` (metric -> the
    metric's named parts) and ``notes`` (metric -> what to know about a value)."""

    topic: str
    system: str
    scores: dict[str, float]
    errors: dict[str, str] = field(default_factory=dict)
    origin: str = ""
    components: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Every metric scored this summary."""
        return not self.errors

    @property
    def name(self) -> str:
        """Where the summary came from (file or file:line), else topic/system."""
        return self.origin or f"{self.topic}/{self.system}"


@dataclass(frozen=True)
class SystemResult:
    """A summarizer's results. ``scores``: mean per metric over its scored summaries; ``rank``:
    1 = best, ties share a rank, None = not ranked (it shares no topic with the ranked systems);
    ``rank_scores``: the means the rank compares, over the topics every ranked system has (given
    only where they differ from ``scores``); ``missing_topics``: topics of the input this system
    has no summary for."""

    system: str
    scores: dict[str, float]
    rank: dict[str, int | None]
    n_summaries: int
    n_errors: int = 0
    per_topic: dict[str, dict[str, float]] = field(default_factory=dict)
    rank_scores: dict[str, float] = field(default_factory=dict)
    missing_topics: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ranking:
    """How one metric's ranks were made: on ``topics`` (shared by every ranked system) of
    ``n_topics`` scored topics; ``unranked`` systems share none of them."""

    topics: tuple[str, ...]
    n_topics: int
    unranked: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"topics": len(self.topics), "of": self.n_topics, **({"unranked": list(self.unranked)}
                                                                      if self.unranked else {})}


def build_metrics(names: Sequence[str], options: Mapping[str, Mapping[str, object]] | None = None) -> list[Metric]:
    """Configured metrics for registered names, each checked (unknown names and bad values raise
    before any scoring). ``options`` (metric name -> parameters; None = the metric's default)
    never override what a name stands for (``--function-words`` does not turn ``tesla-s-pos``
    back into ``tesla-s``). Names that come to the same metric are computed once."""
    metrics: dict[str, Metric] = {}
    for name in names:
        fixed = spec(name).kwargs
        params = {k: v for k, v in (options or {}).get(name, {}).items() if v is not None and k not in fixed}
        metric = get_metric(name, **params)
        metric.validate()
        metric.signature()  # loads what the signature names (a missing model fails here, not later)
        metrics.setdefault(metric.name, metric)
    return list(metrics.values())


def item_id(item: SummaryItem) -> str:
    return item.origin or f"{item.topic}/{item.system}"


def to_metric_items(items: Sequence[SummaryItem]) -> list[Item]:
    """The contract's items: candidate, references, and the summary's origin as its id."""
    return [Item(it.summary, tuple(it.references), id=item_id(it)) for it in items]


def collect(items: Sequence[SummaryItem], per_item: Sequence[Mapping[str, object]]) -> list[SummaryResult]:
    """Summary results from the per-item ``{metric name: Score | ErrorRecord}`` of a scoring run."""
    out = []
    for item, results in zip(items, per_item):
        scores, errors, components, notes = {}, {}, {}, {}
        for name, r in results.items():
            if not r.ok:
                errors[name] = r.message
                continue
            scores[name] = r.value
            if r.components:
                components[name] = dict(r.components)
            if r.notes:
                notes[name] = r.notes
        out.append(SummaryResult(item.topic, item.system, scores, errors, item.origin, components, notes))
    return out


def score_items(items: Sequence[SummaryItem], metrics: Sequence[Metric], jobs: int = 1, progress: bool = False,
                limits: InputLimits | None = None, chunk_size: int = CHUNK_ITEMS) -> list[SummaryResult]:
    """Score every item with every metric, in input order; chunks hold whole topics."""
    metric_items = to_metric_items(items)
    topic_of = {mi.id: it.topic for mi, it in zip(metric_items, items)}
    per_item = score_with(metrics, metric_items, jobs=jobs, progress=progress, limits=limits,
                          key=lambda mi: topic_of[mi.id], chunk_size=chunk_size, unit="summary")
    return collect(items, per_item)


def aggregate_systems(results: Iterable[SummaryResult], names: Sequence[str]) -> tuple[list[SystemResult],
                                                                                        dict[str, Ranking]]:
    """Per-system means and ranks per metric (see :class:`SystemResult`), best first by the first
    metric; and, per metric, the topics its ranks compare."""
    results = list(results)
    by_system: dict[str, list[SummaryResult]] = defaultdict(list)
    for r in results:
        by_system[r.system].append(r)
    all_topics = {r.topic for r in results}
    # system -> metric -> topic -> value
    values = {s: {n: {r.topic: r.scores[n] for r in rs if n in r.scores} for n in names} for s, rs in by_system.items()}
    rankings, ranks, rank_scores = {}, {s: {} for s in by_system}, {s: {} for s in by_system}
    for n in names:
        ranking, means = _rank_basis({s: v[n] for s, v in values.items()})
        rankings[n] = ranking
        order = _competition_ranks(means)
        for s in by_system:
            ranks[s][n] = order.get(s)
            if s in means and set(ranking.topics) != set(values[s][n]):
                rank_scores[s][n] = means[s]
    systems = [SystemResult(s, {n: _mean(values[s][n].values()) for n in names},
                            ranks[s], len(rs), sum(not r.ok for r in rs),
                            {r.topic: r.scores for r in rs if r.scores}, rank_scores[s],
                            tuple(sorted(all_topics - {r.topic for r in rs})))
               for s, rs in by_system.items()]
    first = names[0] if names else None
    systems.sort(key=lambda s: (s.rank.get(first) is None, s.rank.get(first) or 0, s.system))
    return systems, rankings


def _rank_basis(topic_values: Mapping[str, Mapping[str, float]]) -> tuple[Ranking, dict[str, float]]:
    """The topics every ranked system has, and each ranked system's mean over them. Systems with
    the fewest topics leave the ranking until the rest share at least one topic."""
    ranked = {s: set(v) for s, v in topic_values.items() if v}
    n_topics = len(set().union(*ranked.values())) if ranked else 0
    common = set.intersection(*ranked.values()) if ranked else set()
    while ranked and not common:
        fewest = min(len(t) for t in ranked.values())
        ranked = {s: t for s, t in ranked.items() if len(t) > fewest}
        common = set.intersection(*ranked.values()) if ranked else set()
    means = {s: _mean(v for t, v in topic_values[s].items() if t in common) for s in ranked}
    unranked = tuple(sorted(s for s in topic_values if s not in ranked))
    return Ranking(tuple(sorted(common)), n_topics, unranked), means


def _mean(values: Iterable[float]) -> float:
    """Mean in input order (summed left to right, as the scores were produced); NaN for none."""
    values = list(values)
    return sum(values) / len(values) if values else math.nan


def _competition_ranks(values: Mapping[str, float]) -> dict[str, int]:
    """1 + number of systems strictly better (ties share a rank)."""
    ordered = sorted(values.values())
    return {system: 1 + sum(1 for o in ordered if o > v) for system, v in values.items()}
