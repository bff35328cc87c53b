"""A phrase table compiled to flat arrays for BPNG's batch path (:mod:`.kernels`), so look-ups,
segmentation, the network walk and F1 run without a Python operation per phrase or n-gram.

Every token string (English side and pivot side) gets an integer id; a phrase is a row of ids
found through an open-addressing hash; its arcs are those the network keeps (t(f | e) >= min_arc,
else the most probable one), with t(f | e) computed as :meth:`.table.PhraseEntry.distribution`
does. A store's compiled form is built once (seconds to a minute, by the table's size) and kept
in the cache root as ``.npy`` files (each checked against the dtype, shape and SHA-256 its
``meta.json`` records; a bad form is rebuilt and written over), memory-mapped on later loads:
the pages stay shared between processes and reclaimable.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import sys
import weakref
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from evalcore.bpng.network import _EPS
from evalcore.bpng.table import Phrase, PhraseEntry
from evalcore.extras import numba_installed
from evalcore.io.persist import arrays_digest
from evalcore.resources.registry import cache_folder, cache_warning

#: bump when the arrays' layout changes: older cached forms are then rebuilt
FORMAT = "3"
#: items (pairs, rows) from which a batch takes the compiled path before numba is loaded: importing
#: numba and loading the compiled code and tables costs about a second once per process, what the
#: Python path spends on a few hundred pairs (~3 ms a pair for PEM's four pivots); below the CLI's
#: chunk of 256 items, so a long input goes the compiled way from its first chunk
COMPILED_FROM = 128
#: store files smaller than this are compiled in memory each time (a fraction of a second) instead
#: of leaving a cached form behind for every small or temporary table
DISK_CACHE_MIN_BYTES = 4 << 20
_ARRAYS = ("phrase_ids", "phrase_len", "phrase_count", "slots", "arc_ptr", "arc_prob", "arc_tok_ptr", "arc_toks")


class CompiledTable:
    """A phrase table's entries as arrays (see the module docstring) for one ``min_arc``."""

    def __init__(self, vocab: dict[str, int], total: float, arrays: dict[str, np.ndarray]):
        self.vocab = vocab
        self.total = total
        self.log_total = math.log(max(total, 1.0))
        self.arrays = arrays

    @classmethod
    def build(cls, entries: Iterable[tuple[Phrase, PhraseEntry]], total: float, min_arc: float) -> CompiledTable:
        """Compile ``(phrase, entry)`` pairs; arcs pruned as the confusion network prunes them."""
        from evalcore.bpng.kernels import build_slots

        vocab: dict[str, int] = {}
        ids = vocab.setdefault
        phrases: list[list[int]] = []
        counts: list[float] = []
        arc_ptr = [0]
        arc_prob: list[float] = []
        arc_tok_ptr = [0]
        arc_toks: list[int] = []
        floor = min_arc - _EPS
        for phrase, entry in entries:
            phrases.append([ids(t, len(vocab)) for t in phrase])
            counts.append(entry.count)
            dist = entry.distribution() if entry.translations else []
            kept = [(f, p) for f, p in dist if p >= floor] or dist[:1]
            for f, p in kept:
                arc_prob.append(p)
                arc_toks.extend(ids(t, len(vocab)) for t in f)
                arc_tok_ptr.append(len(arc_toks))
            arc_ptr.append(len(arc_prob))
        width = max((len(p) for p in phrases), default=1)
        phrase_ids = np.full((len(phrases), width), -1, np.int32)
        for row, phrase_row in zip(phrase_ids, phrases):
            row[:len(phrase_row)] = phrase_row
        phrase_len = np.array([len(p) for p in phrases], np.uint8)
        n_slots = 1 << max(4, (2 * len(phrases)).bit_length())
        arrays = {
            "phrase_ids": phrase_ids, "phrase_len": phrase_len, "phrase_count": np.array(counts, np.float64),
            "slots": build_slots(phrase_ids, phrase_len, len(phrases), n_slots),
            "arc_ptr": np.array(arc_ptr, np.int32), "arc_prob": np.array(arc_prob, np.float64),
            "arc_tok_ptr": np.array(arc_tok_ptr, np.int32), "arc_toks": np.array(arc_toks, np.int32),
        }
        for array in arrays.values():  # read-only like the memory-mapped form: one compiled kernel for both
            array.flags.writeable = False
        return cls(vocab, total, arrays)

    def save(self, folder: Path, source: str = "") -> bool:
        """Write the arrays and the vocabulary into ``folder`` (created; replaced atomically), the
        meta file holding each array's dtype, shape and SHA-256 and the ``source`` compiled (file, min_arc).
        False (after one warning) when the cache cannot take it."""
        tmp = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
        tokens = sorted(self.vocab, key=self.vocab.__getitem__)
        shapes = {name: {"dtype": a.dtype.str, "shape": list(a.shape), "sha256": arrays_digest({name: a})}
                  for name, a in self.arrays.items()}
        meta = {"format": FORMAT, "source": source, "total": repr(self.total), "vocab": tokens, "arrays": shapes}
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            for name in _ARRAYS:
                np.save(tmp / f"{name}.npy", self.arrays[name])
            (tmp / "meta.json").write_text(json.dumps(meta), "utf-8")
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            cache_warning(folder, f"cannot be written ({exc.strerror or exc}); continuing without it")
            return False
        try:
            os.replace(tmp, folder)
        except OSError:  # another process wrote it first: theirs is the same
            shutil.rmtree(tmp, ignore_errors=True)
        return True

    @classmethod
    def load(cls, folder: Path) -> CompiledTable | None:
        """The compiled table saved in ``folder`` (memory-mapped), or None when absent, or bad
        (stale format, truncated or altered arrays: one warning naming it)."""
        if not folder.exists():
            return None
        try:
            meta = json.loads((folder / "meta.json").read_text("utf-8"))
            if meta.get("format") != FORMAT:
                raise ValueError(f"format {meta.get('format')!r}, expected {FORMAT}")
            arrays = {}
            for name in _ARRAYS:
                a = np.asarray(np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False))
                want = meta["arrays"][name]
                if a.dtype.str != want["dtype"] or list(a.shape) != want["shape"]:
                    raise ValueError(f"{name}.npy is {a.dtype.str} {list(a.shape)}, expected "
                                     f"{want['dtype']} {want['shape']}")
                if arrays_digest({name: a}) != want["sha256"]:
                    raise ValueError(f"{name}.npy does not match its SHA-256")
                arrays[name] = a
            vocab, total = {t: i for i, t in enumerate(meta["vocab"])}, float(meta["total"])
        except Exception as exc:  # noqa: BLE001 - OSError, JSON, npy header or a check above: rebuild
            cache_warning(folder, f"is not a valid compiled table ({type(exc).__name__}: {exc}); rebuilding it")
            return None
        return cls(vocab, total, arrays)

    def token_ids(self, docs: Sequence[tuple[str, ...]]) -> tuple[np.ndarray, np.ndarray]:
        """(ids of all tokens of ``docs`` concatenated, offsets per doc); a token the table never
        saw gets a fresh id past the vocabulary, the same for equal tokens within the call."""
        vocab = self.vocab
        fresh: dict[str, int] = {}
        base = len(vocab)
        ids = [vocab.get(t) for doc in docs for t in doc]
        if None in ids:
            flat = (t for doc in docs for t in doc)
            ids = [i if i is not None else fresh.setdefault(t, base + len(fresh)) for i, t in zip(ids, flat)]
        ptr = np.zeros(len(docs) + 1, np.int64)
        np.cumsum([len(doc) for doc in docs], out=ptr[1:])
        return np.array(ids, np.int32), ptr


