"""Model files: one data-only format for every trained model the suite ships or trains.

A model file (``<name>.npz``, format :data:`FORMAT`) is a numpy ``.npz`` archive read with
``allow_pickle=False``, holding

- ``__aesop_model__``: the header, JSON: ``format``, ``metric``, ``version`` (the suite's version
  that wrote it), ``trained_on``, ``signature`` (the model's feature signature), ``licence``,
  ``sha256`` (of every other member) and the trainer's own keys;
- ``__tree__``: the model as a JSON tree (numbers, strings, lists, dicts, tuples, numpy scalars,
  arrays by reference, and objects of an allowed class as ``{"$object": name, "state": ...}``);
- ``a0``, ``a1``, ...: the numeric and string arrays the tree refers to.

Reading one never runs code: only classes the reader allows are built, from their state.
Shipped models are found by name in a package's ``models`` folder (:func:`model_file`); the
SHA-256 is checked before the tree is decoded, so a swapped or corrupt file is refused by name.
"""

from __future__ import annotations

import importlib
import json
import os
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from evalcore import __version__
from evalcore.io.persist import HEADER as _CACHE_HEADER
from evalcore.io.persist import ModelFileError, arrays_digest, atomic_write
from evalcore.resources.registry import package_path

__all__ = ["FORMAT", "SUFFIX", "ModelFileError", "load_model", "load_trained", "model_digest", "model_file",
           "read_header", "resolve", "save_model"]

FORMAT = "aesop-model/1"
SUFFIX = ".npz"
HEADER = "__aesop_model__"
TREE = "__tree__"
#: keys every header carries besides ``format``, ``version`` and ``sha256``
REQUIRED = ("metric", "trained_on", "signature", "licence")

#: classes any model file may hold, by the public name written in the file
BASE_CLASSES = {
    "sklearn.compose.TransformedTargetRegressor": ("sklearn.compose", "TransformedTargetRegressor"),
    "sklearn.pipeline.Pipeline": ("sklearn.pipeline", "Pipeline"),
    "sklearn.preprocessing.StandardScaler": ("sklearn.preprocessing", "StandardScaler"),
    "sklearn.svm.SVR": ("sklearn.svm", "SVR"),
    "sklearn.svm.LinearSVC": ("sklearn.svm", "LinearSVC"),
    "sklearn.linear_model.LogisticRegression": ("sklearn.linear_model", "LogisticRegression"),
    "sklearn.feature_extraction.DictVectorizer": ("sklearn.feature_extraction", "DictVectorizer"),
    "evalcore.learn.ranking.RankSVM": ("evalcore.learn.ranking", "RankSVM"),
}
#: numpy scalar types a tree may name (a DictVectorizer's ``dtype``)
_TYPES = {"numpy.float64": np.float64, "numpy.float32": np.float32, "numpy.int64": np.int64,
          "numpy.int32": np.int32, "numpy.bool_": np.bool_}


def model_file(package: str, name: str) -> Path:
    """The file of model ``name`` (a stem, possibly ``folder/stem``) in ``package``'s models folder."""
    return package_path(package, "models", *f"{name}{SUFFIX}".split("/"))


def resolve(source: str | Path, package: str | None = None) -> Path:
    """The file of ``source``: a :class:`~pathlib.Path`, or a string ending in :data:`SUFFIX`, is a
    path; another string is a model name in ``package``'s models folder."""
    if isinstance(source, Path) or package is None or str(source).endswith(SUFFIX):
        return Path(source)
    return model_file(package, str(source))


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


#: class names that model files written before a class moved hold -> the class's name now; the
#: shipped models keep their bytes (and so their hashes in the signatures)
MOVED_CLASSES = {"evalcore.ranking.RankSVM": "evalcore.learn.ranking.RankSVM",
                 "parapeval.model.PEMRegressor": "parapeval.pem.model.PEMRegressor"}


def _allowed(classes: Iterable[type]) -> dict[str, tuple[str, str] | type]:
    """Public name -> (module, attribute) or class: the base classes and the caller's own."""
    return {**BASE_CLASSES, **{_class_name(c): c for c in classes}}


