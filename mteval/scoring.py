"""Scoring test sets: several systems' outputs against the same references, every metric, then
system (corpus) scores and paired significance of each system against the first (the baseline),
as sacrebleu's ``--paired-bs`` / ``--paired-ar`` do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from evalcore.metric import ErrorRecord, InputLimits, Metric, Score
from evalcore.metric.base import Result
from evalcore.metric.batch import score_with
from mteval.baselines import SufficientStatistics
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

    @property
    def failed(self) -> int:
        """Lines some metric could not score."""
        return sum(not all(r.ok for r in row.values()) for row in self.segments)


def score_systems(systems: dict[tuple[str, str], list[Segment]], metrics: Sequence[Metric], jobs: int = 1,
                  limits: InputLimits | None = None, progress: bool = True) -> list[SystemResult]:
    """Score every system's segments with every metric; unscorable lines get error records. Items
    are scored line by line across systems, so each reference set is preprocessed once."""
    keys = list(systems)
    n_lines = len(next(iter(systems.values())))
    order = [(s, k) for k in range(n_lines) for s in range(len(keys)) if systems[keys[s]][k].item is not None]
    items = [systems[keys[s]][k].item for s, k in order]
    scored = score_with(metrics, items, jobs=jobs, progress=progress, limits=limits, unit="segment",
                        key=lambda item: item.references)
    rows: list[list[dict[str, Result] | None]] = [[None] * n_lines for _ in keys]
    for (s, k), result in zip(order, scored):
        rows[s][k] = result
    out = []
    for s, (name, path) in enumerate(keys):
        for k, seg in enumerate(systems[(name, path)]):
            if rows[s][k] is None:
                rows[s][k] = {m.name: ErrorRecord(f"{path}:{k + 1}", m.name, seg.error) for m in metrics}
        result = SystemResult(name, path, rows[s])  # type: ignore[arg-type]
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
        scores = [r.segments[k][metric.name] for k in common]
        if isinstance(metric, SufficientStatistics):
            per_system[r.name] = metric.statistics(scores)
        else:
            per_system[r.name] = np.array([s.value for s in scores], dtype=float)
    aggregate = metric.corpus_from_statistics if isinstance(metric, SufficientStatistics) else None
    return per_system, aggregate, common


def significance(metrics: Sequence[Metric], results: Sequence[SystemResult], test: str, n_samples: int | None,
                 seed: int) -> dict[str, dict]:
    """{metric: {"test", "baseline", "segments", "systems": {system: PairedTest dict}}}: every
    system against the first, on the lines all systems have scored, with the same resamples."""
    from evalcore.significance import DEFAULT_SAMPLES, compare_to_baseline

    out = {}
    for metric in metrics:
        per_system, aggregate, common = paired_inputs(metric, results)
        entry = {"test": test, "baseline": results[0].name, "segments": len(common),
                 "n_samples": n_samples or DEFAULT_SAMPLES[test], "seed": seed}
        if not common:
            entry["error"] = "no line was scored for every system"
        else:
            tests = compare_to_baseline(per_system, results[0].name, test, aggregate, n_samples, seed)
            entry["systems"] = {name: t.as_dict() for name, t in tests.items()}
        out[metric.name] = entry
    return out
