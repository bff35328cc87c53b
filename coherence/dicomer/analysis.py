"""Preprocessing done once per text: spaCy + discourse parse reduced to what the matrix needs.

An :class:`Analysis` holds the token layout (sentence, span, stemmed open-class term, grid role)
and the relations. Analyses are cached on disk (JSON rows of one SQLite file per parser, keyed by
text hash; saved every :data:`SAVE_EVERY` seconds and on an interrupt) so benchmarks and
retraining do not parse the same text twice; sentence permutations reuse the spaCy analysis of
the original sentences and only re-run the discourse parser.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import sqlite3
import sys
import time
from collections.abc import Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coherence.dicomer.entity_grid import grid_role
from coherence.dicomer.matrix import Token, is_open_class
from coherence.heap import keep_new_objects
from coherence.parser.document import ParsedText, parse_texts
from coherence.relations import Relation
from coherence.sentences import DEFAULT_SENTENCES, effective_mode
from coherence.sentences import parse_texts as parse_with_sentences

CACHE_VERSION = 3
# Texts analysed per batch: large enough that the parser's per-call costs vanish, small enough
# that the spaCy documents of one batch stay a few MiB.
BATCH_TEXTS = 256
# Seconds between saves of new analyses during a long run (an interrupt loses at most this much work).
SAVE_EVERY = 30.0
# Cache files already warned about in this process (one warning each).
_WARNED: set[str] = set()


@dataclass(frozen=True)
class Analysis:
    """What DICOMER and the entity grid read from one text."""

    n_sentences: int
    tokens: tuple[Token, ...]
    relations: tuple[Relation, ...]

    @property
    def empty(self) -> bool:
        return self.n_sentences == 0


@functools.lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter stem of the lowercased word (the signature's ``stem:porter``)."""
    return _stemmer().stem(word.lower())


@functools.lru_cache(maxsize=1024)
def _tag_kind(tag: str) -> tuple[bool, bool]:
    """(open class, noun) of a Penn tag."""
    return is_open_class(tag), tag.startswith("NN")


def layout(pt: ParsedText) -> tuple[Token, ...]:
    """Token layout of a parsed text: open-class tokens get a term, nouns a grid role."""
    out = []
    for sentence, (start, end), word, tag, dep in zip(pt.sent_of, pt.offsets, pt.words, pt.tags, pt.deps):
        open_class, noun = _tag_kind(tag)
        out.append(Token(sentence, start, end, stem(word) if open_class else None, grid_role(dep) if noun else None))
    return tuple(out)


def analyse_batch(pts: Sequence[ParsedText], parser) -> list[Analysis]:
    """Analyses of preprocessed texts, the parser run once over the batch (its classifiers are
    called once per stage, not once per text); empty texts are not parsed."""
    nonempty = [pt for pt in pts if pt.words]
    relations = iter(parser.parse_batch(nonempty) if nonempty else [])
    return [Analysis(len(pt.sentences), layout(pt), tuple(next(relations))) if pt.words else Analysis(0, (), ())
            for pt in pts]


_RELATION_SPANS = ("arg1", "arg2", "connective")
_RELATION_INTS = ("arg1_sentences", "arg2_sentences")


def encode_analysis(analysis: Analysis) -> str:
    """An analysis as JSON (the cache's format: data only, nothing that runs when read)."""
    relations = [{k: getattr(r, k) for k in Relation.__dataclass_fields__} for r in analysis.relations]
    tokens = [[t.sentence, t.start, t.end, t.term, t.grid_role] for t in analysis.tokens]
    return json.dumps({"n": analysis.n_sentences, "tokens": tokens, "relations": relations}, separators=(",", ":"))