class _Encoder:
    """Turns a model into (JSON tree, arrays), refusing anything that would need pickle."""

    def __init__(self, classes: Iterable[type]):
        self.arrays: dict[str, np.ndarray] = {}
        self.names: dict[type, str] = {}
        for name, where in _allowed(classes).items():
            if isinstance(where, type):
                self.names[where] = name

    def name_of(self, cls: type) -> str:
        if cls in self.names:
            return self.names[cls]
        for name, (module, attr) in BASE_CLASSES.items():
            if getattr(importlib.import_module(module), attr) is cls:
                self.names[cls] = name
                return name
        raise TypeError(f"{_class_name(cls)} is not an allowed model class")

    def encode(self, obj):
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, (int, float)) and type(obj) in (int, float):
            return obj
        if isinstance(obj, np.generic):
            return {"$scalar": obj.dtype.str, "value": obj.item()}
        if isinstance(obj, np.ndarray):
            if obj.dtype.hasobject:
                raise TypeError("an array of Python objects is not storable without pickle")
            key = f"a{len(self.arrays)}"
            self.arrays[key] = obj
            return {"$array": key}
        if isinstance(obj, list):
            return [self.encode(v) for v in obj]
        if isinstance(obj, tuple):
            return {"$tuple": [self.encode(v) for v in obj]}
        if isinstance(obj, (set, frozenset)):
            kind = "$frozenset" if isinstance(obj, frozenset) else "$set"
            return {kind: [self.encode(v) for v in sorted(obj, key=repr)]}
        if isinstance(obj, dict):
            if all(isinstance(k, str) and not k.startswith("$") for k in obj):
                return {k: self.encode(v) for k, v in obj.items()}
            return {"$dict": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
        if isinstance(obj, type):
            name = f"numpy.{obj.__name__}"
            if _TYPES.get(name) is not obj:
                raise TypeError(f"type {_class_name(obj)} is not storable in a model file")
            return {"$type": name}
        if isinstance(obj, np.dtype):
            return {"$dtype": obj.str}
        name = self.name_of(type(obj))
        state = obj.__getstate__() if hasattr(obj, "__getstate__") else obj.__dict__
        if not isinstance(state, dict):
            raise TypeError(f"{name} has no dict state")
        return {"$object": name, "state": self.encode(state)}


class _Decoder:
    """Builds a model from its JSON tree and arrays, creating only allowed classes."""

    def __init__(self, arrays: Mapping[str, np.ndarray], classes: Iterable[type]):
        self.arrays = arrays
        self.classes = _allowed(classes)

    def cls(self, name: str) -> type:
        where = self.classes.get(MOVED_CLASSES.get(name, name))
        if where is None:
            raise ModelFileError(f"holds a {name}, which this reader does not allow")
        return where if isinstance(where, type) else getattr(importlib.import_module(where[0]), where[1])

    def decode(self, node):
        if isinstance(node, list):
            return [self.decode(v) for v in node]
        if not isinstance(node, dict):
            return node
        if len(node) == 1 or "$scalar" in node or "$object" in node:
            tag = next(iter(node))
            if tag == "$array":
                return self.arrays[node[tag]]
            if tag == "$tuple":
                return tuple(self.decode(v) for v in node[tag])
            if tag in ("$frozenset", "$set"):
                items = (self.decode(v) for v in node[tag])
                return frozenset(items) if tag == "$frozenset" else set(items)
            if tag == "$dict":
                return {self.decode(k): self.decode(v) for k, v in node[tag]}
            if tag == "$type":
                return _TYPES[node[tag]]
            if tag == "$dtype":
                return np.dtype(node[tag])
            if tag == "$scalar":
                return np.dtype(node["$scalar"]).type(node["value"])
            if tag == "$object":
                cls: Any = self.cls(node["$object"])  # a class the reader allows, built without __init__
                obj = cls.__new__(cls)
                state = self.decode(node["state"])
                if hasattr(obj, "__setstate__"):
                    obj.__setstate__(state)
                else:
                    obj.__dict__.update(state)
                return obj
        return {k: self.decode(v) for k, v in node.items()}


def _members(obj, classes: Iterable[type]) -> dict[str, np.ndarray]:
    """The archive members of ``obj`` but the header: its tree and arrays."""
    encoder = _Encoder(classes)
    tree = json.dumps(encoder.encode(obj), separators=(",", ":"), allow_nan=True)  # dicts keep their order
    return {TREE: np.frombuffer(tree.encode("utf-8"), dtype=np.uint8), **encoder.arrays}


def model_digest(obj, classes: Iterable[type] = ()) -> str:
    """The SHA-256 a model file of ``obj`` carries (of its content: the same for the same model)."""
    return arrays_digest(_members(obj, classes))


def save_model(obj, path: str | Path, header: Mapping, classes: Iterable[type] = ()) -> Path:
    """Write ``obj`` as a model file with ``header`` (which names at least :data:`REQUIRED`);
    ``classes``: the caller's own classes the model holds (sklearn's usual ones are allowed).
    The file is written atomically; its SHA-256 covers the tree and every array."""
    missing = [k for k in REQUIRED if not header.get(k)]
    if missing:
        raise ValueError(f"model header for {path} lacks {', '.join(missing)}")
    arrays = _members(obj, classes)
    head = {**header, "format": FORMAT, "version": __version__, "sha256": arrays_digest(arrays)}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)

    members: dict[str, Any] = {HEADER: np.array(json.dumps(head, sort_keys=True, default=str)), **arrays}

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, **members)

    return atomic_write(path, write)


