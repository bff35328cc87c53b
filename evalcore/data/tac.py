"""TAC / AESOP folder layout: a models folder and a peers folder of plain-text summaries.

File names follow TAC's ``D1101-A.M.100.A.<id>``: the topic is the part before the first dot,
the summarizer id the last dot-separated field. Model (human) summaries have letter ids, peers
numeric ones. Every peer is scored against all models of its topic; with ``include_models``,
every model is also scored against the other models of its topic (to compare humans with
machines, use the jackknife multi-reference mode for both). Hidden files (``.DS_Store``) are
ignored; anything else that does not fit is an error, so no summary is left out unnoticed.

Files are read by the input rule (:mod:`evalcore.io.textfiles`). An empty peer file is read as an empty
summary and an undecodable or binary one as an unreadable one: each metric gives it an error
record naming it and the run goes on, as for a bad line in JSONL. A model file that is empty once
cleaned, undecodable, binary or over the size cap stops the run with its topic and name, since
every peer of the topic would be scored against it.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from evalcore.data.records import SummaryItem, check_unique, read_text_file
from evalcore.io.textfiles import InputError, read_item_text, shown


def parse_tac_name(path: Path) -> tuple[str, str]:
    """(topic, summarizer id) from a TAC file name, bytes that are not UTF-8 as backslash escapes
    (:func:`~evalcore.io.textfiles.shown`); an error names the file if it does not fit."""
    parts = shown(path.name).split(".")
    if len(parts) < 2 or not parts[0] or not parts[-1]:
        raise InputError(f"{path}: file name does not follow TAC's TOPIC.M.100.A.ID form")
    return parts[0], parts[-1]


def _summary_files(folder: Path, role: str) -> list[Path]:
    if not folder.is_dir():
        raise InputError(f"{folder}: {role} folder does not exist")
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))  # skip .DS_Store and the like
    stray = [p for p in entries if not p.is_file()]
    if stray:
        raise InputError(f"{stray[0]}: not a summary file ({role} folders hold only summary files)")
    if not entries:
        raise InputError(f"{folder}: {role} folder holds no summary files")
    return entries


def read_tac(models_dir: str | Path, peers_dir: str | Path, include_models: bool = False,
             max_chars: int | None = None) -> list[SummaryItem]:
    """Items for every peer (and optionally every model) of a TAC-layout corpus; ``max_chars``:
    the size cap a model summary must meet."""
    models: dict[str, list[tuple[str, str, Path]]] = defaultdict(list)
    for path in _summary_files(Path(models_dir), "models"):
        topic, mid = parse_tac_name(path)
        if mid.isdigit():
            raise InputError(f"{path}: model summaries have letter ids, found numeric id '{mid}'")
        twin = next((p for m, _, p in models[topic] if m == mid), None)
        if twin is not None:
            raise InputError(f"duplicate model summary for topic '{topic}', id '{mid}': {twin} and {path}")
        models[topic].append((mid, read_text_file(path, topic, max_chars), path))
    items: list[SummaryItem] = []
    for path in _summary_files(Path(peers_dir), "peers"):
        topic, pid = parse_tac_name(path)
        if not pid.isdigit():
            raise InputError(f"{path}: peer summaries have numeric ids, found '{pid}' (is it a model summary?)")
        if topic not in models:
            raise InputError(f"{path}: topic '{topic}' has no model summaries in {models_dir}")
        refs = tuple(text for _, text, _ in models[topic])
        items.append(SummaryItem(topic, pid, read_item_text(path), refs, shown(path)))
    if include_models:
        for topic, entries in models.items():
            if len(entries) < 2:
                raise InputError(f"topic '{topic}' has one model summary ({entries[0][2]}): scoring models "
                                 "against the other models needs at least two")
            for mid, text, path in entries:
                refs = tuple(t for other, t, _ in entries if other != mid)
                items.append(SummaryItem(topic, mid, text, refs, shown(path)))
    check_unique(items)
    return items
