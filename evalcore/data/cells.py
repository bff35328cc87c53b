"""Scores and judgments as (system, input) cells, whatever file holds them: mt-metrics-eval's
``.seg.score`` files and MQM ``avg_seg_scores.tsv`` files (:mod:`evalcore.data.mtme`; inputs are
segment numbers), TAC manual files (:mod:`evalcore.data.tac_manual`), RoSE records
(:mod:`evalcore.data.rose`), SummEval's JSON (its expert judgments), the JSON of
``summeval score --format json`` (inputs are topics) or of ``mteval score --format json
--segments`` (inputs are line numbers), or a plain TSV/CSV/JSONL table with a ``system`` column,
an input column (the first of :data:`INPUT_FIELDS` present) and one column per metric or human
dimension. The reader behind ``aesop-eval meta-evaluate``; every malformed row is an error naming it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.data.human import read_judgments
from evalcore.data.mtme import SegScores, is_avg_seg_scores, read_avg_seg_scores, read_seg_scores
from evalcore.data.rose import is_rose, read_rose
from evalcore.data.scores import read_score_json
from evalcore.data.tac_manual import is_tac_manual, read_tac_manual
from evalcore.io.textfiles import InputError, read_text, split_lines

#: names of the column that says which input (document, segment) a row scores
INPUT_FIELDS = ("input", "topic", "doc_id", "document", "item", "line", "seg_id", "segment")
#: the columns where the score commands write an item's error messages (never a metric)
ERROR_COLUMNS = ("error", "errors")

Key = tuple[str, str]  # (system, input)


@dataclass(frozen=True)
class Cells:
    """{column: {(system, input): value}} of one file, its column names in order, the name of
    its input column, the signatures a score file carries and the columns of a table that hold
    text, not numbers (ignored). A metric column without a single value (every cell blank or an
    error; in a score file's JSON, a metric its signatures name that no row scored) is kept, empty."""

    values: dict[str, dict[Key, float]]
    columns: tuple[str, ...]
    input_field: str
    signatures: dict
    ignored: tuple[str, ...] = ()


def _is_json_document(text: str) -> dict | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return None  # JSON Lines: one object per line
    return doc if isinstance(doc, dict) else None


def read_cells(path: str | Path) -> Cells:
    """The cells of a score or judgment file (see the module docstring)."""
    path = Path(path)
    if path.name.endswith(".seg.score"):
        return _seg_cells(path.name[:-len(".seg.score")], read_seg_scores(path), "line")
    if is_avg_seg_scores(path):
        return _seg_cells("mqm", read_avg_seg_scores(path), "seg_id")
    if is_tac_manual(path):
        return _named_cells(read_tac_manual(path), "topic")
    if path.suffix.lower() in (".json", ".jsonl") and is_rose(path):
        return _named_cells(read_rose(path), "example_id")
    text = read_text(path)
    doc = _is_json_document(text)
    if doc is not None and ("summaries" in doc or "segments" in doc):
        if "summaries" in doc:
            rows, sigs = read_score_json(path, "summeval score --format json", "summaries", "summary",
                                         {"topic": str, "system": str})
            keyed = {(system, topic): row.scores for (topic, system), row in rows.items()}
            field = "topic"
        else:
            rows, sigs = read_score_json(path, "mteval score --format json --segments", "segments", "segment",
                                         {"system": str, "line": int})
            keyed = {(system, str(line)): row.scores for (system, line), row in rows.items()}
            field = "line"
        columns = tuple(dict.fromkeys([*sigs, *(n for scores in keyed.values() for n in scores)]))
        values = {c: {k: s[c] for k, s in keyed.items() if c in s} for c in columns}
        return Cells(values, columns, field, sigs)
    if doc is not None and doc and all(isinstance(v, dict) and "sys_summs" in v for v in doc.values()):
        return _summeval_judgments(path)
    if doc is not None:
        raise InputError(f"{path}: a JSON document without a \"summaries\" or \"segments\" list (write score files "
                         "with `summeval score --format json` or `mteval score --format json --segments`, or "
                         "give a TSV/JSONL table)")
    field = _input_field(path, text)
    judged = read_judgments(path, keys=("system", field), ignore_text_columns=True, default_format="tsv",
                            error_cells=True)
    empty = tuple(c for c in judged.empty if c not in ERROR_COLUMNS)
    values = {c: {k: row[c] for k, row in judged.values.items() if c in row} for c in judged.dimensions}
    values.update((c, {}) for c in empty)
    return Cells(values, (*judged.dimensions, *empty), field, {},
                 tuple(c for c in judged.ignored if c not in (*empty, *ERROR_COLUMNS)))


def _named_cells(values: dict[str, dict[Key, float]], field: str) -> Cells:
    return Cells(values, tuple(values), field, {})


def _seg_cells(name: str, scores: SegScores, field: str) -> Cells:
    """Cells of an mt-metrics-eval ``.seg.score`` file (named after the file, a leading language
    pair dropped: ``en-de.mqm`` -> ``mqm``) or of an MQM ``avg_seg_scores.tsv`` file (``mqm``)."""
    head, _, rest = name.partition(".")
    if rest and re.fullmatch(r"[a-z]{2,3}-[a-z]{2,3}", head):
        name = rest
    return Cells({name: {(system, str(seg)): v for (system, seg), v in scores.items()}}, (name,), field, {})


def _summeval_judgments(path: Path) -> Cells:
    """The expert judgments of SummEval's JSON (``summeval_16sys_mean_expert.json``), topics as inputs."""
    from evalcore.data.summeval import read_summeval

    items = read_summeval(path)
    columns = tuple(dict.fromkeys(d for item in items for d in (item.human or {})))
    values = {c: {(i.system, i.topic): i.human[c] for i in items if i.human and c in i.human} for c in columns}
    return Cells(values, columns, "topic", {})


def _input_field(path: Path, text: str) -> str:
    """The input column a TSV/CSV header or the first JSON Lines object names."""
    first = next((line for line in split_lines(text) if line.strip()), "")
    if first.lstrip().startswith("{"):
        try:
            fields = list(json.loads(first))
        except (json.JSONDecodeError, TypeError):
            raise InputError(f"{path}:1: not a JSON object") from None
    else:
        fields = [f.strip() for f in re.split("[\t,]", first)]
    found = next((f for f in INPUT_FIELDS if f in fields), None)
    if "system" not in fields or found is None:
        raise InputError(f"{path}:1: a score or judgment table needs a \"system\" column and an input column "
                         f"({', '.join(INPUT_FIELDS)}); found {', '.join(fields) or 'nothing'}")
    return found


def natural_key(key: str) -> tuple:
    """A sort key that orders the decimal runs of a name by value ("s2" before "s10"), then by the
    name itself (so "s01" and "s1" keep one order). A run is what ``\\d`` matches: Unicode decimal
    digits (category Nd, ``str.isdecimal``), which ``int`` reads; digit-like characters that are not
    decimal ("①", "²") stay text."""
    parts = re.split(r"(\d+)", key)
    return (tuple(int(p) if k % 2 else p for k, p in enumerate(parts)), key)


@dataclass(frozen=True)
class Matrices:
    """Metric and human (systems x inputs) matrices, NaN where a cell is missing, on the systems
    and inputs the humans judged; the counts say which cells only one side has."""

    systems: list[str]
    inputs: list[str]
    human: np.ndarray
    metrics: dict[str, np.ndarray]
    unjudged: dict[str, int]
    unscored: dict[str, int]


def align(metrics: dict[str, dict[Key, float]], human: dict[Key, float]) -> Matrices:
    """Matrices over the judged systems and inputs (naturally sorted); per metric, how many of its
    cells have no judgment (``unjudged``) and how many judged cells it did not score (``unscored``)."""
    systems = sorted({s for s, _ in human}, key=natural_key)
    inputs = sorted({i for _, i in human}, key=natural_key)
    row = {s: k for k, s in enumerate(systems)}
    col = {i: k for k, i in enumerate(inputs)}

    def matrix(cells: dict[Key, float]) -> np.ndarray:
        out = np.full((len(systems), len(inputs)), np.nan)
        for (s, i), v in cells.items():
            if s in row and i in col:
                out[row[s], col[i]] = v
        return out

    return Matrices(systems, inputs, matrix(human), {n: matrix(c) for n, c in metrics.items()},
                    {n: sum(k not in human for k in c) for n, c in metrics.items()},
                    {n: sum(k not in c for k in human) for n, c in metrics.items()})
