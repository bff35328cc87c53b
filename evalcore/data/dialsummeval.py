"""DialSummEval (Gao & Wan, NAACL 2022): 100 SAMSum chat dialogues x 14 summaries with three
expert annotators' 1-5 scores for coherence, consistency, fluency and relevance.

One of the 14 ``model_id`` values is SAMSum's own reference summary, judged like a system output.
It is identified from upstream's precomputed metrics (the reference scores 1.0 against itself in
``models_eval_new/<id>/metrics.csv``), used as the reference of the other 13 systems and kept out
of the systems. Upstream's metric files are in the order of ``models_eval_new/dials.txt``, not of
``human_judgment.jsonl``: every row is aligned by its dialogue and checked against the summary it
scores, so a shifted or reordered file is an error, never a silent mismatch.

Licence: SAMSum is CC BY-NC-ND 4.0 (research, non-commercial); a model trained on this set may
ship only as an opt-in variant that says so.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.data.records import SummaryItem
from evalcore.io.textfiles import InputError, jsonl_objects, read_text, split_lines

DIMENSIONS = ("coherence", "consistency", "fluency", "relevance")
LICENCE = ("DialSummEval (Gao & Wan 2022) over SAMSum dialogues and summaries: CC BY-NC-ND 4.0, "
           "research and non-commercial use; the annotations carry no licence upstream")
# Upstream's precomputed neural anchors: name -> column of models_eval_new/<id>/metrics.csv.
# BARTScore s->h (dialogue -> summary) is the reference-free variant used for coherence in
# BARTScore's and G-Eval's papers; BERTScore is F1 against the reference.
ANCHORS = {"bartscore": "bartscore_s_h", "bertscore": "bertscore_f1", "moverscore": "moverscore"}
# Columns that equal 1.0 when a summary is scored against itself: how the reference is found.
_SELF_COLUMNS = ("rouge-1", "rouge-2", "rouge-l", "bertscore_f1")
_SELF_TOLERANCE = 1e-6


@dataclass(frozen=True)
class DialSummEvalSet:
    """The judged summaries of the 13 systems (``items``), the judged reference summaries
    (``reference_items``, one per dialogue), the dialogues by id, upstream's metric values aligned
    to ``items`` (``anchors``: name -> array), and the reference's ``model_id``."""

    items: tuple[SummaryItem, ...]
    reference_items: tuple[SummaryItem, ...]
    reference_system: str
    dialogues: dict[str, str]
    anchors: dict[str, np.ndarray]
    licence: str = LICENCE

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(i.system for i in self.items))

    @property
    def topics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(i.topic for i in self.items))


def normalise(text: str) -> str:
    """Whitespace-collapsed text: how rows of upstream's files are matched to the judgments."""
    return " ".join(text.split())


def dialogue_text(dialogue: str) -> str:
    """The dialogue with one turn per line (upstream separates turns by ``|``)."""
    return "\n".join(t.strip() for t in dialogue.split("|") if t.strip())


def _annotation_means(obj: dict, where: str) -> dict[str, float]:
    """Mean of the annotators per dimension, plus ``mean`` of the four; bad values name the line."""
    annotations = obj.get("annotations")
    if not isinstance(annotations, list) or not annotations:
        raise InputError(f"{where}: no annotations")
    out = {}
    for dim in DIMENSIONS:
        try:
            values = [float(a[dim]) for a in annotations]
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{where}: every annotation needs a numeric {dim!r}") from None
        if not all(math.isfinite(v) for v in values):
            raise InputError(f"{where}: non-finite {dim} score {values}")
        out[dim] = float(np.mean(values))
    out["mean"] = float(np.mean([out[d] for d in DIMENSIONS]))
    return out


def read_judgments(path: Path) -> list[tuple[SummaryItem, str]]:
    """Every judged summary of ``human_judgment.jsonl`` (references still unset) with its dialogue."""
    out = []
    seen: dict[tuple[str, str], str] = {}
    for where, obj in jsonl_objects(read_text(path), path):
        missing = [k for k in ("id", "dialogue", "summary", "model_id") if not isinstance(obj.get(k), str)]
        if missing:
            raise InputError(f"{where}: missing or non-string field(s) {', '.join(missing)}")
        item = SummaryItem(obj["id"], obj["model_id"], obj["summary"], (), where, _annotation_means(obj, where))
        if item.key in seen:
            raise InputError(f"{where}: second summary of dialogue {item.topic} by {item.system} "
                             f"(first at {seen[item.key]})")
        seen[item.key] = where
        out.append((item, obj["dialogue"]))
    if not out:
        raise InputError(f"{path}: no judgments")
    return out


def _lines(path: Path) -> list[str]:
    if not path.is_file():
        raise InputError(f"{path}: not found (upstream's models_eval_new folder is incomplete)")
    return split_lines(read_text(path))


def _metric_rows(folder: Path, model: str) -> list[dict[str, str]]:
    path = folder / model / "metrics.csv"
    if not path.is_file():
        raise InputError(f"{path}: not found (upstream's models_eval_new folder is incomplete)")
    return list(csv.DictReader(read_text(path).splitlines()))


