"""Adapters for discourse parses made elsewhere: read precomputed PDTB pipe / CoNLL JSON files,
or run an external parser from a command template, checking the parse fits the text scored.
Relations from adapters get sentence indices from the project's own sentence split."""

from __future__ import annotations

import re
import shlex
import subprocess
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from coherence.formats import conll_json, pdtb_pipe
from coherence.parser.document import ParsedText
from coherence.relations import Relation, RelationError, format_spans
from evalcore.io.textfiles import read_text

FORMATS = ("pipe", "json")
SUFFIXES = (".pipe", ".json", ".jsonl")


def detect_format(path: Path, content: str) -> str:
    """``json`` for .json/.jsonl files or content opening with ``{``/``[``, else ``pipe``."""
    if path.suffix.lower() in (".json", ".jsonl") or content.lstrip()[:1] in ("{", "["):
        return "json"
    return "pipe"


def parse_output(content: str, fmt: str, where: str, text: str | None = None,
                 doc_id: str | None = None, provider: str | None = None) -> list[Relation]:
    """Relations from an external parse; with ``text``, every span must lie inside it and the
    connective and argument text the format carries must equal the text at its span."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown parse format {fmt!r}; expected one of {FORMATS}")
    provider = provider or f"external:{fmt}"
    if fmt == "pipe":
        lines = [(i, line) for i, line in enumerate(content.splitlines(), 1) if line.strip()]
        rels = [pdtb_pipe.parse_line(line, f"{where}:{i}", provider, doc_id) for i, line in lines]
        raws = [pdtb_pipe.raw_texts(line) for _, line in lines]
    else:
        objs = conll_json.load_objects(content, where)
        rels = [conll_json.parse_object(obj, f"{where}:{i}", provider) for i, obj in objs]
        raws = [conll_json.raw_texts(obj) for _, obj in objs]
    if text is not None:
        for n, (rel, raw) in enumerate(zip(rels, raws), 1):
            check_spans(rel, text, f"{where}: relation {n}", raw)
    return rels


def check_spans(rel: Relation, text: str, where: str, raw: dict[str, str] | None = None) -> None:
    """Raise :class:`RelationError` when a relation does not refer to ``text``: a span past its
    end, or a connective or ``raw`` text (by part: Connective, Arg1, Arg2) unlike its span's text."""
    for s, e in rel.arg1 + rel.arg2 + rel.connective:
        if e > len(text):
            raise RelationError(f"{where}: span {s}..{e} lies outside the text "
                                f"({len(text)} characters): the parse belongs to another text")
    if rel.connective and rel.connective_text and rel.rel_type == "Explicit":
        found = " ".join(text[s:e] for s, e in rel.connective).split()
        given = rel.connective_text.replace("..", " ").split()
        if [w.lower() for w in found] != [w.lower() for w in given]:
            raise RelationError(f"{where}: connective {rel.connective_text!r} does not match the "
                                f"text at its span ({' '.join(found)!r}): text mismatch")
    spans = {"Connective": rel.connective, "Arg1": rel.arg1, "Arg2": rel.arg2}
    for part, raw_text in (raw or {}).items():
        pieces = [text[s:e] for s, e in spans[part]]
        if pieces and not _same_text(raw_text, pieces):
            raise RelationError(f"{where}: {part} text {_clip(raw_text)!r} differs from the text at "
                                f"{format_spans(spans[part])} ({_clip(' '.join(pieces))!r}): text mismatch")


def _same_text(given: str, pieces: Sequence[str]) -> bool:
    """Whether ``given`` is the pieces in order, whitespace ignored and any separator allowed
    between discontinuous pieces (tools join them with a space, ``#`` or ``...``)."""
    pattern = ".*?".join(re.escape("".join(p.split())) for p in pieces)
    return re.fullmatch(pattern, "".join(given.split()), re.S) is not None


