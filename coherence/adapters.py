"""Adapters for discourse parses made elsewhere: read precomputed PDTB pipe / CoNLL JSON files,
or run an external parser from a command template, checking the spans fit the text scored."""

from __future__ import annotations

import shlex
import subprocess
import tempfile
from pathlib import Path

from coherence.formats.conll_json import parse_conll_text
from coherence.formats.pdtb_pipe import parse_line
from coherence.relations import Relation, RelationError

FORMATS = ("pipe", "json")


def detect_format(path: Path, content: str) -> str:
    """``json`` for .json/.jsonl files or content opening with ``{``/``[``, else ``pipe``."""
    if path.suffix.lower() in (".json", ".jsonl") or content.lstrip()[:1] in ("{", "["):
        return "json"
    return "pipe"


def parse_output(content: str, fmt: str, where: str, text: str | None = None,
                 doc_id: str | None = None, provider: str | None = None) -> list[Relation]:
    """Relations from an external parse; with ``text``, every span must lie inside it and any
    connective text given must equal the text at its span."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown parse format {fmt!r}; expected one of {FORMATS}")
    provider = provider or f"external:{fmt}"
    if fmt == "pipe":
        rels = [parse_line(line, f"{where}:{i}", provider, doc_id)
                for i, line in enumerate(content.splitlines(), 1) if line.strip()]
    else:
        rels = parse_conll_text(content, where, provider)
    if text is not None:
        for n, rel in enumerate(rels, 1):
            check_spans(rel, text, f"{where}: relation {n}")
    return rels


def check_spans(rel: Relation, text: str, where: str) -> None:
    """Raise :class:`RelationError` when a relation does not refer to ``text``."""
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


def read_parse(path: str | Path, text: str | None = None, fmt: str | None = None,
               doc_id: str | None = None) -> list[Relation]:
    """A precomputed parse file (PDTB pipe or CoNLL JSON), optionally checked against ``text``."""
    path = Path(path)
    try:
        content = path.read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise RelationError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise RelationError(f"{path}: cannot read ({exc.strerror})") from None
    return parse_output(content, fmt or detect_format(path, content), str(path), text,
                        doc_id or path.stem)


class ExternalParser:
    """Runs ``command`` (a template with ``{input}`` and optionally ``{output}``; without
    ``{output}`` the parse is read from stdout) on a text file and reads its pipe/JSON output."""

    def __init__(self, command: str, fmt: str = "pipe", timeout: float = 600.0):
        if "{input}" not in command:
            raise ValueError("external parser command must contain {input}")
        if fmt not in FORMATS:
            raise ValueError(f"unknown parse format {fmt!r}; expected one of {FORMATS}")
        self.command, self.fmt, self.timeout = command, fmt, timeout

    def parse(self, text: str, doc_id: str | None = None) -> list[Relation]:
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
        return parse_output(content, self.fmt, f"{name} (external parser)", text, doc_id,
                            f"external:{self.fmt}")
