"""CoNLL 2015/2016 shared-task relations: one JSON object per line with ``Type``, ``Sense`` and
``Arg1``/``Arg2``/``Connective`` holding ``CharacterSpanList`` and/or ``TokenList``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from coherence.relations import Relation, RelationError, Span
from evalcore.io.textfiles import InputError, decode_text

_CONLL_TYPES = {"Explicit": "Explicit", "Implicit": "Implicit", "AltLex": "AltLex",
                "AltLexC": "AltLexC", "EntRel": "EntRel", "NoRel": "NoRel", "Hypophora": "Hypophora"}


def _spans(part: dict | None, token_offsets: Sequence[Span] | None, where: str) -> tuple[Span, ...]:
    """Character spans of an argument or connective, from character or token lists."""
    if not part:
        return ()
    chars = part.get("CharacterSpanList") or []
    if chars:
        return tuple((int(s), int(e)) for s, e in chars)
    tokens = part.get("TokenList") or []
    if not tokens:
        return ()
    if isinstance(tokens[0], list):  # gold format: [char_start, char_end, doc_tok, sent, tok]
        offsets = [(int(t[0]), int(t[1])) for t in tokens]
    else:
        if token_offsets is None:
            raise RelationError(f"{where}: token indices given but no token offsets to resolve them")
        try:
            offsets = [token_offsets[int(t)] for t in tokens]
        except IndexError:
            raise RelationError(f"{where}: token index out of range") from None
    return _merge(sorted(offsets))


def _merge(offsets: list[Span]) -> tuple[Span, ...]:
    """Join token offsets into spans, merging tokens separated only by whitespace-free gaps <= 1."""
    spans: list[list[int]] = []
    for s, e in offsets:
        if spans and s - spans[-1][1] <= 1:
            spans[-1][1] = max(spans[-1][1], e)
        else:
            spans.append([s, e])
    return tuple((s, e) for s, e in spans)


def parse_object(obj: object, where: str = "", provider: str = "gold",
                 token_offsets: Sequence[Span] | None = None) -> Relation:
    """One CoNLL relation object as a :class:`Relation`."""
    if not isinstance(obj, dict):
        raise RelationError(f"{where}: expected a JSON object")
    rel_type = _CONLL_TYPES.get(obj.get("Type", ""))
    if rel_type is None:
        raise RelationError(f"{where}: unknown relation Type {obj.get('Type')!r}")
    senses = obj.get("Sense") or []
    sense = senses[0] if senses else None
    if rel_type in ("EntRel", "NoRel", "Hypophora") and sense == rel_type:
        sense = None
    conn = obj.get("Connective") or {}
    try:
        return Relation(rel_type=rel_type, sense=sense,
                        arg1=_spans(obj.get("Arg1"), token_offsets, where),
                        arg2=_spans(obj.get("Arg2"), token_offsets, where),
                        connective=_spans(conn, token_offsets, where),
                        connective_text=conn.get("RawText") or None, provider=provider,
                        doc_id=obj.get("DocID"), note=str(obj["ID"]) if "ID" in obj else None)
    except RelationError as exc:
        msg = str(exc)
        raise RelationError(msg if msg.startswith(where) else f"{where}: {msg}") from None


def read_conll_json(path: str | Path, provider: str = "gold",
                    token_offsets: Sequence[Span] | None = None) -> list[Relation]:
    """All relations of a JSON-lines file (a single JSON list is accepted too)."""
    path = Path(path)
    try:
        text = decode_text(path.read_bytes(), path)
    except InputError as exc:
        raise RelationError(str(exc)) from None
    return parse_conll_text(text, str(path), provider, token_offsets)


def parse_conll_text(text: str, where: str = "", provider: str = "gold",
                     token_offsets: Sequence[Span] | None = None) -> list[Relation]:
    """Relations from JSON-lines text (or one JSON list)."""
    return [parse_object(obj, f"{where}:{i}", provider, token_offsets) for i, obj in load_objects(text, where)]


def load_objects(text: str, where: str = "") -> list[tuple[int, object]]:
    """(line number or list position, decoded value) of JSON-lines text (or one JSON list)."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            items = list(enumerate(json.loads(stripped), 1))
        except json.JSONDecodeError as exc:
            raise RelationError(f"{where}: invalid JSON ({exc.msg})") from None
    else:
        items = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    items.append((i, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise RelationError(f"{where}:{i}: invalid JSON ({exc.msg})") from None
    return items


def raw_texts(obj: object) -> dict[str, str]:
    """The ``RawText`` a relation object gives for its connective, Arg1 and Arg2 (non-empty ones)."""
    if not isinstance(obj, dict):
        return {}
    parts = {name: obj.get(name) for name in ("Connective", "Arg1", "Arg2")}
    return {name: p["RawText"] for name, p in parts.items() if isinstance(p, dict) and p.get("RawText")}


def _part(spans: tuple[Span, ...], text: str | None, token_offsets: Sequence[Span] | None) -> dict:
    part: dict = {"CharacterSpanList": [list(s) for s in spans]}
    if text is not None:
        part["RawText"] = " ".join(text[s:e] for s, e in spans)
    if token_offsets is not None:
        part["TokenList"] = [i for i, (s, e) in enumerate(token_offsets)
                             if any(s < ce and cs < e for cs, ce in spans)]
    return part


def to_object(rel: Relation, index: int, text: str | None = None,
              token_offsets: Sequence[Span] | None = None) -> dict:
    """A CoNLL relation object; RawText and TokenList are added when text/tokens are known."""
    conn = _part(rel.connective, text, token_offsets)
    if rel.connective_text and not rel.connective:
        conn["RawText"] = rel.connective_text
    obj: dict[str, object] = {"DocID": rel.doc_id, "ID": index, "Type": rel.rel_type,
           "Sense": [rel.sense or rel.rel_type], "Connective": conn,
           "Arg1": _part(rel.arg1, text, token_offsets), "Arg2": _part(rel.arg2, text, token_offsets)}
    if rel.score is not None:
        obj["Score"] = rel.score
    if rel.provider:
        obj["Provider"] = rel.provider
    return obj


def write_conll_json(relations: Iterable[Relation], path: str | Path | None = None,
                     text: str | None = None, token_offsets: Sequence[Span] | None = None) -> str:
    """Serialise relations as JSON lines; also write them to ``path`` when given."""
    out = "".join(json.dumps(to_object(r, i, text, token_offsets), ensure_ascii=False) + "\n"
                  for i, r in enumerate(relations))
    if path is not None:
        Path(path).write_text(out, "utf-8")
    return out