#: compiled forms loaded in this process, by cache folder: builders on the same file share one
#: mapping and one vocabulary while any of them lives
_LOADED: weakref.WeakValueDictionary[Path, CompiledTable] = weakref.WeakValueDictionary()


def compiled_pays(n_items: int) -> bool:
    """Whether a batch of ``n_items`` should take the compiled path: from :data:`COMPILED_FROM`
    items, or always once numba is loaded (both paths give the same values, bit for bit); never
    without numba (an extra's dependency, not the base install's: the Python path serves)."""
    if "numba" in sys.modules:
        return True
    return n_items >= COMPILED_FROM and numba_installed()


def compile_table(table, min_arc: float) -> CompiledTable | None:
    """The compiled form of ``table`` for ``min_arc``, or None when the table cannot list its
    entries (it lacks ``items()``). A store's form is cached on disk under a key of its content
    (the table's signature, which holds the rows' SHA-256), ``min_arc`` and the format: a copied
    or moved table or cache finds its compiled form; a rebuilt table with other rows gets a new
    one, and the forms compiled earlier from the same file are removed."""
    items = getattr(table, "items", None)
    if items is None:
        return None
    path = getattr(table, "path", None)
    stat = Path(path).stat() if path is not None else None
    if path is None or stat is None or stat.st_size < DISK_CACHE_MIN_BYTES:
        return CompiledTable.build(items(), table.total, min_arc)
    key = hashlib.sha256(f"{table.signature()}|{min_arc!r}|{FORMAT}".encode()).hexdigest()[:24]
    cache = cache_folder("bpng")
    folder = cache / f"table-{key}" if cache is not None else None
    compiled = (_LOADED.get(folder) or CompiledTable.load(folder)) if folder is not None else None
    if compiled is None:
        compiled = CompiledTable.build(items(), table.total, min_arc)
        if folder is not None:
            source = f"{Path(path).resolve()}|min_arc={min_arc!r}"
            _remove_earlier_forms(folder, source)
            if not compiled.save(folder, source):
                folder = None
    if folder is not None:
        _LOADED[folder] = compiled
    return compiled


def _remove_earlier_forms(folder: Path, source: str) -> None:
    """Remove the cached forms compiled earlier from ``source`` (file and ``min_arc``; another
    content, or a bad form being replaced): a rebuilt table does not leave its old form behind."""
    for other in folder.parent.glob("table-*/meta.json"):
        try:
            earlier = json.loads(other.read_text("utf-8")).get("source")
        except (OSError, ValueError):
            continue
        if earlier == source and ".tmp-" not in other.parent.name:
            shutil.rmtree(other.parent, ignore_errors=True)
