"""A per-output feature cache for training trained metrics: one ``.npz`` file per feature
configuration, rows keyed by a hash of (references, hypothesis), written after each chunk, so an
interrupted run, a subset and the full set share what was computed."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from evalcore.io.persist import load_arrays, save_arrays
from evalcore.resources.registry import cache_warning

#: the header of a rows file (bump the number when the layout changes)
ROWS_KIND = "feature-rows/1"
Texts = tuple[Sequence[str], str]  # (references, hypothesis)


def digest(refs: Sequence[str], hyp: str) -> str:
    """Cache key of one (references, hypothesis) item (hex: numpy byte strings drop trailing NULs)."""
    return hashlib.sha1(("\x1f".join(refs) + "\x1e" + hyp).encode("utf-8")).hexdigest()[:24]


def load_rows(path: Path | None, width: int) -> dict[str, np.ndarray]:
    """The cached rows of ``path``: none when it is absent, or bad (one warning; it is rewritten
    with the next chunk)."""
    z = load_arrays(path, ROWS_KIND) if path is not None else None
    if path is None or z is None:
        return {}
    keys, rows = z.get("keys"), z.get("rows")
    if keys is None or rows is None or rows.shape != (len(keys), width) or rows.dtype != np.float64:
        cache_warning(path, f"is not a valid cache entry (rows do not fit {width} features); rebuilding it")
        return {}
    return dict(zip(map(str, keys), rows))


def save_rows(path: Path, rows: dict[str, np.ndarray], width: int) -> bool:
    """Write the cache atomically; False (after one warning) when the cache cannot take it."""
    table = np.array(list(rows.values()), dtype=np.float64).reshape(len(rows), width)
    return save_arrays(path, ROWS_KIND, {"keys": np.array(list(rows), dtype="U24"), "rows": table})


def cached_rows(items: Sequence[Texts], path: Path | None, compute: Callable[[list[Texts]], Iterable[np.ndarray]],
                width: int, log: Callable[[str], None] = print, chunk: int = 1024) -> np.ndarray:
    """(items x ``width``) feature rows: read from ``path`` where cached, else computed a chunk
    of distinct new items at a time and saved after each chunk."""
    known = load_rows(path, width)
    digests = [digest(refs, hyp) for refs, hyp in items]
    todo = list({d: k for k, d in enumerate(digests) if d not in known}.values())
    log(f"features: {len(items) - len(todo)} of {len(items)} outputs cached ({path})")
    start = time.perf_counter()
    for lo in range(0, len(todo), chunk):
        part = [items[k] for k in todo[lo:lo + chunk]]
        for k, row in zip(todo[lo:lo + chunk], compute(part)):
            known[digests[k]] = row
        if path is not None and not save_rows(path, known, width):
            path = None
        done = lo + len(part)
        log(f"features: {done}/{len(todo)} new outputs ({done / (time.perf_counter() - start):.1f}/s)")
    return np.array([known[d] for d in digests]).reshape(len(digests), width)
