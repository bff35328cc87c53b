"""JSONL input: one object per line with ``topic``, ``system``, ``summary``, ``references``.
``topic`` and ``system`` are strings (a number is refused: :func:`~evalcore.io.textfiles.json_id`);
``references`` is a list of strings, or one string for a single reference.

Optional ``human`` (an object of dimension -> score) is carried along for ``correlate``; optional
``lang`` (an ISO 639-1 code) is the summary's language, when it is not the command's ``--lang``. The file
is read by the input rule (:mod:`evalcore.io.textfiles`): a line whose bytes do not decode is read
for its topic and system and scored as unreadable (an error record naming file, line and the
encoding guess); the other summaries are scored.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from evalcore.data.records import SummaryItem, UniqueKeys, check_unique
from evalcore.io.sources import InputFile
from evalcore.io.textfiles import InputError, UnreadableText, json_id, jsonl_file_lines, jsonl_lines, read_bytes

_ISO_639_1 = re.compile(r"[a-z]{2}")


def read_jsonl(path: str | Path) -> list[SummaryItem]:
    """Items of a JSONL file (``-``: standard input); a malformed line is an error naming file and
    line. A summary that cannot be scored (empty, too long) is read as it is: each metric gives
    it an error record, so the run keeps every other summary."""
    path = Path("<stdin>") if str(path) == "-" else Path(path)
    data = sys.stdin.buffer.read() if path.name == "<stdin>" else read_bytes(path)
    items = [_item(where, obj, problem) for where, obj, problem in jsonl_lines(data, path)]
    if not items:
        raise InputError(f"{path}: no summaries in file")
    check_unique(items)
    return items


def iter_jsonl(file: InputFile | str | Path, source: str | Path | None = None) -> Iterator[SummaryItem]:
    """The items of a JSONL file one at a time, the file read a block at a time
    (:func:`~evalcore.io.textfiles.jsonl_file_lines`; ``source`` names it in messages, for a path).
    Each line is checked as :func:`read_jsonl` checks it; the whole-file checks (some summary,
    unique (topic, system)) are :func:`check_jsonl`'s. An :class:`~evalcore.io.sources.InputFile`
    read through before is read again as it was (a file that changed is an error naming it)."""
    file = as_input(file, source)
    with file.blamed():  # a line broken since the check is the file's change
        for where, obj, problem in jsonl_file_lines(file.lines(), file.name):
            yield _item(where, obj, problem)


def as_input(file: InputFile | str | Path, source: str | Path | None = None) -> InputFile:
    """``file`` as an :class:`~evalcore.io.sources.InputFile` named ``source`` (default: the path as
    pathlib spells it)."""
    if isinstance(file, InputFile):
        return file
    return InputFile(file, name=str(Path(file) if source is None else source))


@dataclass(frozen=True)
class JsonlSummary:
    """What :func:`check_jsonl` learns of a file: how many summaries, the languages its lines name
    (None for a line naming none)."""

    n_items: int
    langs: frozenset[str | None]


def check_jsonl(file: InputFile | str | Path, source: str | Path | None = None) -> JsonlSummary:
    """Read a JSONL file through once, raising the error :func:`read_jsonl` would (a bad line, no
    summary, a duplicate (topic, system) naming both lines), holding a few bytes per summary. An
    :class:`~evalcore.io.sources.InputFile` records what it read, for its next reading."""
    file = as_input(file, source)
    keys = UniqueKeys()
    langs: set[str | None] = set()
    for item in iter_jsonl(file):
        keys.add(item.topic, item.system)
        langs.add(item.lang)
    if not len(keys):
        raise InputError(f"{file.name}: no summaries in file")
    duplicate = keys.first_duplicate()
    if duplicate is not None:
        first, again = duplicate
        origins = {}
        for k, item in enumerate(iter_jsonl(file)):  # the two lines' names: read again, only now
            if k in (first, again):
                origins[k] = item
                if len(origins) == 2:
                    break
        check_unique([origins[first], origins[again]])
    return JsonlSummary(len(keys), frozenset(langs))


def _item(where: str, obj: dict, problem: str) -> SummaryItem:
    """One line's summary, each field checked (an error naming the line)."""
    missing = [k for k in ("topic", "system", "summary", "references") if k not in obj]
    if missing:
        raise InputError(f"{where}: missing field(s) {', '.join(missing)}")
    refs = obj["references"]
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise InputError(f"{where}: 'references' must be a list of strings")
    if not isinstance(obj["summary"], str):
        raise InputError(f"{where}: 'summary' must be a string")
    topic, system = json_id(obj["topic"], "topic", where), json_id(obj["system"], "system", where)
    lang = obj.get("lang")
    if "lang" in obj and not (isinstance(lang, str) and _ISO_639_1.fullmatch(lang)):
        # null too: a line that names no language is left without the field (read in --lang), not read as English
        raise InputError(f"{where}: 'lang' must be an ISO 639-1 code such as \"de\", got "
                         f"{'null' if lang is None else repr(lang)} (leave the field out to read the line in --lang)")
    summary = UnreadableText(problem) if problem else obj["summary"]
    return SummaryItem(topic, system, summary, tuple(refs), where, _human_scores(obj.get("human"), where), lang)


def _human_scores(human: object, where: str) -> dict[str, float]:
    """The optional ``human`` object as dimension -> float; anything else is an error naming the line."""
    if human is None:
        return {}
    if not isinstance(human, dict):
        raise InputError(f"{where}: 'human' must be an object of dimension -> score")
    scores = {}
    for name, value in human.items():
        try:
            scores[str(name)] = float(value)
        except (TypeError, ValueError):
            raise InputError(f"{where}: human score {name!r} is not a number ({value!r})") from None
    return scores
