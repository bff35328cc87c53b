"""Judged MT sets in the layouts the field distributes them in.

mt-metrics-eval's evaluation sets (``<root>/<test set>/``): ``sources/<lp>.txt``,
``references/<lp>.<ref>.txt``, ``system-outputs/<lp>/<system>.txt`` (one segment a line),
``human-scores/<lp>.<name>.seg.score`` and ``.sys.score``, and ``metric-scores/<lp>/<metric>-<ref>.seg.score``.
A ``.seg.score`` line is ``system score``: each system's lines give its segments in order (the
k-th line of a system is segment k, 1-based); a ``.sys.score`` line is ``system score``. ``None``
is a missing score. Google's wmt-mqm-human-evaluation ``*.avg_seg_scores.tsv`` files have a header
``system mqm_avg_score seg_id`` and name the segment on each row. Fields are split on any
whitespace (the upstream files mix tabs and spaces). A malformed line, a non-finite score or a
second score for a key is an error naming ``file:line``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError, read_text, split_lines

SegScores = dict[tuple[str, int], float]  # (system, 1-based segment) -> score; missing ones absent
AVG_SEG_HEADER = ["system", "mqm_avg_score", "seg_id"]


def _score(text: str, path: Path, number: int) -> float | None:
    if text == "None":
        return None
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{path}:{number}: score {text!r} is not a number (None marks a missing one)") from None
    if not math.isfinite(value):
        raise InputError(f"{path}:{number}: score {text!r} is not finite")
    return value


def _lines(path: Path, fields: int) -> list[tuple[int, list[str]]]:
    out = []
    for number, line in enumerate(split_lines(read_text(path)), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != fields:
            raise InputError(f"{path}:{number}: expected {fields} whitespace-separated fields, got {len(parts)}")
        out.append((number, parts))
    return out


def read_seg_scores(path: str | Path) -> SegScores:
    """An mt-metrics-eval ``.seg.score`` file: (system, segment) -> score."""
    path = Path(path)
    out: SegScores = {}
    position: dict[str, int] = {}
    for number, (system, text) in _lines(path, 2):
        position[system] = position.get(system, 0) + 1
        value = _score(text, path, number)
        if value is not None:
            out[(system, position[system])] = value
    if not position:
        raise InputError(f"{path}: no scores")
    return out


def read_sys_scores(path: str | Path) -> dict[str, float]:
    """An mt-metrics-eval ``.sys.score`` file: system -> score (``None`` ones left out)."""
    path = Path(path)
    out: dict[str, float] = {}
    for number, (system, text) in _lines(path, 2):
        if system in out:
            raise InputError(f"{path}:{number}: a second score for system {system!r}")
        value = _score(text, path, number)
        if value is not None:
            out[system] = value
    return out


def read_avg_seg_scores(path: str | Path) -> SegScores:
    """A wmt-mqm-human-evaluation ``avg_seg_scores.tsv`` file: rated (system, segment) -> score."""
    path = Path(path)
    if not is_avg_seg_scores(path):
        raise InputError(f"{path}:1: expected the header '{' '.join(AVG_SEG_HEADER)}'")
    out: SegScores = {}
    for number, (system, text, segment) in _lines(path, 3)[1:]:
        try:
            key = (system, int(segment))
        except ValueError:
            raise InputError(f"{path}:{number}: segment id {segment!r} is not a whole number") from None
        value = _score(text, path, number)
        if value is None:
            continue
        if key in out:
            raise InputError(f"{path}:{number}: a second score for system {system!r}, segment {segment}")
        out[key] = value
    return out


def is_avg_seg_scores(path: str | Path) -> bool:
    """Whether a file starts with the avg_seg_scores header."""
    first = next((line for line in split_lines(read_text(path)) if line.strip()), "")
    return first.split() == AVG_SEG_HEADER


@dataclass(frozen=True)
class EvalSet:
    """One language pair of an mt-metrics-eval evaluation set: texts and scores as read."""

    name: str
    lp: str
    source: list[str]
    references: dict[str, list[str]]
    outputs: dict[str, list[str]]
    human_seg: dict[str, SegScores]
    human_sys: dict[str, dict[str, float]]
    metric_seg: dict[str, SegScores]


def _text_lines(path: Path) -> list[str]:
    text = read_text(path)
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def read_evalset(root: str | Path, lp: str) -> EvalSet:
    """The language pair ``lp`` of the evaluation set in ``root`` (e.g. ``.../wmt21.news``). Every
    output and reference must have as many lines as the source; a score for a segment beyond it
    is an error naming the file."""
    root = Path(root)
    source_path = root / "sources" / f"{lp}.txt"
    if not source_path.is_file():
        raise InputError(f"{root}: no sources/{lp}.txt (not an mt-metrics-eval evaluation set for {lp}?)")
    source = _text_lines(source_path)
    n = len(source)

    def checked(path: Path) -> list[str]:
        lines = _text_lines(path)
        if len(lines) != n:
            raise InputError(f"{path}: {len(lines)} lines, the source has {n}")
        return lines

    refs = {p.name[len(lp) + 1:-len(".txt")]: checked(p) for p in sorted((root / "references").glob(f"{lp}.*.txt"))}
    outputs = {p.stem: checked(p) for p in sorted((root / "system-outputs" / lp).glob("*.txt"))}

    def in_range(scores: SegScores, path: Path) -> SegScores:
        beyond = [k for k in scores if k[1] > n]
        if beyond:
            raise InputError(f"{path}: system {beyond[0][0]!r} has a score for segment {beyond[0][1]}; the source "
                             f"has {n}")
        return scores

    human_seg = {p.name[len(lp) + 1:-len(".seg.score")]: in_range(read_seg_scores(p), p)
                 for p in sorted((root / "human-scores").glob(f"{lp}.*.seg.score"))}
    human_sys = {p.name[len(lp) + 1:-len(".sys.score")]: read_sys_scores(p)
                 for p in sorted((root / "human-scores").glob(f"{lp}.*.sys.score"))}
    metric_seg = {p.name[:-len(".seg.score")]: in_range(read_seg_scores(p), p)
                  for p in sorted((root / "metric-scores" / lp).glob("*.seg.score"))}
    return EvalSet(root.name, lp, source, refs, outputs, human_seg, human_sys, metric_seg)
