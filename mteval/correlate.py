"""`mteval correlate`: a user's own human judgments against the scores of `mteval score`.

Judgments are a TSV/CSV file with a header, or JSON Lines (:mod:`evalcore.data.human`, the reader
of every correlate command): ``system``, a segment column (``line``, ``seg_id`` or ``segment``:
1-based line numbers) and one column per judgment -> segment-level
correlations (no grouping; per segment across systems; per system from segment means), via
:func:`evalcore.stats.correlation.correlation_table`. Without a segment column the judgments are
system scores -> system-level correlations of each metric's corpus score (as the metric
computes it: summed statistics for BLEU/chrF/TER), with CIs from resampling segments.
Metrics where lower is better (TER) are negated, so a positive correlation always means agreement.
With ``--statistic``, the output is the leaderboard of `aesop-eval meta-evaluate` instead (the
same code: :func:`leaderboard_files`).

Nothing is dropped in silence: judgments without scores (a line outside the scored range, a line
no metric scored) and scored segments without judgments are counted on stderr and in the JSON
(``--strict`` refuses them); a column without a single number (an annotator, a comment) is not a
judgment and is ignored with a note; a correlation over fewer than 3 points or against constant
scores is reported as undefined, without a number.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evalcore.cli.convention import strict_json
from evalcore.cli.meta_evaluate import Board, board
from evalcore.data.human import Judgments
from evalcore.data.human import read_judgments as read_keyed_judgments
from evalcore.data.scores import read_score_json
from evalcore.io.tables import HEADLINE, SHORT, interval, table
from evalcore.io.textfiles import InputError
from evalcore.metric import Score
from evalcore.metric.registry import get_metric, lower_is_better
from evalcore.stats.correlation import correlation_table, mark_undefined, matrices, undefined_reason
from evalcore.stats.leaderboard import Settings
from evalcore.stats.resampling import check_resamples
from mteval.metaeval import corpus_statistics, system_correlations

SEGMENT_COLUMNS = ("line", "seg_id", "segment")
#: what each grouping of a segment-level table means for MT
SEGMENT_GROUPINGS = {"none": "segment level, all (segment, system) pairs pooled",
                     "item": "segment level, per segment across systems, averaged over segments",
                     "system": "system level (mean of segment scores and of judgments)"}


def read_judgments(path: Path) -> Judgments:
    """Segment judgments ((system, line) -> {dimension: value}) or system judgments ((system,) ->
    ...) from TSV (``.tsv``), JSON Lines (``.jsonl``) or CSV (any other suffix); a column without
    a single number is not a judgment and is ignored."""
    return read_keyed_judgments(path, keys=("system",), index=SEGMENT_COLUMNS, ignore_text_columns=True,
                                default_format="csv")


def read_scored(path: Path) -> tuple[dict[str, dict[int, dict[str, Score]]], dict]:
    """{system: {line: {metric: Score}}} and the signatures of `mteval score --format json --segments`."""
    rows, signatures = read_score_json(path, "mteval score --format json --segments", "segments", "segment",
                                       {"system": str, "line": int}, hint="score with --segments")
    out: dict[str, dict[int, dict[str, Score]]] = {}
    for (system, line), row in rows.items():
        out.setdefault(system, {})[line] = {m: Score(v, row.components.get(m, {})) for m, v in row.scores.items()}
    return out, signatures


@dataclass(frozen=True)
class Rendered:
    text: str
    signatures: list[str]
    #: what stderr must say (ignored columns, unmatched judgments)
    messages: list[str] = field(default_factory=list)
    #: whether a metric has no value at all (every segment an error): exit 1
    incomplete: bool = False


@dataclass(frozen=True)
class SegmentMatch:
    """Judged and scored (system, line) segments: matched, judged but unscored (outside the scored
    lines, or no metric scored the line) and scored but unjudged."""

    matched: list[tuple[str, int]]
    out_of_range: list[tuple[str, int]]
    unscored: list[tuple[str, int]]
    unjudged: list[tuple[str, int]]
    n_lines: dict[str, int]

    def counts(self) -> dict[str, int]:
        return {"matched": len(self.matched), "only_human": len(self.out_of_range) + len(self.unscored),
                "out_of_range": len(self.out_of_range), "unscored": len(self.unscored),
                "only_scored": len(self.unjudged)}

    def summary(self) -> str:
        """One line for stderr, with an example of each kind of unmatched segment."""
        def example(keys, why=""):
            return f" (e.g. {keys[0][0]} line {keys[0][1]}{why(keys[0]) if why else ''})" if keys else ""
        outside = example(self.out_of_range, lambda k: f": the scores have lines 1-{self.n_lines.get(k[0], 0)}")
        return (f"{len(self.matched)} judged segments matched; {len(self.out_of_range)} judgments outside the "
                f"scored lines{outside}; {len(self.unscored)} judgments of lines no metric scored"
                f"{example(self.unscored)}; {len(self.unjudged)} scored segments without judgments"
                f"{example(self.unjudged)}")

    @property
    def complete(self) -> bool:
        return not (self.out_of_range or self.unscored or self.unjudged)


def match_segments(scored, human: Judgments) -> SegmentMatch:
    """Split judged and scored segments into matched and unmatched (sorted)."""
    judged = sorted((s, k) for s, k in human.values if k is not None)  # segment-level rows name a line each
    n_lines = {s: max(lines, default=0) for s, lines in scored.items()}
    out_of_range = [(s, k) for s, k in judged if k not in scored[s]]
    unscored = [(s, k) for s, k in judged if k in scored[s] and not scored[s][k]]
    matched = [(s, k) for s, k in judged if scored[s].get(k)]
    systems = {s for s, _ in judged}
    unjudged = sorted((s, k) for s in systems for k, row in scored[s].items() if row and (s, k) not in human.values)
    return SegmentMatch(matched, out_of_range, unscored, unjudged, n_lines)


def correlate_files(scores_path: Path, human_path: Path, fmt: str, n_boot: int, seed: int,
                    strict: bool = False) -> Rendered:
    """Correlate the scores with the judgments; the rendered table or JSON, the signatures and
    the messages for stderr. ``strict``: unmatched judgments or segments are an InputError."""
    scored, signatures = read_scored(scores_path)
    human = read_judgments(human_path)
    messages = [f"column {c!r} of {human_path} holds no number: ignored (not a judgment)" for c in human.ignored]
    if human.missing_note():
        messages.append(f"{human_path}: {human.missing_note()}")
    shorts = [s["short"] if isinstance(s, dict) else str(s) for s in signatures.values()]
    names = sorted({m for lines in scored.values() for row in lines.values() for m in row})
    unscored = sorted(set(signatures) - set(names))  # metrics that scored no segment
    messages += [f"{name}: no segment has a score (every one is an error): undefined" for name in unscored]
    missing = sorted({k[0] for k in human.values} - set(scored))
    if missing:
        raise InputError(f"{human_path}: system {missing[0]!r} has no scores in {scores_path} "
                         f"(systems there: {', '.join(scored)})")
    try:
        check_resamples(n_boot, len(scored), max((len(lines) for lines in scored.values()), default=0))
    except ValueError as exc:
        raise InputError(f"--bootstrap: {exc}") from None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # undefined correlations are reported as such
        if human.index:
            match = match_segments(scored, human)
            messages.append(("warning: " if match.out_of_range else "") + match.summary())
            if strict and not match.complete:
                raise InputError(f"--strict: {match.summary()}")
            result = _segment_level(scored, human, names, n_boot, seed, match)
            body = _markdown(result["correlations"])
        else:
            result = _system_level(scored, human, names, n_boot, seed)
            messages += [f"warning: {name}: {system}'s corpus score is incomplete ({why}): left out of the "
                         "system-level correlation" for name, by_system in result.get("left_out", {}).items()
                         for system, why in by_system.items()]
            rows = [[m, d, *(_entry(c) for c in by_kind.values())]
                    for d, by_metric in result["correlations"].items() for m, by_kind in by_metric.items()]
            body = table(["metric", "judgment", "pearson", "spearman", "kendall"], rows) + "\n"
    lower = [m for m in names if lower_is_better(m)]
    note = (f"\n{result['segments']} segments x {result['systems']} systems; bootstrap {n_boot} resamples of "
            f"segments, seed {seed}\n" + (f"lower is better (negated, so a positive correlation means agreement): "
                                          f"{', '.join(lower)}\n" if lower else ""))
    result.update({k: v for k, v in (("lower_is_better", lower), ("unscored_metrics", unscored)) if v})
    result["signature"] = signatures
    return Rendered(strict_json(result) + "\n" if fmt == "json" else body + note, shorts, messages, bool(unscored))


def leaderboard_files(scores_path: Path, human_path: Path, settings: Settings, dimensions: list[str] | None,
                      strict: bool, prog: str) -> tuple[list[Board], dict, list[str]]:
    """``mteval correlate --statistic``: the leaderboards of `aesop-eval meta-evaluate` (same code), one
    per judgment column, segments as inputs, each metric oriented by its facts; the boards, the
    signatures and the messages for stderr."""
    scored, signatures = read_scored(scores_path)
    human = read_judgments(human_path)
    messages = [f"column {c!r} of {human_path} holds no number: ignored (not a judgment)" for c in human.ignored]
    if not human.index:
        raise InputError(f"{human_path}: --statistic needs segment judgments (a line, seg_id or segment column); "
                         "system judgments alone have no inputs to resample")
    missing = sorted({k[0] for k in human.values} - set(scored))
    if missing:
        raise InputError(f"{human_path}: system {missing[0]!r} has no scores in {scores_path}")
    match = match_segments(scored, human)
    messages.append(("warning: " if match.out_of_range else "") + match.summary())
    if strict and not match.complete:
        raise InputError(f"--strict: {match.summary()}")
    dims = dimensions or list(human.dimensions)
    for d in dims:
        if d not in human.dimensions:
            raise InputError(f"--dimension {d!r}: {human_path} has {', '.join(human.dimensions)}")
    names = sorted({m for lines in scored.values() for row in lines.values() for m in row} | set(signatures))
    metrics = {m: {(system, str(line)): row[m].value for system, lines in scored.items()
                   for line, row in lines.items() if m in row} for m in names}
    boards = [board(metrics, {(system, str(line)): v[d] for (system, line), v in human.values.items() if d in v},
                    d, settings, prog) for d in dims]
    return boards, signatures, messages


def _entry(c: dict) -> str:
    """One correlation with its interval, or why it is undefined."""
    if c.get("undefined"):
        return c["undefined"]
    return f"{c['value']:.3f} {interval(c)}"


def _markdown(correlations: dict) -> str:
    """One table per grouping, headed by what the grouping means for MT segments."""
    out = []
    for grouping, by_dim in correlations.items():
        head = HEADLINE[grouping]
        dims = list(by_dim)
        out.append(f"**{SEGMENT_GROUPINGS[grouping]}** (r · ρ · τ; CI: 95% bootstrap of {SHORT[head]})\n")
        rows = []
        for name in next(iter(by_dim.values())):
            cells = []
            for d in dims:
                entry = by_dim[d][name]
                if entry[head].get("undefined"):
                    cells.append(entry[head]["undefined"])
                    continue
                parts = " · ".join(f"{SHORT[k]} {entry[k]['value']:.3f}" if entry[k].get("value") is not None
                                   else f"{SHORT[k]} -" for k in ("pearson", "spearman", "kendall"))
                cells.append(f"{parts} {interval(entry[head], SHORT[head])}")
            rows.append([name, *cells])
        out += [table(["metric", *dims], rows), ""]
    return "\n".join(out)


def _segment_level(scored, human: Judgments, names, n_boot: int, seed: int, match: SegmentMatch) -> dict:
    sign = {m: -1.0 if lower_is_better(m) else 1.0 for m in names}
    records = {(str(line), system): {m: sign[m] * s.value for m, s in scored[system][line].items()}
               for system, line in match.matched}
    keys = list(records)
    if not keys:
        raise InputError("no judged (system, line) has scores: do the line numbers match the scored files?")
    lines = sorted({t for t, _ in keys}, key=int)
    systems = sorted({s for _, s in keys})
    metric_m = matrices(records, names, lines, systems)
    human_m = matrices({(str(line), s): v for (s, line), v in human.values.items()}, human.dimensions, lines, systems)
    corr = correlation_table(metric_m, human_m, n_boot, seed, groupings=("none", "item", "system"))
    sizes = {"none": (len(keys), "judged segments"), "item": (len(systems), "systems"),
             "system": (len(systems), "systems")}
    return {"level": "segment", "segments": len(lines), "systems": len(systems), "pairs": match.counts(),
            "correlations": mark_undefined(corr, sizes)}


def _system_level(scored, human: Judgments, names, n_boot: int, seed: int) -> dict:
    """Corpus scores against system judgments; a system whose corpus score for a metric is
    incomplete (lines the metric did not score) is left out of that metric's correlations and
    named in ``left_out``."""
    systems = sorted(s for (s,) in human.values)
    lines = sorted(set.intersection(*(set(scored[s]) for s in systems)))
    partial = {name: {s: f"scored {sum(name in scored[s][k] for k in lines)} of {len(lines)} lines"
                      for s in systems if any(name not in scored[s][k] for k in lines)} for name in names}
    out: dict = {}
    for dim in human.dimensions:
        out[dim] = {}
        for name in names:
            judged = [s for s in systems if dim in human.values[(s,)] and s not in partial[name]]
            h = np.array([[human.values[(s,)][dim] for s in judged]])
            stats = corpus_statistics(get_metric(name), [[scored[s][k].get(name) for k in lines] for s in judged])
            corr, _, _ = system_correlations(stats, np.repeat(h, len(lines), axis=0),
                                             np.ones((len(lines), len(judged))), n_boot, seed)
            out[dim][name] = {}
            for kind, c in corr.items():
                reason = undefined_reason(len(judged), "systems", c.value)
                out[dim][name][kind] = ({"value": None, "ci_low": None, "ci_high": None, "undefined": reason}
                                        if reason else c.as_dict())
    left_out = {name: by_system for name, by_system in partial.items() if by_system}
    return {"level": "system", "segments": len(lines), "systems": len(systems), "correlations": out,
            **({"left_out": left_out} if left_out else {})}
