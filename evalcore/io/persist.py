"""Persistence: cache entries below AESOP_CACHE, data-only files with a header and a content
hash, written atomically (docs/caches.md); the error of a bad model file. Trained models have
their own data-only format: :mod:`evalcore.io.models`."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from evalcore.resources.registry import cache_warning


class ModelFileError(RuntimeError):
    """A model file is missing, not of its format, corrupt, or holds a class its reader does not allow."""


def file_sha256(path: str | Path) -> str:
    """SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ----------------------------------------------------------------------------- cache entries
# Files below AESOP_CACHE hold data only (npz without object arrays, JSON, SQLite, text): a file
# anyone can write to a shared cache must not run code in the process that reads it. Each entry
# carries a header (its kind and format) and a hash of its content, checked on read; a bad entry
# is rebuilt by the caller and written over, after one warning naming it.

#: the npz member holding an entry's JSON header
HEADER = "__aesop_cache__"


def atomic_write(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Write ``path`` through ``write(temporary path)`` in the same folder, then rename it into
    place: a reader sees the old file or the whole new one, never a part."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def write_cache_entry(path: str | Path, write: Callable[[Path], object]) -> bool:
    """:func:`atomic_write` for a cache entry: False, after one warning naming the file, when the
    cache cannot take it (read-only, full, not a folder); the caller keeps its value."""
    try:
        atomic_write(path, write)
        return True
    except OSError as exc:
        cache_warning(path, f"cannot be written ({exc.strerror or exc}); continuing without it")
        return False


def arrays_digest(arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 of named arrays: names, dtypes, shapes and bytes."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.asarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(np.ascontiguousarray(a).reshape(-1).view(np.uint8).data)  # the bytes, not a copy
    return h.hexdigest()


class BadEntryError(ValueError):
    """A data file (cache entry or saved table) that cannot be used; ``reason`` says why."""

    def __init__(self, path: str | Path, kind: str, reason: str):
        super().__init__(f"{path} is not a valid {kind} file ({reason})")
        self.reason = reason


def _npz_writer(kind: str, arrays: Mapping[str, np.ndarray], compress: bool) -> Callable[[Path], None]:
    arrays = {name: np.asarray(a) for name, a in arrays.items()}
    for name, a in arrays.items():
        if a.dtype.hasobject:
            raise TypeError(f"array {name!r} holds Python objects: not storable without pickle")
    header = np.array(json.dumps({"kind": kind, "sha256": arrays_digest(arrays)}))

    save: Callable[..., None] = np.savez_compressed if compress else np.savez  # arrays by keyword

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as fh:
            save(fh, **{HEADER: header}, **arrays)

    return write


def write_arrays(path: str | Path, kind: str, arrays: Mapping[str, np.ndarray], compress: bool = False) -> Path:
    """Write ``arrays`` (no object arrays) atomically as an ``.npz`` with a header: ``kind``
    (what and which format, e.g. ``meant-ibm1/3``) and the arrays' SHA-256. Raises OSError."""
    return atomic_write(path, _npz_writer(kind, arrays, compress))


def read_arrays(path: str | Path, kind: str) -> dict[str, np.ndarray]:
    """The arrays of a file written by :func:`write_arrays`; :class:`BadEntryError` when it is
    unreadable, of another kind or format, or its content does not match its hash."""
    try:
        with open(path, "rb") as fh:
            if fh.read(4) != b"PK\x03\x04":  # np.load would try other formats and talk of pickles
                raise ValueError("not an npz archive")
        with np.load(path, allow_pickle=False) as z:
            if HEADER not in z.files:
                raise ValueError("no header: written by another program or version")
            header = json.loads(str(z[HEADER]))
            arrays = {name: z[name] for name in z.files if name != HEADER}
        _check_header(header, kind, arrays_digest(arrays))
    except FileNotFoundError:
        raise
    except Exception as exc:  # noqa: BLE001 - a zip, npy or JSON error of any kind is a bad file
        raise BadEntryError(path, kind, f"{type(exc).__name__}: {exc}") from None
    return arrays


def save_arrays(path: str | Path, kind: str, arrays: Mapping[str, np.ndarray], compress: bool = False) -> bool:
    """:func:`write_arrays` for a cache entry: False, after one warning, when the cache cannot take it."""
    return write_cache_entry(path, _npz_writer(kind, arrays, compress))


def load_arrays(path: str | Path, kind: str) -> dict[str, np.ndarray] | None:
    """The arrays of a cache entry (:func:`write_arrays`), or None when it is absent, or bad (one
    warning naming it; the caller rebuilds it and writes it over)."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        return read_arrays(path, kind)
    except BadEntryError as exc:
        cache_warning(path, f"is not a valid cache entry ({exc.reason}); rebuilding it")
    except OSError as exc:
        cache_warning(path, f"cannot be read ({exc.strerror or exc}); rebuilding it")
    return None


def save_json(path: str | Path, kind: str, data) -> bool:
    """Write JSON-able ``data`` as an entry with its header (``kind`` and the data's hash)."""
    body = json.dumps(data, sort_keys=True, separators=(",", ":"))
    text = json.dumps({"kind": kind, "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest()}) + "\n" + body
    return write_cache_entry(path, lambda tmp: tmp.write_text(text, "utf-8"))


def load_json(path: str | Path, kind: str):
    """The data of an entry written by :func:`save_json`, or None when absent or bad (one warning)."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        head, body = path.read_text("utf-8").split("\n", 1)
        _check_header(json.loads(head), kind, hashlib.sha256(body.encode("utf-8")).hexdigest())
        return json.loads(body)
    except OSError as exc:
        cache_warning(path, f"cannot be read ({exc.strerror or exc}); rebuilding it")
    except Exception as exc:  # noqa: BLE001 - undecodable bytes, bad JSON, wrong kind or hash
        cache_warning(path, f"is not a valid cache entry ({type(exc).__name__}: {exc}); rebuilding it")
    return None


#: path -> (size, mtime_ns, inode, digest) of the files whose digest this process computed or read
_DIGESTS: dict[str, tuple[int, int, int, str]] = {}
_DIGESTS_LOCK = threading.Lock()


def stat_keyed_digest(path: str | Path, kind: str, compute: Callable[[], str]) -> str:
    """The digest ``compute()`` gives of the file at ``path`` (of kind ``kind``), computed again
    only when the file changes: remembered with the file's size, modification time and inode, in
    the process and in the cache (folder ``digests``), so that reading a large file's digest costs
    one ``stat`` while the file is unchanged, and an edit, however it keeps the file valid, is seen."""
    from evalcore.resources.registry import cache_folder

    path = Path(path).resolve()
    st = path.stat()
    stamp = (st.st_size, st.st_mtime_ns, st.st_ino)
    key = f"{kind}:{path}"
    with _DIGESTS_LOCK:
        known = _DIGESTS.get(key)
    if known is not None and known[:3] == stamp:
        return known[3]
    folder = cache_folder("digests")
    entry = folder / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.json" if folder is not None else None
    record = load_json(entry, "file-digest") if entry is not None else None
    if isinstance(record, dict) and record.get("file") == key and tuple(record.get("stamp", ())) == stamp:
        digest = str(record["digest"])
    else:
        digest = compute()
        if entry is not None:
            save_json(entry, "file-digest", {"file": key, "stamp": list(stamp), "digest": digest})
    with _DIGESTS_LOCK:
        _DIGESTS[key] = (*stamp, digest)
    return digest


def strings_array(strings: Sequence[str]) -> np.ndarray:
    """Strings without newlines as one UTF-8 byte array (compact where a ``U`` array pads every
    string to the longest); :func:`array_strings` reads them back."""
    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def array_strings(array: np.ndarray) -> list[str]:
    """The strings of :func:`strings_array`."""
    text = array.tobytes().decode("utf-8")
    return text.split("\n") if text else []


def _check_header(header, kind: str, digest: str) -> None:
    if not isinstance(header, dict) or header.get("kind") != kind:
        found = header.get("kind") if isinstance(header, dict) else header
        raise ValueError(f"holds {found!r}, expected {kind!r}")
    if header.get("sha256") != digest:
        raise ValueError("content does not match its SHA-256 (truncated or altered)")
