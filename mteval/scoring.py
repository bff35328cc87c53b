"""Scoring test sets: several systems' outputs against the same references, every metric, then
system (corpus) scores and paired significance of each system against the first (the baseline),
as sacrebleu's ``--paired-bs`` / ``--paired-ar`` do.

An empty output line is scored (the metrics give it their value for an empty text). A line some
metric could not score (undecodable, over the size cap, an empty reference) makes that system's
corpus score for the metric incomplete: the score is over the lines it has, marked incomplete in
every output, and the system is left out of paired tests unless the caller includes incomplete
systems, which are then compared on the lines every compared system has."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from evalcore.metric import ErrorRecord, InputLimits, Item, Metric, Score
from evalcore.metric.base import Result
from evalcore.metric.batch import iter_scored
from evalcore.metric.columns import ScoreColumns
from evalcore.metric.inputs import EMPTY_NOTE
from evalcore.metric.statistics import SufficientStatistics
from mteval.io import Segment


@dataclass
class SystemResult:
    """One system's results, kept compactly as they are scored: per metric, which lines it scored
    and their scores as columns (what corpus scores and paired tests read), the lines with an empty
    output, how many lines some metric could not score; ``segments`` (every line's Score or
    ErrorRecord per metric) only where the caller keeps them; and the corpus scores."""

    name: str
    path: str
    n_lines: int
    metrics: Sequence[str]
    segments: list[dict[str, Result]] | None = None
    corpus: dict[str, Score] = field(default_factory=dict)
    columns: dict[str, ScoreColumns] = field(init=False)
    _scored: dict[str, bytearray] = field(init=False)
    _empty: list[int] = field(init=False, default_factory=list)
    _failed: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.columns = {m: ScoreColumns() for m in self.metrics}
        self._scored = {m: bytearray() for m in self.metrics}

    def add(self, row: dict[str, Result]) -> None:
        """The next line's results (lines are added in order)."""
        line = len(next(iter(self._scored.values()), ()))
        for name, result in row.items():
            self._scored[name].append(result.ok)
            if result.ok:
                self.columns[name].append(result)
        if any(r.ok and EMPTY_NOTE in r.notes for r in row.values()):
            self._empty.append(line + 1)
        self._failed += not all(r.ok for r in row.values())
        if self.segments is not None:
            self.segments.append(row)

    def scored(self, metric: str) -> list[int]:
        """0-based lines this metric scored."""
        return np.flatnonzero(np.frombuffer(self._scored[metric], dtype=np.uint8)).tolist()

    def complete(self, metric: str) -> bool:
        """Whether this metric scored every line (its corpus score covers the whole test set)."""
        return all(self._scored[metric])

    def empty_lines(self) -> list[int]:
        """1-based lines whose output is empty (scored as empty translations)."""
        return list(self._empty)

    @property
    def failed(self) -> int:
        """Lines some metric could not score."""
        return self._failed


def corpus_score(metric: Metric, columns: ScoreColumns) -> Score:
    """The metric's corpus score of the scores in ``columns`` (its own aggregate; for sufficient
    statistics, from their matrix without making a Score per line)."""
    if isinstance(metric, SufficientStatistics):
        return metric.score_of_statistics(columns.matrix(metric.statistic_names()))
    return metric.aggregate_scores(columns)