def _open(path: Path):
    """The opened archive of a model file (an error naming the file when it is not one)."""
    if not path.is_file():
        raise ModelFileError(f"model file {path} not found")
    with open(path, "rb") as fh:
        if fh.read(4) != b"PK\x03\x04":
            raise ModelFileError(f"{path} is not an {FORMAT} model file (not an npz archive)")
    return np.load(path, allow_pickle=False)


def _header(z, path: Path) -> dict:
    if HEADER not in z.files:
        hint = " (a cache entry)" if _CACHE_HEADER in z.files else ""
        raise ModelFileError(f"{path} has no model header{hint}: not an {FORMAT} model file")
    head = json.loads(str(z[HEADER]))
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ModelFileError(f"{path} is in format {head.get('format') if isinstance(head, dict) else head!r}, "
                             f"this version reads {FORMAT}")
    return head


def read_header(source: str | Path, package: str | None = None) -> dict:
    """The header of a model file (cheap: the model itself is not read)."""
    path = resolve(source, package)
    try:
        with _open(path) as z:
            return _header(z, path)
    except ModelFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a zip or JSON error of any kind is a bad model file
        raise ModelFileError(f"{path}: unreadable model header ({type(exc).__name__}: {exc})") from None


def _read(path: Path, classes: tuple[type, ...]):
    try:
        with _open(path) as z:
            head = _header(z, path)
            arrays = {name: z[name] for name in z.files if name != HEADER}
    except ModelFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a zip, npy or JSON error of any kind is a bad model file
        raise ModelFileError(f"{path}: cannot be read ({type(exc).__name__}: {exc})") from None
    if TREE not in arrays or head.get("sha256") != arrays_digest(arrays):
        raise ModelFileError(f"{path} does not match the SHA-256 in its header (altered or corrupt; retrain "
                             "or restore it)")
    tree = json.loads(arrays.pop(TREE).tobytes().decode("utf-8"))
    try:
        return _Decoder(arrays, classes).decode(tree), head
    except ModelFileError as exc:
        raise ModelFileError(f"{path} {exc}") from None


_loaded: dict[tuple, tuple] = {}
_lock = threading.Lock()
_CACHED = 8


def _fresh_lock() -> None:
    """A forked child gets an unheld lock (a parent thread may be reading a model as it forks)."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock)


def load_model(source: str | Path, package: str | None = None, classes: Iterable[type] = ()):
    """(model, header) of a model file: ``source`` is a name in ``package``'s models folder or a
    path (:func:`resolve`); ``classes``: the caller's own classes the model may hold. The hash is
    checked before anything is built; each file version is read once per process and shared
    (models are read-only once trained)."""
    path = resolve(source, package)
    try:
        stat = path.stat()
    except OSError:
        raise ModelFileError(f"model file {path} not found") from None
    classes = tuple(classes)
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, classes)
    with _lock:
        hit = _loaded.get(key)
        if hit is None:
            hit = _read(path, classes)
            if len(_loaded) >= _CACHED:
                _loaded.pop(next(iter(_loaded)))
            _loaded[key] = hit
    return hit


def load_trained(path: Path, cls: type, what: str, retrain: str):
    """(model, header) of the model file ``path`` that must hold a ``cls``: a missing, corrupt or
    foreign file is a ResourceError naming ``what`` and the ``retrain`` command."""
    from evalcore.resources.registry import ResourceError

    if not path.exists():
        raise ResourceError(f"{what} model {path} is missing: run `{retrain}`")
    try:
        model, info = load_model(path, classes=(cls,))
    except ModelFileError as exc:
        raise ResourceError(str(exc)) from None
    if not isinstance(model, cls):
        raise ResourceError(f"{path} holds a {type(model).__name__}, not a {what} model: retrain with `{retrain}`")
    return model, info
