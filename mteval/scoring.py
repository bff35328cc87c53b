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
from evalcore.metric.batch import score_with
from evalcore.metric.inputs import EMPTY_NOTE
from evalcore.metric.statistics import SufficientStatistics
from mteval.io import Segment


@dataclass
class SystemResult:
    """One system's per-line results (a Score or an ErrorRecord per metric) and corpus scores."""

    name: str
    path: str
    segments: list[dict[str, Result]]
    corpus: dict[str, Score] = field(default_factory=dict)

    def scored(self, metric: str) -> list[int]:
        """0-based lines this metric scored."""
        return [k for k, row in enumerate(self.segments) if row[metric].ok]

    def scores(self, metric: str, lines: Sequence[int]) -> list[Score]:
        """The metric's scores of ``lines`` (0-based), each of which it scored."""
        out = []
        for k in lines:
            result = self.segments[k][metric]
            if not result.ok:
                raise ValueError(f"{self.path}: line {k + 1} has no {metric} score: {result.message}")
            out.append(result)
        return out

    def complete(self, metric: str) -> bool:
        """Whether this metric scored every line (its corpus score covers the whole test set)."""
        return all(row[metric].ok for row in self.segments)

    def empty_lines(self) -> list[int]:
        """1-based lines whose output is empty (scored as empty translations)."""
        return [k + 1 for k, row in enumerate(self.segments)
                if any(r.ok and EMPTY_NOTE in r.notes for r in row.values())]

    @property
    def failed(self) -> int:
        """Lines some metric could not score."""
        return sum(not all(r.ok for r in row.values()) for row in self.segments)


def score_systems(systems: dict[tuple[str, str], list[Segment]], metrics: Sequence[Metric], jobs: int = 1,
                  limits: InputLimits | None = None, progress: bool = True, scheduler=None) -> list[SystemResult]:
    """Score every system's segments with every metric; unscorable lines get error records. Items
    are scored line by line across systems, so each reference set is preprocessed once; with
    ``scheduler`` on a Dask cluster (:mod:`evalcore.run.distributed`). Corpus scores are made here from
    every segment's score (summed statistics for BLEU, chrF, TER), wherever the segments ran."""
    keys = list(systems)
    n_lines = len(next(iter(systems.values())))
    order: list[tuple[int, int]] = []
    items: list[Item] = []
    for k in range(n_lines):
        for s in range(len(keys)):
            item = systems[keys[s]][k].item
            if item is not None:
                order.append((s, k))
                items.append(item)
    scored = score_with(metrics, items, jobs=jobs, progress=progress, limits=limits, unit="segment",
                        key=lambda item: item.references, scheduler=scheduler)
    rows: list[list[dict[str, Result] | None]] = [[None] * n_lines for _ in keys]
    for (s, k), line_results in zip(order, scored):
        rows[s][k] = line_results
    out = []
    for s, (name, path) in enumerate(keys):
        segments: list[dict[str, Result]] = []
        for k, seg in enumerate(systems[(name, path)]):
            row = rows[s][k]
            segments.append(row if row is not None else
                            {m.name: ErrorRecord(f"{path}:{k + 1}", m.name, seg.error) for m in metrics})
        result = SystemResult(name, path, segments)
        for m in metrics:
            result.corpus[m.name] = m.aggregate([row[m.name] for row in result.segments if row[m.name].ok])
        out.append(result)
    return out


def paired_inputs(metric: Metric, results: Sequence[SystemResult]):
    """Per system, the values (or sufficient statistics) of the lines every system has scored,
    the aggregate that turns them into corpus scores, and those common lines."""
    common = sorted(set.intersection(*(set(r.scored(metric.name)) for r in results)))
    per_system = {}
    for r in results:
        scores = r.scores(metric.name, common)
        if isinstance(metric, SufficientStatistics):
            per_system[r.name] = metric.statistics(scores)
        else:
            per_system[r.name] = np.array([s.value for s in scores], dtype=float)
    aggregate = metric.corpus_from_statistics if isinstance(metric, SufficientStatistics) else None
    return per_system, aggregate, common


def significance(metrics: Sequence[Metric], results: Sequence[SystemResult], test: str, n_samples: int | None,
                 seed: int, incomplete: bool = False) -> dict[str, dict]:
    """{metric: {"test", "baseline", "segments", "systems": {system: PairedTest dict}, "left_out"}}:
    every system against the first, on the lines all compared systems have scored, with the same
    resamples. Systems whose corpus score is incomplete are left out (named in ``left_out``)
    unless ``incomplete``; an incomplete baseline leaves nothing to compare."""
    from evalcore.significance import DEFAULT_SAMPLES, compare_to_baseline

    out = {}
    for metric in metrics:
        entry: dict = {"test": test, "baseline": results[0].name,
                       "n_samples": n_samples or DEFAULT_SAMPLES[test], "seed": seed}
        kept = [incomplete or r.complete(metric.name) for r in results]
        compared = [r for r, keep in zip(results, kept) if keep]
        left_out = {r.name: f"scored {len(r.scored(metric.name))} of {len(r.segments)} lines"
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