def decode_analysis(text: str | bytes) -> Analysis:
    """The analysis of :func:`encode_analysis`; ValueError, KeyError or TypeError when it is not one."""
    data = json.loads(text)
    tokens = tuple(Token(int(s), int(a), int(b), term, role) for s, a, b, term, role in data["tokens"])
    relations = []
    for r in data["relations"]:
        fields = dict(r)
        for k in _RELATION_SPANS:
            fields[k] = tuple((int(a), int(b)) for a, b in fields[k])
        for k in _RELATION_INTS:
            fields[k] = tuple(int(i) for i in fields[k])
        relations.append(Relation(**fields))
    return Analysis(int(data["n"]), tokens, tuple(relations))


def text_key(text: str, sentences: str = "text") -> str:
    """The cache key of ``text`` read in sentence mode ``sentences``
    (:data:`coherence.sentences.SENTENCE_MODES`): its SHA-1, marked ``:lines`` when line breaks end
    its sentences (a text without line breaks has one key in every mode)."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
    return digest + ":lines" if effective_mode(text, sentences) == "lines" else digest


def parser_id(parser) -> str:
    """Provider name, a hash of the parser's source code and, for trained parsers, of the model
    file: caches and trained DICOMER models never silently mix parser versions. Adapters for
    parses made elsewhere are named by their provider alone (nothing of ours to hash)."""
    import coherence.parser as package
    from coherence.parser.pipeline import DiscourseParser

    if not isinstance(parser, DiscourseParser):
        return parser.provider
    code = hashlib.sha256()
    for file in sorted(Path(package.__file__).parent.glob("*.py")):
        code.update(file.read_bytes())
    ident = f"{parser.provider}-code{code.hexdigest()[:8]}"
    if parser.tier == 0:
        return ident
    assert parser.model_sha256 is not None, "a tier-1 parser has a model"
    return f"{ident}-model{parser.model_sha256[:8]}"


class AnalysisCache:
    """Analyses by text hash for one parser: in memory, and on disk (when ``folder`` is given) in
    one SQLite file per parser. Reads are lazy (only the texts asked for), writes incremental
    (only new analyses), and parallel workers can share the file (SQLite locks it).

    The disk is an optimisation only: a cache file that cannot be read (corrupt, not a database)
    or written (read-only, disk full) costs one warning on stderr, then the cache keeps working
    in memory; it never costs a score."""

    def __init__(self, parser, folder: Path | None = None):
        self.parser = parser
        self.path = folder / f"analyses-{parser_id(parser)}-v{CACHE_VERSION}.sqlite" if folder else None
        self.store: dict[str, Analysis] = {}
        self._new: dict[str, Analysis] = {}
        self._saved_at = time.monotonic()

    def _connect(self) -> sqlite3.Connection:
        assert self.path is not None, "a cache without a folder never connects"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=120)
        db.execute("CREATE TABLE IF NOT EXISTS analyses (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        return db

    def _give_up_disk(self, action: str, exc: BaseException) -> None:
        """Continue in memory only, after one warning per cache file and process."""
        path, self.path = self.path, None
        if str(path) not in _WARNED:
            _WARNED.add(str(path))
            hint = "; delete the file to start a new cache" if action == "read" else ""
            print(f"warning: DICOMER parse cache {path} cannot be {action} ({type(exc).__name__}: {exc}); "
                  f"continuing without it (parses are not kept{hint})", file=sys.stderr)

    def _read_rows(self, keys: Sequence[str]) -> list[tuple[str, bytes]]:
        with closing(self._connect()) as db:
            rows = []
            for start in range(0, len(keys), 500):
                part = list(keys[start:start + 500])
                rows += db.execute(f"SELECT key, value FROM analyses WHERE key IN ({','.join('?' * len(part))})",
                                   part).fetchall()
            return rows

    def _load(self, keys: Sequence[str]) -> None:
        """Bring the on-disk analyses of ``keys`` that are not in memory yet into memory; an entry
        that does not decode is left out (parsed again and written over) after one warning."""
        wanted = list(dict.fromkeys(k for k in keys if k not in self.store))
        if not (self.path and wanted and self.path.exists()):
            return
        try:
            rows = self._read_rows(wanted)
        except (OSError, sqlite3.Error) as exc:
            self._give_up_disk("read", exc)
            return
        for key, value in rows:
            try:
                self.store[key] = decode_analysis(value)
            except (ValueError, KeyError, TypeError) as exc:
                if str(self.path) not in _WARNED:
                    _WARNED.add(str(self.path))
                    print(f"warning: DICOMER parse cache {self.path} holds a bad entry ({type(exc).__name__}: "
                          f"{exc}); parsing its text again", file=sys.stderr)

    def _write_rows(self, rows: list[tuple[str, str]]) -> None:
        with closing(self._connect()) as db, db:
            db.executemany("INSERT OR REPLACE INTO analyses (key, value) VALUES (?, ?)", rows)

    def _add(self, key: str, analysis: Analysis) -> None:
        self.store[key] = self._new[key] = analysis

    def remember(self, keys: Sequence[str], analyses: Sequence[Analysis]) -> None:
        """Keep analyses another reader of the same parse made (``readability``), by their
        :func:`text_key`, so DICOMER does not parse those texts again; saved with the others."""
        for key, analysis in zip(keys, analyses):
            if key not in self.store:
                self._add(key, analysis)
        self._checkpoint()

    def analyse(self, texts: Sequence[str], progress: bool = False,
                sentences: str = DEFAULT_SENTENCES) -> list[Analysis]:
        """Analyses of ``texts`` in order, parsing (batched) only the texts not cached yet, their
        sentences read by ``sentences`` (:mod:`coherence.sentences`); ``progress`` shows a bar on an
        interactive terminal for long runs."""
        from evalcore.run.progress import bar

        keys = [text_key(t, sentences) for t in texts]
        self._load(keys)
        todo = list(dict.fromkeys(k for k in keys if k not in self.store))
        if todo:
            by_key = dict(zip(keys, texts))
            with bar(len(todo), progress, unit="text") as pbar, self._saved_on_interrupt():
                for start in range(0, len(todo), BATCH_TEXTS):
                    part = todo[start:start + BATCH_TEXTS]
                    self._analyse_new(part, [by_key[k] for k in part], sentences)
                    keep_new_objects()
                    pbar.update(len(part))
                    self._checkpoint()
        return [self.store[k] for k in keys]

    @contextmanager
    def _saved_on_interrupt(self):
        """Save what was analysed when Ctrl-C (or a failure) ends a run early, then re-raise."""
        try:
            yield
        except BaseException:
            self.save()
            raise

    def _analyse_new(self, keys: Sequence[str], texts: Sequence[str], sentences: str) -> None:
        """Analyse and keep texts not seen yet, in one batch; when the batch fails, one text at a
        time, so every text that can be analysed is kept and the first failure is raised."""
        try:
            analyses = analyse_batch(parse_with_sentences(texts, mode=sentences), self.parser)
        except Exception as batch_error:  # noqa: BLE001 - one bad text must cost only itself: redo them one by one
            if len(texts) == 1:
                raise
            failure = None
            for key, text in zip(keys, texts):
                try:
                    self._add(key, analyse_batch(parse_with_sentences([text], mode=sentences), self.parser)[0])
                except Exception as exc:  # noqa: BLE001 - raised below, once the others are kept
                    failure = failure or exc
            if failure is not None:
                raise failure from batch_error
            return
        for key, analysis in zip(keys, analyses):
            self._add(key, analysis)

    def analyse_permutations(self, texts: Sequence[str], k: int = 20, seed: int = 0,
                             progress: bool = False) -> list[list[Analysis]]:
        """Analyses of up to ``k`` seeded sentence permutations of each text (spaCy runs once
        per original text; the permutation seed depends on the text, not on its position)."""
        from evalcore.run.progress import bar

        plans = []
        for text, original in zip(texts, self.analyse(texts, sentences="text")):
            spans = sentence_spans(original)
            text_seed = (int(text_key(text)[:8], 16) + seed) % 2**32
            orders = permutations(len(spans), k, text_seed)
            plans.append((text, orders, [" ".join(text[slice(*spans[i])] for i in o) for o in orders]))
        self._load([text_key(p) for _, _, ptexts in plans for p in ptexts])
        missing = [(text, orders) for text, orders, ptexts in plans
                   if any(text_key(p) not in self.store for p in ptexts)]
        with bar(sum(len(orders) for _, orders in missing), progress, unit="permutation") as pbar, \
                self._saved_on_interrupt():
            for (_, orders), pt in zip(missing, parse_texts([t for t, _ in missing])):
                permuted = [permuted_parsed(pt, order) for order in orders]
                for ppt, analysis in zip(permuted, analyse_batch(permuted, self.parser)):
                    self._add(text_key(ppt.text), analysis)
                pbar.update(len(orders))
                self._checkpoint()
        return [[self.store[text_key(p)] for p in ptexts] for _, _, ptexts in plans]

    def save(self) -> None:
        """Write the analyses made since the last save (nothing when in memory only); a write that
        fails (read-only file, disk full) turns the disk cache off with one warning."""
        if self.path and self._new:
            rows = [(k, encode_analysis(a)) for k, a in self._new.items()]
            try:
                self._write_rows(rows)
            except (OSError, sqlite3.Error) as exc:
                self._give_up_disk("written", exc)
        self._new.clear()
        self._saved_at = time.monotonic()

    def _checkpoint(self) -> None:
        """Save when :data:`SAVE_EVERY` seconds passed since the last save: a long run that is
        interrupted keeps what it parsed."""
        if time.monotonic() - self._saved_at >= SAVE_EVERY:
            self.save()


def shared_cache(parser) -> AnalysisCache:
    """The analysis cache every command shares for ``parser``: on disk under the suite's cache root
    (``AESOP_CACHE``) when that folder is usable, else in memory after one warning."""
    from evalcore.resources.registry import usable_cache_dir

    return AnalysisCache(parser, usable_cache_dir("dicomer"))


def sentence_spans(analysis: Analysis) -> list[tuple[int, int]]:
    """Character span of each sentence: first token start to last token end."""
    spans: dict[int, list[int]] = {}
    for tok in analysis.tokens:
        span = spans.setdefault(tok.sentence, [tok.start, tok.end])
        span[0], span[1] = min(span[0], tok.start), max(span[1], tok.end)
    return [(spans[s][0], spans[s][1]) for s in sorted(spans)]


def permutations(n: int, k: int, seed: int) -> list[tuple[int, ...]]:
    """Up to ``k`` distinct seeded random orders of ``n`` sentences, never the original order."""
    rng = np.random.default_rng(seed)
    identity = tuple(range(n))
    limit = min(k, math.factorial(n) - 1) if n < 10 else k
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    while len(out) < limit:
        order = tuple(int(i) for i in rng.permutation(n))
        if order != identity and order not in seen:
            seen.add(order)
            out.append(order)
    return out


def permuted_parsed(pt: ParsedText, order: Sequence[int]) -> ParsedText:
    """The text with its sentences in ``order``, reusing the original spaCy analysis."""
    from spacy.tokens import Doc

    pieces = [pt.text[pt.offsets[a][0]:pt.offsets[b - 1][1]] for a, b in pt.sentences]
    text = " ".join(pieces[i] for i in order)
    sents = [pt.doc[a:b].as_doc() for a, b in pt.sentences]
    doc = Doc.from_docs([sents[i] for i in order])
    permuted = ParsedText(text, pt.doc_id, doc)
    if permuted.words != [w.text for w in doc] or len(permuted.sentences) != len(order):
        return ParsedText(text, pt.doc_id)
    return permuted