def score_systems(systems: dict[tuple[str, str], list[Segment]], metrics: Sequence[Metric], jobs: int = 1,
                  limits: InputLimits | None = None, progress: bool = True, scheduler=None,
                  keep_segments: bool = True, on_line=None) -> list[SystemResult]:
    """Score every system's segments with every metric; unscorable lines get error records. Items
    are scored line by line across systems, so each reference set is preprocessed once; with
    ``scheduler`` on a Dask cluster (:mod:`evalcore.run.distributed`). Each system's lines are
    handed on in order as soon as they and the lines before them are scored: to
    ``on_line(system index, 0-based line, results)`` if given, and kept in ``segments`` if
    ``keep_segments``; otherwise only their compact columns stay. Corpus scores are made here from
    every segment's score (summed statistics for BLEU, chrF, TER), wherever the segments ran."""
    keys = list(systems)
    n_lines = len(next(iter(systems.values())))
    names = [m.name for m in metrics]
    out = [SystemResult(name, path, n_lines, names, [] if keep_segments else None) for name, path in keys]
    order: list[tuple[int, int]] = []
    items: list[Item] = []
    for k in range(n_lines):
        for s in range(len(keys)):
            item = systems[keys[s]][k].item
            if item is not None:
                order.append((s, k))
                items.append(item)
    waiting: list[dict[int, dict[str, Result]]] = [{} for _ in keys]  # scored before an earlier line
    next_line = [0] * len(keys)

    def hand_on(s: int) -> None:
        segments = systems[keys[s]]
        while next_line[s] < n_lines:
            k = next_line[s]
            seg = segments[k]
            if seg.item is None:
                row: dict[str, Result] = {m.name: ErrorRecord(f"{keys[s][1]}:{k + 1}", m.name, seg.error)
                                          for m in metrics}
            elif k in waiting[s]:
                row = waiting[s].pop(k)
            else:
                return
            out[s].add(row)
            if on_line is not None:
                on_line(s, k, row)
            next_line[s] += 1

    for s in range(len(keys)):
        hand_on(s)  # unscorable first lines
    for chunk, results in iter_scored(metrics, items, jobs=jobs, progress=progress, limits=limits, unit="segment",
                                      key=lambda item: item.references, scheduler=scheduler):
        touched = set()
        for position, line_results in zip(chunk, results):
            s, k = order[position]
            waiting[s][k] = line_results
            touched.add(s)
        for s in sorted(touched):
            hand_on(s)
    for result in out:
        for m in metrics:
            result.corpus[m.name] = corpus_score(m, result.columns[m.name])
    return out


def paired_inputs(metric: Metric, results: Sequence[SystemResult]):
    """Per system, the values (or sufficient statistics) of the lines every system has scored,
    the aggregate that turns them into corpus scores, and those common lines."""
    common = sorted(set.intersection(*(set(r.scored(metric.name)) for r in results)))
    per_system = {}
    for r in results:
        rows = np.searchsorted(r.scored(metric.name), common)  # each common line's place among the scored
        columns = r.columns[metric.name]
        if isinstance(metric, SufficientStatistics):
            per_system[r.name] = columns.matrix(metric.statistic_names())[rows]
        else:
            per_system[r.name] = columns.values()[rows]
    aggregate = metric.corpus_from_statistics if isinstance(metric, SufficientStatistics) else None
    return per_system, aggregate, common


def significance(metrics: Sequence[Metric], results: Sequence[SystemResult], test: str, n_samples: int | None,
                 seed: int, incomplete: bool = False) -> dict[str, dict]:
    """{metric: {"test", "baseline", "segments", "systems": {system: PairedTest dict}, "left_out"}}:
    every system against the first, on the lines all compared systems have scored, with the same
    resamples. Systems whose corpus score is incomplete are left out (named in ``left_out``)
    unless ``incomplete``; an incomplete baseline leaves nothing to compare."""
    from evalcore.stats.significance import DEFAULT_SAMPLES, compare_to_baseline

    out = {}
    for metric in metrics:
        entry: dict = {"test": test, "baseline": results[0].name,
                       "n_samples": n_samples or DEFAULT_SAMPLES[test], "seed": seed}
        kept = [incomplete or r.complete(metric.name) for r in results]
        compared = [r for r, keep in zip(results, kept) if keep]
        left_out = {r.name: f"scored {len(r.scored(metric.name))} of {r.n_lines} lines"
                    for r, keep in zip(results, kept) if not keep}
        if left_out:
            entry["left_out"] = left_out
        out[metric.name] = entry
        if not kept[0]:
            entry["segments"] = 0
            entry["error"] = (f"the baseline's score is incomplete ({left_out[results[0].name]}); "
                              "--paired-incomplete compares on the lines every system has")
            continue
        if len(compared) < 2:
            entry["segments"] = 0
            entry["error"] = "every other system's score is incomplete; --paired-incomplete compares them"
            continue
        per_system, aggregate, common = paired_inputs(metric, compared)
        entry["segments"] = len(common)
        if not common:
            entry["error"] = "no line was scored for every system"
        else:
            tests = compare_to_baseline(per_system, results[0].name, test, aggregate, n_samples, seed)
            entry["systems"] = {name: t.as_dict() for name, t in tests.items()}
    return out