def align_rows(folder: Path, judged: list[tuple[SummaryItem, str]]) -> dict[tuple[str, str], int]:
    """Row of each judged summary in upstream's per-model files: its dialogue's line in
    ``dials.txt``, checked against the model's ``summs.txt`` line and ``metrics.csv`` length."""
    by_dialogue: dict[str, str] = {}
    for item, dialogue in judged:
        if by_dialogue.setdefault(item.topic, normalise(dialogue)) != normalise(dialogue):
            raise InputError(f"{item.origin}: dialogue {item.topic} differs from its other summaries' dialogue")
    row_of_text: dict[str, int] = {}
    for row, text in enumerate(_lines(folder / "dials.txt")):
        row_of_text.setdefault(normalise(text), row)
    rows = {}
    for topic, text in by_dialogue.items():
        if text not in row_of_text:
            raise InputError(f"{folder / 'dials.txt'}: dialogue {topic} is not in the file")
        rows[topic] = row_of_text[text]
    summaries: dict[str, list[str]] = {}
    n_metric_rows: dict[str, int] = {}
    out = {}
    for item, _ in judged:
        if item.system not in summaries:
            summaries[item.system] = _lines(folder / item.system / "summs.txt")
            n_metric_rows[item.system] = len(_metric_rows(folder, item.system))
        row = rows[item.topic]
        upstream = summaries[item.system]
        if row >= len(upstream) or normalise(upstream[row]) != normalise(item.summary):
            raise InputError(f"{folder / item.system / 'summs.txt'}:{row + 1}: does not hold the summary of "
                             f"{item.origin} (dialogue {item.topic}, model {item.system}): rows misaligned")
        if n_metric_rows[item.system] != len(upstream):
            raise InputError(f"{folder / item.system / 'metrics.csv'}: {n_metric_rows[item.system]} rows for "
                             f"{len(upstream)} summaries: rows misaligned")
        out[item.key] = row
    return out


def find_reference(folder: Path, judged: list[tuple[SummaryItem, str]],
                   rows: dict[tuple[str, str], int]) -> str:
    """The ``model_id`` that scores 1.0 against the reference in every dialogue. Per dialogue every
    model at 1.0 is a candidate (a system may copy the reference once); exactly one model must be
    a candidate in all dialogues."""
    metric_rows = {m: _metric_rows(folder, m) for m in dict.fromkeys(i.system for i, _ in judged)}
    candidates: dict[str, set[str]] = {}
    for item, _ in judged:
        row = metric_rows[item.system][rows[item.key]]
        try:
            is_self = all(abs(float(row[c]) - 1.0) <= _SELF_TOLERANCE for c in _SELF_COLUMNS)
        except (KeyError, ValueError):
            raise InputError(f"{folder / item.system / 'metrics.csv'}:{rows[item.key] + 2}: needs numeric "
                             f"{', '.join(_SELF_COLUMNS)}") from None
        candidates.setdefault(item.topic, set())
        if is_self:
            candidates[item.topic].add(item.system)
    common = set.intersection(*candidates.values())
    if len(common) != 1:
        no_ref = sorted(t for t, c in candidates.items() if not c)
        detail = f"dialogues without any: {', '.join(no_ref[:5])}" if no_ref else f"candidates {sorted(common)}"
        raise InputError(f"{folder}: cannot identify the reference model_id ({detail})")
    return common.pop()


def read_dialsummeval(folder: str | Path, anchors: dict[str, str] | None = None) -> DialSummEvalSet:
    """The DialSummEval set under ``folder`` (``human_judgment.jsonl`` + ``models_eval_new/``).

    Items are sorted by dialogue id then ``model_id``; their one reference is the reference
    model's summary of the same dialogue; ``human`` holds the mean of the three annotators per
    dimension and ``mean`` (the four dimensions' mean). ``anchors`` maps names to columns of
    upstream's ``metrics.csv`` (default :data:`ANCHORS`)."""
    folder = Path(folder)
    judgments = folder / "human_judgment.jsonl"
    upstream = folder / "models_eval_new"
    if not judgments.is_file():
        raise InputError(f"{judgments}: not found (DialSummEval lives in ../shared/data/dialsummeval)")
    judged = read_judgments(judgments)
    systems = sorted({i.system for i, _ in judged})
    topics = sorted({i.topic for i, _ in judged})
    have = {i.key for i, _ in judged}
    absent = [(t, s) for t in topics for s in systems if (t, s) not in have]
    if absent:
        raise InputError(f"{judgments}: {len(absent)} (dialogue, model) pairs have no judgment, e.g. {absent[0]}")
    rows = align_rows(upstream, judged)
    reference = find_reference(upstream, judged, rows)
    ref_text = {i.topic: i.summary for i, _ in judged if i.system == reference}
    dialogues = {i.topic: d for i, d in judged}

    def with_ref(item: SummaryItem) -> SummaryItem:
        return SummaryItem(item.topic, item.system, item.summary, (ref_text[item.topic],), item.origin, item.human)

    ordered = sorted((i for i, _ in judged), key=lambda i: (i.topic, i.system))
    items = tuple(with_ref(i) for i in ordered if i.system != reference)
    references = tuple(with_ref(i) for i in ordered if i.system == reference)
    columns = ANCHORS if anchors is None else anchors
    metric_rows = {m: _metric_rows(upstream, m) for m in systems if m != reference}
    values = {}
    for name, column in columns.items():
        try:
            values[name] = np.array([float(metric_rows[i.system][rows[i.key]][column]) for i in items])
        except KeyError:
            raise InputError(f"{upstream}: metrics.csv has no column {column!r} (anchor {name!r})") from None
    return DialSummEvalSet(items, references, reference, dialogues, values)
