"""Sentence-aligned bitexts: line-aligned files, gettext catalogs (.mo) and sword Bibles, with
the tokenisation used on each side (English as the scorer preprocesses it; pivot lowercased,
CJK split into characters)."""

from __future__ import annotations

import functools
import gettext
import hashlib
import io
import re
import struct
from collections.abc import Iterable
from pathlib import Path

from evalcore.io.textfiles import read_text
from evalcore.text.preprocess import tokenize

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_FORMAT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[hlLqjzt]*[diouxXeEfFgGcrsaAp%]"
                     r"|\{[^{}]*\}|\$\{[^}]*\}|<[^<>]*>")
_MNEMONIC = re.compile(r"(?<=\w)_(?=\w)|(?<![\w&])[_&](?=\w)")


def tokenize_pivot(text: str) -> list[str]:
    """Pivot-side tokens: lowercased PTB-like tokens, CJK runs split into single characters."""
    out: list[str] = []
    for tok in tokenize(text.lower()):
        if _CJK.search(tok):
            out.extend(ch for ch in tok if not ch.isspace())
        else:
            out.append(tok)
    return out


def _aligned_lines(path: str | Path) -> list[str]:
    """Lines of a bitext side, split at newlines only: str.splitlines would also split at
    form feeds or U+2028 inside a sentence and shift every later line against the other side."""
    lines = [line.removesuffix("\r") for line in read_text(path).split("\n")]
    return lines[:-1] if lines and not lines[-1] else lines


def read_parallel_files(src: str | Path, tgt: str | Path) -> list[tuple[str, str]]:
    """Line-aligned files (UTF-8, optional BOM) -> sentence pairs; unreadable files and
    mismatched line counts are an error naming the file."""
    src_lines, tgt_lines = _aligned_lines(src), _aligned_lines(tgt)
    if len(src_lines) != len(tgt_lines):
        raise ValueError(f"{src} has {len(src_lines)} lines but {tgt} has {len(tgt_lines)}: "
                         "not a sentence-aligned bitext")
    return list(zip(src_lines, tgt_lines))


def _clean_message(text: str) -> str:
    text = _FORMAT.sub(" ", text)
    text = _MNEMONIC.sub("", text)
    return " ".join(text.replace("\\n", " ").split())


def catalog_pairs(mo_files: Iterable[str | Path | bytes]) -> list[tuple[str, str]]:
    """English msgid -> translation pairs from the given gettext catalogs (.mo files, or their
    bytes, read in the order given); format markers, mnemonics and msgctxt stripped, empty and
    identical pairs dropped, duplicates kept once, sorted. An unreadable catalog is skipped."""
    seen: set[tuple[str, str]] = set()
    for mo in mo_files:
        try:
            with (io.BytesIO(mo) if isinstance(mo, bytes) else open(mo, "rb")) as fh:
                catalog = gettext.GNUTranslations(fh)
        except (OSError, UnicodeDecodeError, ValueError, struct.error):
            continue
        # gettext offers no public way to list a catalog's messages; typeshed omits the private dict
        for msgid, msgstr in catalog._catalog.items():  # type: ignore[attr-defined]  # private: see above
            if isinstance(msgid, tuple):
                msgid = msgid[0]
            if not msgid or not isinstance(msgstr, str):
                continue
            msgid = msgid.split("\x04", 1)[-1]
            src, tgt = _clean_message(msgid), _clean_message(msgstr)
            if src and tgt and src != tgt:
                seen.add((src, tgt))
    return sorted(seen)


SWORD_ROOT = Path("/usr/share/sword")


def bible_pairs(english_module: str = "engKJV2006eb", pivot_module: str = "spaRV1909eb",
                sword_root: Path = SWORD_ROOT) -> list[tuple[str, str]]:
    """Verse-aligned pairs from two installed sword modules (Debian sword-text-*), read with pysword."""
    from pysword.modules import SwordModules

    modules = SwordModules(str(sword_root))
    modules.parse_modules()
    en, piv = modules.get_bible_from_module(english_module), modules.get_bible_from_module(pivot_module)
    for bible in (en, piv):
        # pysword decompresses a whole zText block for every verse; keeping the last blocks
        # makes reading both Bibles ~100x faster.
        bible._decompressed_text = functools.lru_cache(maxsize=4)(bible._decompressed_text)
    pairs: list[tuple[str, str]] = []
    for book in en.get_structure().get_books()["ot"] + en.get_structure().get_books()["nt"]:
        for chapter in range(1, book.num_chapters + 1):
            query = {"books": [book.osis_name], "chapters": [chapter], "clean": True, "join": "\x00"}
            e_verses, f_verses = en.get(**query).split("\x00"), piv.get(**query).split("\x00")
            if len(e_verses) != len(f_verses):
                continue
            for e, f in zip(e_verses, f_verses):
                e, f = " ".join(e.split()), " ".join(f.split())
                if e and f:
                    pairs.append((e, f))
    return pairs


def bitext_hash(pairs: Iterable[tuple[str, str]]) -> str:
    """Short content hash of a bitext (part of the phrase-table signature)."""
    h = hashlib.sha1()
    for e, f in pairs:
        h.update(e.encode("utf-8") + b"\t" + f.encode("utf-8") + b"\n")
    return h.hexdigest()[:10]

