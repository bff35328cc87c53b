"""Scoring summaries with several metrics, then per-system means and ranks.

Every (summary, metric) pair gets a value or an error record: one metric failing on a summary
costs that metric's value only (:func:`evalcore.metric.batch.score_with`). Items are scored in
chunks of whole topics, so a topic's references are preprocessed once per process; ``jobs > 1``
spreads the chunks over worker processes, ``scheduler`` over a Dask cluster. :func:`iter_results`
scores a stream of items a window at a time (chunks of whole topics within the window), so a long
input is scored holding a window, not the input.

Ranks compare like with like. By default (rule ``complete``) a system is ranked on a metric only
when it has a value on every topic that metric scored, and all ranked systems are compared on all
those topics; a system missing topics is listed unranked with its coverage, so it neither rises by
skipping hard topics nor changes the topics the others are compared on. A topic no system has a
value for (its references were lost) is named in the :class:`Ranking`. Rule ``shared`` ranks
everyone on the topics all ranked systems share instead. Ranks follow each metric's orientation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice

from evalcore.data.records import SummaryItem
from evalcore.metric import InputLimits, Item, Metric, Score
from evalcore.metric.base import Result
from evalcore.metric.batch import CHUNK_ITEMS, chunked, iter_batches, score_with

#: summaries :func:`iter_results` reads ahead and chunks by topic together (a few chunks' worth)
WINDOW_ITEMS = 8 * CHUNK_ITEMS
#: how systems missing topics are ranked: ``complete`` (not ranked) or ``shared`` (everyone on the shared topics)
RANK_RULES = ("complete", "shared")


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
    1 = best (in the metric's orientation), ties share a rank, None = not ranked; ``rank_scores``:
    per ranked metric, the mean the rank compares (over the ranking's topics); ``coverage``: per
    metric, how many topics it has a value for; ``missing_topics``: topics of the input this system
    has no summary for."""

    system: str
    scores: dict[str, float]
    rank: dict[str, int | None]
    n_summaries: int
    n_errors: int = 0
    per_topic: dict[str, dict[str, float]] = field(default_factory=dict)
    rank_scores: dict[str, float] = field(default_factory=dict)
    missing_topics: tuple[str, ...] = ()
    coverage: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Ranking:
    """How one metric's ranks were made: on ``topics`` of the input's ``n_topics``; ``unranked``
    systems lack a value on some of them; ``unscored`` topics (topic -> one of its error messages)
    have no value for any system (a lost reference), so no rank compares them; ``rule`` is
    :data:`RANK_RULES`' choice, ``lower_is_better`` the metric's orientation."""

    topics: tuple[str, ...]
    n_topics: int
    unranked: tuple[str, ...] = ()
    unscored: dict[str, str] = field(default_factory=dict)
    rule: str = "complete"
    lower_is_better: bool = False

    def as_dict(self) -> dict:
        return {"topics": len(self.topics), "of": self.n_topics, "rule": self.rule,
                "order": "lower is better" if self.lower_is_better else "higher is better",
                **({"unranked": list(self.unranked)} if self.unranked else {}),
                **({"unscored_topics": dict(self.unscored)} if self.unscored else {})}


def item_id(item: SummaryItem) -> str:
    return item.origin or f"{item.topic}/{item.system}"


def to_metric_items(items: Sequence[SummaryItem]) -> list[Item]:
    """The contract's items: candidate, references, the summary's origin as its id, its language."""
    return [Item(it.summary, tuple(it.references), id=item_id(it), lang=it.lang) for it in items]


def collect(items: Sequence[SummaryItem], per_item: Sequence[Mapping[str, Result]]) -> list[SummaryResult]:
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
                limits: InputLimits | None = None, chunk_size: int = CHUNK_ITEMS,
                scheduler=None) -> list[SummaryResult]:
    """Score every item with every metric, in input order; chunks hold whole topics (on a Dask
    cluster with ``scheduler``: :mod:`evalcore.run.distributed`)."""
    metric_items = to_metric_items(items)
    topic_of = {mi.id: it.topic for mi, it in zip(metric_items, items)}
    per_item = score_with(metrics, metric_items, jobs=jobs, progress=progress, limits=limits,
                          key=lambda mi: topic_of[mi.id], chunk_size=chunk_size, unit="summary",
                          scheduler=scheduler)
    return collect(items, per_item)