def _clip(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[:n] + "..."


def check_document(rels: Sequence[Relation], doc_id: str, where: str) -> None:
    """Raise :class:`RelationError` when a line written by ``coherence parse`` names another text."""
    for n, rel in enumerate(rels, 1):
        note = rel.note or ""
        named = note[len(pdtb_pipe.NOTE_PREFIX):]
        if note.startswith(pdtb_pipe.NOTE_PREFIX) and Path(named).stem != Path(doc_id).stem:
            raise RelationError(f"{where}: relation {n} was written for {named}, not {doc_id}: "
                                "the parse belongs to another text")


def read_parse(path: str | Path, text: str | None = None, fmt: str | None = None,
               doc_id: str | None = None) -> list[Relation]:
    """A precomputed parse file (PDTB pipe or CoNLL JSON), optionally checked against ``text``."""
    path = Path(path)
    content = read_text(path)
    doc_id = doc_id or path.stem
    rels = parse_output(content, fmt or detect_format(path, content), str(path), text, doc_id)
    if text is not None:
        check_document(rels, doc_id, str(path))
    return rels


class RelationAdapter(ABC):
    """Relations made elsewhere, with the interface of the built-in parser (``parse``,
    ``parse_parsed``, ``parse_batch``, ``provider``); sentence indices come from the project's sentence split."""

    provider: str

    @abstractmethod
    def relations(self, text: str, doc_id: str | None) -> list[Relation]:
        """The relations of ``text``, checked against it, without sentence indices."""

    def parse(self, text: str, doc_id: str | None = None) -> list[Relation]:
        """Relations of one text, with sentence indices."""
        return self.parse_parsed(ParsedText(text, doc_id))

    def parse_parsed(self, pt: ParsedText) -> list[Relation]:
        """Relations of a preprocessed text, with sentence indices."""
        return [r.with_sentences(pt.sentence_of_offset) for r in self.relations(pt.text, pt.doc_id)]

    def parse_batch(self, pts: Sequence[ParsedText]) -> list[list[Relation]]:
        """Relations of each preprocessed text (each parse made elsewhere is read on its own)."""
        return [self.parse_parsed(pt) for pt in pts]


class PrecomputedParses(RelationAdapter):
    """Parse files in ``folder`` named after the text: ``<stem>`` or ``<file name>`` (as
    ``coherence parse --out`` writes them) plus ``.pipe``, ``.json`` or ``.jsonl``."""

    provider = "precomputed"

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def find(self, doc_id: str) -> Path:
        """The one parse file of the text named ``doc_id``; none or several is an error."""
        name = Path(doc_id).name
        names = [base + suffix for base in dict.fromkeys((Path(name).stem, name)) for suffix in SUFFIXES]
        found = [self.folder / n for n in names if (self.folder / n).is_file()]
        if not found:
            raise RelationError(f"{doc_id}: no precomputed parse in {self.folder} (looked for {', '.join(names)})")
        if len(found) > 1:
            raise RelationError(f"{doc_id}: several precomputed parses in {self.folder} "
                                f"({', '.join(p.name for p in found)}): keep one")
        return found[0]

    def relations(self, text: str, doc_id: str | None) -> list[Relation]:
        if not doc_id:
            raise RelationError("precomputed parses are found by file name: the text has none")
        return read_parse(self.find(doc_id), text, doc_id=Path(doc_id).name)


class ExternalParser(RelationAdapter):
    """Runs ``command`` (a template with ``{input}`` and optionally ``{output}``; without
    ``{output}`` the parse is read from stdout) on a text file and reads its pipe/JSON output."""

    def __init__(self, command: str, fmt: str = "pipe", timeout: float = 600.0):
        if "{input}" not in command:
            raise ValueError("external parser command must contain {input}")
        if fmt not in FORMATS:
            raise ValueError(f"unknown parse format {fmt!r}; expected one of {FORMATS}")
        self.command, self.fmt, self.timeout = command, fmt, timeout
        self.provider = f"external:{fmt}"

    def relations(self, text: str, doc_id: str | None) -> list[Relation]:
        name = doc_id or "text"
        with tempfile.TemporaryDirectory(prefix="coherence-ext-") as tmp:
            inp, out = Path(tmp) / "input.txt", Path(tmp) / f"output.{self.fmt}"
            inp.write_text(text, "utf-8")
            args = [a.format(input=inp, output=out) for a in shlex.split(self.command)]
            try:
                proc = subprocess.run(args, capture_output=True, timeout=self.timeout, check=False)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise RelationError(f"{name}: external parser {args[0]!r} failed to run: {exc}") from None
            if proc.returncode != 0:
                err = proc.stderr.decode("utf-8", "replace").strip()[-500:]
                raise RelationError(f"{name}: external parser exited with {proc.returncode}: {err}")
            raw = out.read_bytes() if "{output}" in self.command else proc.stdout
            try:
                content = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise RelationError(f"{name}: external parser output is not UTF-8") from None
        return parse_output(content, self.fmt, f"{name} (external parser)", text, doc_id, self.provider)
