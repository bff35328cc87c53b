"""The fuzz targets by name (a strategy of cases and the check that runs one), and how a case is
saved as JSON for replay (bytes, tuples, non-finite floats and ``Item`` s tagged)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz import api, inputs, meta, mt, names, pairs, summaries


@dataclass(frozen=True)
class Target:
    """A fuzz target: cases to draw and the check of one case in a work folder."""

    name: str
    strategy: Callable[[], st.SearchStrategy]
    check: Callable[[dict, Path], None]
    what: str


def _check_pairs(case: dict, workdir: Path) -> None:
    from tests.fuzz.pem_toy import resource_args

    pairs.check_pairs(case, workdir, list(resource_args()))


TARGETS = {t.name: t for t in (
    Target("mteval-score", mt.score_case, mt.check_score, "mteval score on hostile -r/-i files"),
    Target("mteval-monotone", mt.monotone_case, mt.check_monotone, "mteval corpus scores when lines of a system are "
                                                                   "lost"),
    Target("mteval-stream", mt.stream_case, mt.check_stream, "mteval stream on hostile standard input"),
    Target("summeval-tac", summaries.tac_case, summaries.check_tac, "summeval score on hostile TAC folders"),
    Target("summeval-jsonl", summaries.jsonl_case, summaries.check_jsonl, "summeval score -i on hostile JSON lines"),
    Target("parapeval-score", pairs.pairs_case, _check_pairs, "parapeval score on hostile TSV/JSONL"),
    Target("coherence-score", summaries.coherence_case, summaries.check_coherence, "coherence score on hostile texts"),
    Target("api-score-batch", api.api_case, api.check_api, "score_batch with hostile entries"),
    Target("read-once", inputs.read_once_case, inputs.check_read_once, "mteval and summeval score on FIFOs, pipes, "
                                                                       "stdin, files changed between the passes, many "
                                                                       "files under a low ulimit -n"),
    Target("plugin-names", names.names_case, names.check_names, "a plugin metric under any name: refused at "
                                                                "registration or intact in TSV and JSON"),
    Target("meta-evaluate", meta.meta_case, meta.check_meta, "aesop-eval meta-evaluate on hostile score and "
                                                             "judgment tables"),
)}


def to_json(obj):
    """A case as JSON-able data (tags for what JSON lacks)."""
    from evalcore.metric import Item

    if isinstance(obj, Item):
        return {"$item": {k: to_json(getattr(obj, k)) for k in ("candidate", "references", "source", "id")}}
    if isinstance(obj, bytes):
        return {"$bytes": obj.decode("latin-1")}
    if isinstance(obj, tuple):
        return {"$tuple": [to_json(v) for v in obj]}
    if isinstance(obj, float) and not math.isfinite(obj):
        return {"$float": repr(obj)}
    if isinstance(obj, list):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {"$dict": [[to_json(k), to_json(v)] for k, v in obj.items()]}
    return obj


def from_json(data):
    """The case :func:`to_json` saved."""
    from evalcore.metric import Item

    if isinstance(data, list):
        return [from_json(v) for v in data]
    if isinstance(data, dict):
        (tag, value), = data.items()
        if tag == "$item":
            return Item(**{k: from_json(v) for k, v in value.items()})
        if tag == "$bytes":
            return value.encode("latin-1")
        if tag == "$tuple":
            return tuple(from_json(v) for v in value)
        if tag == "$float":
            return float(value)
        return {from_json(k): from_json(v) for k, v in value}
    return data
