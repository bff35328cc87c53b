"""Scoring test sets: several systems' outputs against the same references, every metric, then
system (corpus) scores and paired significance of each system against the first (the baseline),
as sacrebleu's ``--paired-bs`` / ``--paired-ar`` do.

An empty output line is scored (the metrics give it their value for an empty text). A line some
metric could not score (undecodable, over the size cap, an empty reference) makes that system's
corpus score for the metric incomplete: the score is over the lines it has, marked incomplete in
every output, and the system is left out of paired tests unless the caller includes incomplete
systems, which are then compared on the lines every compared system has."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from evalcore.metric import ErrorRecord, InputLimits, Item, Metric, Score
from evalcore.metric.base import Result
from evalcore.metric.batch import CHUNK_ITEMS, iter_batches
from evalcore.metric.columns import ScoreColumns
from evalcore.metric.inputs import EMPTY_NOTE
from evalcore.metric.statistics import StatisticSums, SufficientStatistics
from mteval.io import Segment

#: what a SystemResult keeps of each line beyond its compact columns: every line's results, the
#: results of the lines some metric could not score, or nothing
KEEP = ("all", "errors", None)


@dataclass
class SystemResult:
    """One system's results, kept compactly as they are scored: per metric, which lines it scored
    (a byte a line) and what its corpus score reads (the summed statistics of BLEU, chrF and TER;
    the score columns of other metrics, and of every metric when ``paired`` tests will read them);
    the lines with an empty output; how many lines some metric could not score; per ``keep``, every
    line's results (``segments``: a Score or ErrorRecord per metric) or those of the lines some
    metric could not score (``failures``); and the corpus scores, made by :meth:`finish`."""

    name: str
    path: str
    n_lines: int
    metrics: Sequence[Metric]
    keep: str | None = "all"
    paired: bool = False
    segments: list[dict[str, Result]] | None = field(init=False)
    failures: list[dict[str, Result]] = field(init=False, default_factory=list)
    corpus: dict[str, Score] = field(default_factory=dict)
    columns: dict[str, ScoreColumns] = field(init=False)
    _sums: dict[str, StatisticSums] = field(init=False)
    _scored: dict[str, bytearray] = field(init=False)
    _empty: list[int] = field(init=False, default_factory=list)
    _failed: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        if self.keep not in KEEP:
            raise ValueError(f"keep must be one of {KEEP}, got {self.keep!r}")
        self.segments = [] if self.keep == "all" else None
        self._sums = {m.name: StatisticSums(m) for m in self.metrics if isinstance(m, SufficientStatistics)}
        self.columns = {m.name: ScoreColumns() for m in self.metrics if self.paired or m.name not in self._sums}
        self._scored = {m.name: bytearray() for m in self.metrics}

    def add(self, row: dict[str, Result]) -> None:
        """The next line's results (lines are added in order)."""
        line = len(next(iter(self._scored.values()), ()))
        for name, result in row.items():
            self._scored[name].append(result.ok)
            if result.ok:
                if name in self._sums:
                    self._sums[name].append(result)
                if name in self.columns:
                    self.columns[name].append(result)
        if any(r.ok and EMPTY_NOTE in r.notes for r in row.values()):
            self._empty.append(line + 1)
        if not all(r.ok for r in row.values()):
            self._failed += 1
            if self.keep is not None:
                self.failures.append(row)
        if self.segments is not None:
            self.segments.append(row)

    def finish(self) -> None:
        """Make the corpus scores of the lines added (each metric's own corpus rule)."""
        for m in self.metrics:
            sums = self._sums.get(m.name)
            self.corpus[m.name] = sums.score() if sums else m.aggregate_scores(self.columns[m.name])

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


def score_systems(systems: Sequence[tuple[str, str]], lines: Iterable[Sequence[Segment]], n_lines: int,
                  metrics: Sequence[Metric], jobs: int = 1, limits: InputLimits | None = None, progress: bool = True,
                  scheduler=None, keep: str | None = "all", paired: bool = False, on_line=None) -> list[SystemResult]:
    """Score every system (``(name, path)``) with every metric, reading ``lines`` (each line's
    :class:`Segment` per system, :func:`mteval.io.iter_segments`) as the scoring goes; unscorable
    lines get error records. A line's systems are scored in one batch, so its references are
    preprocessed once; batches run here, in ``jobs`` worker processes or on a Dask cluster
    (``scheduler``, :mod:`evalcore.run.distributed`). Each line's results are handed on in order as
    soon as they are scored: to ``on_line(system index, 0-based line, results)`` if given, and kept
    as ``keep`` says (:class:`SystemResult`); ``paired``: keep the score columns that
    :func:`significance` reads. Corpus scores are made from every segment's score (summed
    statistics for BLEU, chrF, TER), wherever the segments ran."""
    out = [SystemResult(name, path, n_lines, metrics, keep, paired) for name, path in systems]
    for block, results in iter_batches(metrics, _batches(lines), jobs, progress, limits, "segment", scheduler,
                                       total=n_lines * len(systems)):
        scored = iter(results)
        for segments in block:
            for s, seg in enumerate(segments):
                if seg.item is None:
                    row: dict[str, Result] = {m.name: ErrorRecord(f"{systems[s][1]}:{seg.line}", m.name, seg.error)
                                              for m in metrics}
                else:
                    row = next(scored)
                out[s].add(row)
                if on_line is not None:
                    on_line(s, seg.line - 1, row)
    for result in out:
        result.finish()
    return out


def _batches(lines: Iterable[Sequence[Segment]],
             size: int = CHUNK_ITEMS) -> Iterator[tuple[list[Sequence[Segment]], list[Item]]]:
    """Consecutive lines and their scorable items, until the items reach ``size``: a line's items
    (its systems, which share its references) are never split between batches."""
    block: list[Sequence[Segment]] = []
    items: list[Item] = []
    for segments in lines:
        block.append(segments)
        items.extend(seg.item for seg in segments if seg.item is not None)
        if len(items) >= size:
            yield block, items
            block, items = [], []
    if block:
        yield block, items


def paired_inputs(metric: Metric, results: Sequence[SystemResult]):
    """Per system, the values (or sufficient statistics) of the lines every system has scored,
    the aggregate that turns them into corpus scores, and those common lines."""
    common = sorted(set.intersection(*(set(r.scored(metric.name)) for r in results)))
    per_system = {}
    for r in results:
        rows = np.searchsorted(r.scored(metric.name), common)  # each common line's place among the scored
        if metric.name not in r.columns:
            raise ValueError(f"{r.name}: the score columns of {metric.name} were not kept (score_systems(paired=True))")
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
