"""PDTB pipe-delimited standoff: PDTB-3/GDTB 34-field lines (read and write) and the PDTB-2
48-field lines of the Lin parser and its ports (read only)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from coherence.relations import Relation, RelationError, format_spans, parse_spans
from evalcore.io.textfiles import InputError, decode_text

PDTB3_FIELDS = 34
PDTB2_FIELDS = 48
NOTE_PREFIX = "coherence::"  # field 32 of lines we write: the name of the text parsed
# Raw-text fields of PDTB-2 lines (PDTB-3 lines carry no argument text).
PDTB2_RAW_FIELDS = {"Connective": 5, "Arg1": 24, "Arg2": 34}


def parse_line(line: str, where: str = "", provider: str = "gold",
               doc_id: str | None = None) -> Relation:
    """One pipe line (34 or 48 fields) as a :class:`Relation`; errors name ``where``."""
    fields = line.rstrip("\r\n").split("|")
    try:
        if len(fields) == PDTB3_FIELDS:
            rel_type, sense = fields[0], fields[8] or None
            conn, conn_text = parse_spans(fields[1], where), fields[7]
            arg1, arg2 = parse_spans(fields[14], where), parse_spans(fields[20], where)
            note = fields[32] or None
        elif len(fields) == PDTB2_FIELDS:
            rel_type, sense = fields[0], fields[11] or None
            conn = parse_spans(fields[3], where)
            conn_text = fields[5] if fields[5] else fields[9]
            arg1, arg2 = parse_spans(fields[22], where), parse_spans(fields[32], where)
            note = None
        else:
            raise RelationError(f"{where}: expected {PDTB3_FIELDS} or {PDTB2_FIELDS} "
                                f"pipe-separated fields, found {len(fields)}")
        if rel_type in ("EntRel", "NoRel", "Hypophora") and sense == rel_type:
            sense = None
        return Relation(rel_type=rel_type, sense=sense, arg1=arg1, arg2=arg2, connective=conn,
                        connective_text=None if conn_text in ("", "_") else conn_text,
                        provider=provider, doc_id=doc_id, note=note)
    except RelationError as exc:
        msg = str(exc)
        raise RelationError(msg if msg.startswith(where) else f"{where}: {msg}") from None


def raw_texts(line: str) -> dict[str, str]:
    """The raw text a pipe line gives for its connective, Arg1 and Arg2 (non-empty ones only)."""
    fields = line.rstrip("\r\n").split("|")
    if len(fields) != PDTB2_FIELDS:
        return {}
    return {part: fields[i] for part, i in PDTB2_RAW_FIELDS.items() if fields[i]}


def read_pipe(path: str | Path, provider: str = "gold", doc_id: str | None = None) -> list[Relation]:
    """All relations of a pipe file; ``doc_id`` defaults to the file name."""
    path = Path(path)
    doc_id = doc_id or path.name
    try:
        lines = decode_text(path.read_bytes(), path).splitlines()
    except InputError as exc:
        raise RelationError(str(exc)) from None
    return [parse_line(line, f"{path}:{i}", provider, doc_id)
            for i, line in enumerate(lines, 1) if line.strip()]


def format_line(rel: Relation) -> str:
    """A 34-field GDTB-style line; field 31 is the anchor (connective spans, else Arg2 start)."""
    fields = [""] * PDTB3_FIELDS
    fields[0] = rel.rel_type
    fields[1] = format_spans(rel.connective)
    fields[7] = rel.connective_text or "_"
    fields[8] = rel.sense or rel.rel_type
    fields[14] = format_spans(rel.arg1)
    fields[20] = format_spans(rel.arg2)
    if rel.connective:
        fields[31] = fields[1]
    elif rel.arg2:
        fields[31] = str(rel.arg2[0][0])
    fields[32] = rel.note or (f"{NOTE_PREFIX}{rel.doc_id}" if rel.doc_id else "")
    return "|".join(fields)


def write_pipe(relations: Iterable[Relation], path: str | Path | None = None) -> str:
    """Serialise relations as pipe lines; also write them to ``path`` when given."""
    text = "".join(format_line(r) + "\n" for r in relations)
    if path is not None:
        Path(path).write_text(text, "utf-8")
    return text
