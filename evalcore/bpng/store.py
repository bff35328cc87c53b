"""The on-disk phrase table: one SQLite file per (bitext, pivot, settings), written once,
opened lazily read-only and queried with ``IN`` queries for the phrases not yet seen (one per
sentence, or a few for a window of sentences looked up together); looked-up entries, and
phrases found absent, stay in a bounded in-process cache (frequent words and phrases recur in
every sentence: the cache answers most look-ups).

Schema: ``meta(key, value)`` with the signature, the total count and the build settings;
``phrase(src, n, tr)`` keyed by the English phrase (tokens joined by spaces) with N(e) and its
translations as ``pivot phrase<TAB>N(e, f)`` lines, most frequent first. SQLite keeps it compact,
memory-mapped by the OS, portable and readable with standard tools.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from evalcore.bpng.table import Phrase, PhraseEntry
from evalcore.io.persist import atomic_write, stat_keyed_digest
from evalcore.resources.registry import ResourceError, cache_warning

FORMAT_VERSION = "1"
#: the kind of digest :func:`~evalcore.io.persist.stat_keyed_digest` keeps for a table's rows
ROWS_DIGEST = "phrase-table-rows"
_CHUNK = 500
#: phrases (entries and misses) a store keeps decoded in memory; the oldest half goes when full
CACHE_PHRASES = 200_000
# a phrase the cache has not seen (None: seen, not in the table); compared by identity
_UNKNOWN = PhraseEntry(-1.0, ())


def _encode(translations: Sequence[tuple[Phrase, float]]) -> str:
    return "\n".join(f"{' '.join(f)}\t{n:g}" for f, n in translations)


def _decode(text: str) -> tuple[tuple[Phrase, float], ...]:
    out = []
    for line in text.split("\n"):
        if line:
            f, n = line.rsplit("\t", 1)
            out.append((tuple(f.split(" ")), float(n)))
    return tuple(out)


def write_store(path: str | os.PathLike, entries: Iterable[tuple[Phrase, float, Sequence[tuple[Phrase, float]]]],
                meta: Mapping[str, str]) -> Path:
    """Write a phrase table atomically (temporary file, then rename); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(tmp: Path) -> None:
        con = sqlite3.connect(tmp)
        try:
            con.execute("PRAGMA journal_mode=OFF")
            con.execute("PRAGMA synchronous=OFF")
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            con.execute("CREATE TABLE phrase (src TEXT PRIMARY KEY, n REAL NOT NULL, tr TEXT NOT NULL) WITHOUT ROWID")
            total = 0.0
            rows = []
            for src, n, translations in entries:
                total += n
                rows.append((" ".join(src), float(n), _encode(translations)))
            rows.sort()
            con.executemany("INSERT INTO phrase VALUES (?, ?, ?)", rows)
            all_meta = {"format": FORMAT_VERSION, **meta, "total": repr(total), "phrases": str(len(rows)),
                        "content_sha256": content_hash(rows)}
            con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(all_meta.items()))
            con.commit()
            con.execute("VACUUM")
        finally:
            con.close()
        digests.append(all_meta["content_sha256"])

    digests: list[str] = []
    atomic_write(path, write)
    stat_keyed_digest(path, ROWS_DIGEST, lambda: digests[0])  # the rows just written: no need to read them again
    return path


def store_problem(path: str | os.PathLike) -> str | None:
    """Why the phrase-table file at ``path`` cannot be used (not a table, another format, damaged
    pages), or None when SQLite's quick check passes."""
    try:
        store = PhraseTableStore(path)
        store.meta  # noqa: B018 - reads and checks the header
        with store._named_errors():
            verdict = store._connection().execute("PRAGMA quick_check").fetchone()[0]
    except ResourceError as exc:
        return str(exc)
    return None if verdict == "ok" else f"phrase table {path} is damaged (SQLite quick_check: {verdict})"


def content_hash(rows: Iterable[tuple[str, float, str]]) -> str:
    """SHA-256 of a table's (phrase, N(e), translations) rows in key order: equal tables, equal hash."""
    digest = hashlib.sha256()
    for src, n, tr in rows:
        digest.update(f"{src}\t{float(n)!r}\t{tr}\n".encode())
    return digest.hexdigest()