def iter_results(items: Iterable[SummaryItem], metrics: Sequence[Metric], jobs: int = 1, progress: bool = False,
                 limits: InputLimits | None = None, chunk_size: int = CHUNK_ITEMS, scheduler=None,
                 total: int | None = None, window: int = WINDOW_ITEMS) -> Iterator[SummaryResult]:
    """:func:`score_items` of a stream of items, each result given in input order as soon as the
    ``window`` of items holding it is scored: the items are drawn a window at a time and chunked by
    topic within it (``jobs > 1``: one pool of worker processes for the whole stream), so memory
    holds a window, not the input; on a Dask cluster (``scheduler``) too, a few chunks per worker
    in flight. ``total`` (the number of items, when known) sizes the progress bar. A metric's value
    does not depend on the other items of its chunk, so the values are :func:`score_items`' (the
    tests check it); where it does (``scope == "topic"``: CREMER standardises TESLA-S within a
    topic, which a window may split), the items are gathered and scored by :func:`score_items`."""
    if any(m.scope == "topic" for m in metrics):
        yield from score_items(list(items), metrics, jobs, progress, limits, chunk_size, scheduler)
        return

    def chunks() -> Iterator[tuple[tuple[list[SummaryItem], list[int], bool], list[Item]]]:
        """((window, chunk, last chunk of the window), the chunk's items), window by window."""
        stream = iter(items)
        while batch := list(islice(stream, window)):
            metric_items = to_metric_items(batch)
            topic_of = {mi.id: it.topic for mi, it in zip(metric_items, batch)}
            groups = chunked(metric_items, chunk_size, key=lambda mi: topic_of[mi.id])
            for g, chunk in enumerate(groups):
                yield (batch, chunk, g == len(groups) - 1), [metric_items[k] for k in chunk]

    scored: dict[int, Mapping[str, Result]] = {}
    for (batch, chunk, last), results in iter_batches(metrics, chunks(), jobs, progress, limits, "summary", scheduler,
                                                      total=total or 0):
        scored.update(zip(chunk, results))
        if last:
            yield from collect(batch, [scored.pop(k) for k in range(len(batch))])


def aggregate_systems(results: Iterable[SummaryResult], metrics: Sequence[Metric],
                      rule: str = "complete") -> tuple[list[SystemResult], dict[str, Ranking]]:
    """Per-system scores and ranks per metric (see :class:`SystemResult`), best first by the first
    metric; and, per metric, how its ranks were made. A system's score is the metric's own
    :meth:`~evalcore.metric.Metric.aggregate` of its summaries' scores (the mean, unless the
    metric defines its corpus score otherwise); metrics where lower is better rank their
    smallest values first; ``rule``: one of :data:`RANK_RULES`."""
    if rule not in RANK_RULES:
        raise ValueError(f"rank rule must be one of {RANK_RULES}, got {rule!r}")
    results = list(results)
    by_name = {m.name: m for m in metrics}
    names = list(by_name)
    lower = {m.name for m in metrics if m.lower_is_better}
    by_system: dict[str, list[SummaryResult]] = defaultdict(list)
    for r in results:
        by_system[r.system].append(r)
    all_topics = sorted({r.topic for r in results})
    # system -> metric -> topic -> score
    values = {s: {n: {r.topic: Score(r.scores[n], r.components.get(n, {})) for r in rs if n in r.scores} for n in names}
              for s, rs in by_system.items()}
    rankings: dict[str, Ranking] = {}
    ranks: dict[str, dict[str, int | None]] = {s: {} for s in by_system}
    rank_scores: dict[str, dict[str, float]] = {s: {} for s in by_system}
    for n in names:
        basis, ranked = _rank_basis({s: set(v[n]) for s, v in values.items()}, rule)
        unscored = {t: next(r.errors.get(n, "no summary") for r in results if r.topic == t)
                    for t in all_topics if not any(t in v[n] for v in values.values())}
        rankings[n] = Ranking(tuple(sorted(basis)), len(all_topics), tuple(sorted(set(by_system) - ranked)),
                              unscored, rule, n in lower)
        means = {s: by_name[n].aggregate(v for t, v in values[s][n].items() if t in basis).value for s in ranked}
        order = _competition_ranks(means, n in lower)
        for s in by_system:
            ranks[s][n] = order.get(s)
            if s in means:
                rank_scores[s][n] = means[s]
    systems = [SystemResult(s, {n: by_name[n].aggregate(values[s][n].values()).value for n in names},
                            ranks[s], len(rs), sum(not r.ok for r in rs),
                            {r.topic: r.scores for r in rs if r.scores}, rank_scores[s],
                            tuple(t for t in all_topics if t not in {r.topic for r in rs}),
                            {n: len(values[s][n]) for n in names})
               for s, rs in by_system.items()]
    first = names[0] if names else ""  # no metric: no system has a rank
    systems.sort(key=lambda s: (s.rank.get(first) is None, s.rank.get(first) or 0, s.system))
    return systems, rankings


def _rank_basis(topics_of: Mapping[str, set[str]], rule: str) -> tuple[set[str], set[str]]:
    """The topics ranks compare and the systems ranked on them. ``complete``: every topic some
    system has a value for, and the systems with a value on each. ``shared``: the topics every
    ranked system has; systems with the fewest topics leave until the rest share at least one."""
    scored = set().union(*topics_of.values())
    if rule == "complete":
        return scored, {s for s, t in topics_of.items() if scored and t == scored}
    ranked = {s: t for s, t in topics_of.items() if t}
    common = set.intersection(*ranked.values()) if ranked else set()
    while ranked and not common:
        fewest = min(len(t) for t in ranked.values())
        ranked = {s: t for s, t in ranked.items() if len(t) > fewest}
        common = set.intersection(*ranked.values()) if ranked else set()
    return common, set(ranked)


def _competition_ranks(values: Mapping[str, float], lower_is_better: bool = False) -> dict[str, int]:
    """1 + number of systems strictly better (ties share a rank)."""
    ordered = sorted(values.values())
    if lower_is_better:
        return {system: 1 + sum(1 for o in ordered if o < v) for system, v in values.items()}
    return {system: 1 + sum(1 for o in ordered if o > v) for system, v in values.items()}
