"""TAC / AESOP manual evaluation files (``manual.peer``, ``manual.model``, with an optional
``.A``/``.B`` suffix per document-set group), as NIST distributes them for the 2010-2011
guided summarization tasks: whitespace-separated rows starting with the topic (e.g. ``D1001-A``,
the same id the TAC folder reader gives the topic) and the summarizer id. Columns read:

- ``manual.peer`` (10 fields): modified pyramid score, SCU count, repetitions, (two columns not
  read), jackknifed modified pyramid score, linguistic quality (readability), overall
  responsiveness;
- ``manual.model`` (8 fields): jackknifed SCU count, (two columns not read), jackknifed modified
  pyramid score, linguistic quality, overall responsiveness.

A row of another length, a value that is not a number and a repeated (topic, summarizer) are
errors naming ``file:line``. The column layout follows the NIST files as sacrerouge's TAC 2010
reader documents them.
"""

from __future__ import annotations

import math
from pathlib import Path

from evalcore.io.textfiles import InputError, read_text, split_lines

Cells = dict[str, dict[tuple[str, str], float]]  # dimension -> {(system, topic): value}
#: field count -> (column index, dimension) of the read columns
LAYOUTS = {
    10: ((2, "modified_pyramid"), (3, "scus"), (4, "repetitions"), (7, "modified_pyramid_jk"),
         (8, "readability"), (9, "responsiveness")),
    8: ((2, "scus_jk"), (5, "modified_pyramid_jk"), (6, "readability"), (7, "responsiveness")),
}


def is_tac_manual(path: str | Path) -> bool:
    """Whether the file is named as a TAC manual evaluation file."""
    parts = Path(path).name.split(".")
    return len(parts) >= 2 and parts[0] == "manual" and parts[1] in ("peer", "model")


def read_tac_manual(path: str | Path) -> Cells:
    """{dimension: {(summarizer id, topic): value}} of a ``manual.peer`` or ``manual.model`` file."""
    path = Path(path)
    expected = 10 if Path(path).name.split(".")[1] == "peer" else 8
    out: Cells = {}
    for number, line in enumerate(split_lines(read_text(path)), 1):
        fields = line.split()
        if not fields:
            continue
        where = f"{path}:{number}"
        if len(fields) != expected:
            raise InputError(f"{where}: {len(fields)} fields; a {path.name.split('.')[1]} row of a TAC manual file "
                             f"has {expected}")
        topic, system = fields[0], fields[1]
        for column, dim in LAYOUTS[expected]:
            try:
                value = float(fields[column])
            except ValueError:
                raise InputError(f"{where}: {dim} = {fields[column]!r} is not a number") from None
            if not math.isfinite(value):
                raise InputError(f"{where}: {dim} = {fields[column]!r} is not a finite number")
            cells = out.setdefault(dim, {})
            if (system, topic) in cells:
                raise InputError(f"{where}: a second row for topic {topic!r}, summarizer {system!r}")
            cells[(system, topic)] = value
    if not out:
        raise InputError(f"{path}: no rows")
    return out