class PhraseTableStore:
    """A phrase table file, opened on first use (read-only, shareable across threads, picklable)."""

    def __init__(self, path: str | os.PathLike, cache_phrases: int = CACHE_PHRASES):
        self.path = Path(path)
        self.cache_phrases = cache_phrases
        # phrase -> entry, or None when the table lacks it (bounded: see _remember)
        self._cache: dict[Phrase, PhraseEntry | None] = {}
        if not self.path.is_file():
            raise ResourceError(
                f"phrase table {self.path} not found: build one with `parapeval build-phrase-table` "
                "or the defaults with `aesop-eval setup pem`"
            )
        self._con: sqlite3.Connection | None = None
        self._meta: dict[str, str] = {}  # filled with the connection
        self._lock = threading.Lock()

    def __getstate__(self):
        return {"path": self.path, "cache_phrases": self.cache_phrases}

    def __setstate__(self, state):
        PhraseTableStore.__init__(self, state["path"], state.get("cache_phrases", CACHE_PHRASES))

    def _connection(self) -> sqlite3.Connection:
        if self._con is None:
            with self._lock:
                if self._con is None:
                    con = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True,
                                          check_same_thread=False)
                    try:
                        rows = dict(con.execute("SELECT key, value FROM meta").fetchall())
                    except sqlite3.DatabaseError as exc:
                        con.close()
                        raise ResourceError(f"{self.path} is not a parapeval phrase table: {exc}") from exc
                    if rows.get("format") != FORMAT_VERSION:
                        con.close()
                        raise ResourceError(f"{self.path}: phrase-table format {rows.get('format')!r}, "
                                            f"expected {FORMAT_VERSION}; rebuild it")
                    self._meta, self._con = rows, con
        return self._con

    @property
    def meta(self) -> dict[str, str]:
        """Build settings and statistics stored with the table."""
        self._connection()
        return dict(self._meta)

    @property
    def total(self) -> float:
        self._connection()
        return float(self._meta["total"])

    def rows_hash(self) -> str:
        """The SHA-256 of the rows the file holds now: computed from the rows when the file is
        first seen or has changed (size, modification time or inode; see
        :func:`~evalcore.io.persist.stat_keyed_digest`), so that a table edited after its build
        does not keep the digest it recorded then."""
        con = self._connection()

        def rows_digest() -> str:
            with self._named_errors():
                return content_hash(con.execute("SELECT src, n, tr FROM phrase ORDER BY src"))

        return stat_keyed_digest(self.path, ROWS_DIGEST, rows_digest)

    def content_hash(self) -> str:
        """:meth:`rows_hash`, after one warning when it differs from the digest the table recorded
        at its build (the table was changed since)."""
        digest = self.rows_hash()
        recorded = self.meta.get("content_sha256")
        if recorded is not None and recorded != digest:
            cache_warning(self.path, f"holds rows that differ from those it recorded at its build (digest "
                                     f"{digest[:16]}, recorded {recorded[:16]}): it was changed after it was "
                                     "built; its signature names the rows read (`aesop-eval setup pem` rebuilds "
                                     "a default table)")
        return digest

    def signature(self) -> str:
        """The build's signature (bitext hash, aligner, settings) and the digest of the rows read,
        so that tables that differ in any entry never share a signature."""
        return f"{self.meta['signature']}|content:{self.content_hash()[:16]}"

    def lookup(self, phrases: Iterable[Phrase]) -> dict[Phrase, PhraseEntry]:
        """Entries of the phrases in the table: cached ones from memory, the others by one
        ``IN`` query per 500 phrases."""
        get = self._cache.get
        out: dict[Phrase, PhraseEntry] = {}
        missing: list[Phrase] = []
        for p in phrases:
            entry = get(p, _UNKNOWN)
            if entry is _UNKNOWN:
                missing.append(p)
            elif entry is not None:
                out[p] = entry
        if missing:
            found = self._query(missing)
            out.update(found)
            self._remember({p: found.get(p) for p in missing})
        return out

    def items(self) -> Iterator[tuple[Phrase, PhraseEntry]]:
        """Every (phrase, entry) of the table, in key order (for compiling it, see :mod:`.compiled`)."""
        with self._named_errors():
            for src, n, tr in self._connection().execute("SELECT src, n, tr FROM phrase"):
                yield tuple(src.split(" ")), PhraseEntry(n, _decode(tr))

    @contextmanager
    def _named_errors(self):
        """SQLite's complaint about a damaged file as a ResourceError naming the file and the fix."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise ResourceError(f"phrase table {self.path} is damaged ({exc}): rebuild it (`aesop-eval setup pem` "
                                "rebuilds the defaults, `parapeval build-phrase-table` your own)") from exc

    def _query(self, phrases: Sequence[Phrase]) -> dict[Phrase, PhraseEntry]:
        keys = sorted({" ".join(p) for p in phrases})
        con = self._connection()
        out: dict[Phrase, PhraseEntry] = {}
        with self._named_errors():
            for i in range(0, len(keys), _CHUNK):
                chunk = keys[i:i + _CHUNK]
                marks = ",".join("?" * len(chunk))
                for src, n, tr in con.execute(f"SELECT src, n, tr FROM phrase WHERE src IN ({marks})", chunk):
                    out[tuple(src.split(" "))] = PhraseEntry(n, _decode(tr))
        return out

    def _remember(self, entries: Mapping[Phrase, PhraseEntry | None]) -> None:
        """Add look-up results to the cache; past its bound, the oldest entries go (at least half
        of the bound at once, so trimming is rare). Entries are immutable and each step is atomic
        under the GIL, so threads sharing the store at worst repeat a query."""
        cache = self._cache
        cache.update(entries)
        excess = len(cache) - self.cache_phrases
        if excess > 0:
            for key in list(cache)[:max(excess, self.cache_phrases // 2)]:
                cache.pop(key, None)
