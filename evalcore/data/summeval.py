"""SummEval (Fabbri et al. 2021) as released: the 16-system file with mean expert scores
(``summeval_16sys_mean_expert.json``) or the 12-system per-annotator JSONL folder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from evalcore.data.records import SummaryItem
from evalcore.io.textfiles import InputError, read_text, split_lines

DIMENSIONS = ("relevance", "coherence", "consistency", "fluency")


def read_summeval(path: str | Path, references: str = "all") -> list[SummaryItem]:
    """Items with human scores (mean of the expert annotators, plus their ``mean`` dimension).

    ``references``: ``"all"`` (the 11 references) or ``"original"`` (the first, CNN/DM's own).
    """
    if references not in ("all", "original"):
        raise ValueError(f"references must be 'all' or 'original', got {references!r}")
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: SummEval file or folder not found")
    items = _read_16sys(path) if path.is_file() else _read_12sys(path)
    if references == "original":
        items = [SummaryItem(i.topic, i.system, i.summary, i.references[:1], i.origin, i.human) for i in items]
    return items


def _with_mean(scores: dict[str, float]) -> dict[str, float]:
    return {**scores, "mean": float(np.mean([scores[d] for d in DIMENSIONS]))}


def _read_16sys(path: Path) -> list[SummaryItem]:
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a SummEval JSON file ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a SummEval JSON file (expected an object of documents)")
    items = []
    for doc_id in sorted(data):
        try:
            doc = data[doc_id]
            refs = tuple(doc["ref_summs"])
            for system in sorted(doc["sys_summs"], key=_system_order):
                entry = doc["sys_summs"][system]
                items.append(SummaryItem(doc_id, system, entry["sys_summ"], refs, f"{path}:{doc_id}:{system}",
                                         _with_mean({d: float(entry["scores"][d]) for d in DIMENSIONS})))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}: document {doc_id!r} is not in SummEval's format "
                             f"({type(exc).__name__}: {exc})") from None
    return items


def _read_12sys(folder: Path) -> list[SummaryItem]:
    files = sorted(folder.glob("*_outputs_annotations.jsonl"))
    if not files:
        raise InputError(f"{folder}: no *_outputs_annotations.jsonl files")
    items = []
    for file in files:
        system = file.name.split("_")[0]
        for number, line in enumerate(split_lines(read_text(file)), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                experts = obj["expert_annotations"]
                human = {d: float(np.mean([a[d] for a in experts])) for d in DIMENSIONS}
                items.append(SummaryItem(obj["id"], system, obj["decoded"], tuple(obj["references"]),
                                         f"{file}:{number}", _with_mean(human)))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise InputError(f"{file}:{number}: not a SummEval annotation line "
                                 f"({type(exc).__name__}: {exc})") from None
    return sorted(items, key=lambda i: (i.topic, _system_order(i.system)))


def _system_order(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name if ch.isdecimal())
    return (int(digits) if digits else -1, name)
