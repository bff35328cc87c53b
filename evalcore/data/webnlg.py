"""WebNLG+ 2020 human evaluation (Castro Ferreira et al. 2020): 178 English RDF-to-text inputs x 16
systems, each text rated 0-100 by crowd workers for fluency, text structure, correctness, data
coverage and relevance (averaged over raters).

The file is ``../shared/data/webnlg2020-humeval/webnlg2020_en_humeval.jsonl``: one object a line
with ``topic`` (the input), ``system``, ``text`` and the five scores. No references ship with it.

Licence: CC BY-NC-SA 4.0 (research, non-commercial); a model trained on it ships only as an opt-in
variant that says so.
"""

from __future__ import annotations

import math
from pathlib import Path

from evalcore.data.records import SummaryItem
from evalcore.io.textfiles import InputError, jsonl_objects, read_text

DIMENSIONS = ("fluency", "text_structure", "correctness", "data_coverage", "relevance")
FILE = "webnlg2020_en_humeval.jsonl"
LICENCE = "WebNLG+ 2020 human evaluation: CC BY-NC-SA 4.0, research and non-commercial use"


def read_webnlg(path: str | Path) -> list[SummaryItem]:
    """The judged texts as items without references, sorted by (topic, system); ``path`` is the
    JSONL file or its folder. A line missing a field or a score, a duplicate (topic, system) or a
    non-finite score is an error naming the line."""
    path = Path(path)
    if path.is_dir():
        path = path / FILE
    if not path.is_file():
        raise InputError(f"{path}: not found (WebNLG+ 2020's human evaluation lives in "
                         "../shared/data/webnlg2020-humeval)")
    items, seen = [], set()
    for where, obj in jsonl_objects(read_text(path), path):
        try:
            topic, system, text = str(obj["topic"]), str(obj["system"]), obj["text"]
            human = {d: float(obj[d]) for d in DIMENSIONS}
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{where}: not a WebNLG human-evaluation record ({type(exc).__name__}: {exc})") from None
        if not isinstance(text, str) or not all(math.isfinite(v) for v in human.values()):
            raise InputError(f"{where}: the text must be a string and every score a finite number")
        if (topic, system) in seen:
            raise InputError(f"{where}: a second record of input {topic!r} by system {system!r}")
        seen.add((topic, system))
        items.append(SummaryItem(topic, system, text, (), where, human))
    return sorted(items, key=lambda i: (int(i.topic) if i.topic.isdecimal() else 0, i.topic, i.system))
