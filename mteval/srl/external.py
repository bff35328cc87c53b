"""Frames from elsewhere: read the output of another labeller (CoNLL-U with PropBank columns as
Universal PropBank stores them, or the JSON form of :class:`FramedSentence`, one object a line or a
JSON array), and write the suite's own frames in both forms (``mteval srl``), so MEANT can score
with a better labeller than the shipped one. Errors name file and line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from mteval.srl.features import Parsed
from mteval.srl.frames import FramedSentence
from mteval.srl.up import parse_up

FORMATS = ("conllu", "json")


def format_of(path: str | Path, declared: str | None = None) -> str:
    """The frame format of a file: ``declared``, else by extension (``.conllu``/``.conll``: conllu;
    ``.json``/``.jsonl``: json), else an error asking for one."""
    if declared:
        if declared not in FORMATS:
            raise ValueError(f"frame format must be one of {', '.join(FORMATS)}, got {declared!r}")
        return declared
    suffix = Path(path).suffix.lower()
    if suffix in (".conllu", ".conll"):
        return "conllu"
    if suffix in (".json", ".jsonl"):
        return "json"
    raise ValueError(f"{path}: cannot tell the frame format from the extension; say conllu or json")


def read_frames(path: str | Path, fmt: str | None = None) -> list[FramedSentence]:
    """Every sentence's frames from an external labeller's file."""
    fmt = format_of(path, fmt)
    with Path(path).open(encoding="utf-8") as f:
        lines = f.readlines()
    return parse_conllu(lines, str(path)) if fmt == "conllu" else parse_json(lines, str(path))


def parse_conllu(lines: Sequence[str], source: str = "<string>") -> list[FramedSentence]:
    """Frames of CoNLL-U lines with PropBank columns (argument spans from the file's own tree)."""
    return [s.framed() for s in parse_up(lines, source)]


def parse_json(lines: Sequence[str], source: str = "<string>") -> list[FramedSentence]:
    """Frames of JSON lines (one FramedSentence object a line; blank lines skipped) or of one JSON
    array of such objects; a bad object raises ``ValueError`` naming its line."""
    text = "".join(lines)
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{source}:{exc.lineno}: not valid JSON ({exc.msg})") from None
        starts = _array_item_lines(lines, len(items))
        return [_sentence(item, source, line) for item, line in zip(items, starts)]
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{source}:{number}: not valid JSON ({exc.msg})") from None
        out.append(_sentence(item, source, number))
    return out


def _array_item_lines(lines: Sequence[str], n: int) -> list[int]:
    """Best-effort line numbers of a JSON array's items (the lines that open an object at depth 1);
    the first line where they cannot be told apart."""
    starts, depth = [], 0
    for number, line in enumerate(lines, 1):
        for ch in line:
            if ch in "[{":
                if ch == "{" and depth == 1:
                    starts.append(number)
                depth += 1
            elif ch in "]}":
                depth -= 1
    return starts if len(starts) == n else [1] * n


def _sentence(item, source: str, line: int) -> FramedSentence:
    """One FramedSentence from its JSON object, errors naming the line."""
    if not isinstance(item, dict):
        raise ValueError(f"{source}:{line}: expected a JSON object with tokens and frames, got {type(item).__name__}")
    try:
        return FramedSentence.from_json(item)
    except KeyError as exc:
        raise ValueError(f"{source}:{line}: missing field {exc.args[0]!r}") from None
    except (TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"{source}:{line}: {exc}") from None


def to_json_lines(sentences: Sequence[FramedSentence]) -> str:
    """One JSON object per sentence, a line each (what :func:`parse_json` reads back)."""
    return "".join(json.dumps(s.to_json(), ensure_ascii=False) + "\n" for s in sentences)


def to_conllu(sentences: Sequence[FramedSentence], parsed: Sequence[Parsed],
              texts: Sequence[str] | None = None) -> str:
    """CoNLL-U in the UP English layout: 10 UD columns from the spaCy parse the frames were labelled
    on (lemma, tags, tree), the predicate column (sense-free: the lemma) and one argument column
    per predicate with the role on the argument's head token (``V`` on the predicate). Read back,
    spans come from that tree (the JSON form keeps the labeller's spans exactly)."""
    blocks = []
    for k, (sent, p) in enumerate(zip(sentences, parsed)):
        lines = [f"# sent_id = {k + 1}"]
        if texts:
            lines.append(f"# text = {' '.join(texts[k].split())}")
        preds = {f.predicate: f for f in sent.frames}
        columns = [{f.predicate: "V", **{a.head: a.role for a in f.arguments}} for f in sent.frames]
        for i, word in enumerate(sent.tokens):
            ud = [p.lemmas[i], p.pos[i], p.tags[i] or "_", "_", str(p.heads[i] + 1), p.deps[i].lower() or "dep",
                  "_", "_"]
            roleset = preds[i].lemma if i in preds else "_"
            lines.append("\t".join([str(i + 1), word, *ud, roleset, *(c.get(i, "_") for c in columns)]))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
