"""Reader for Universal PropBank CoNLL-U files (UP 1.0 and the English EWT release): gold tokens,
lemmas, tags, dependency trees and PropBank frames per sentence, with the document each sentence
belongs to (cross-validation is grouped by document) and gold :class:`FramedSentence` s.

Two column layouts exist in ``../shared/data/srl/up/`` and both are read:
- ``ud`` (English EWT): the 10 UD columns, then the predicate column (roleset or ``_``), then one
  argument column per predicate (labels ``ARG0``, ``ARGM-TMP``...; ``V`` marks the predicate);
- ``up1`` (German, French, Chinese): 8 UD columns (no DEPS/MISC), a ``Y`` flag on predicates, the
  roleset column, then the argument columns (labels ``A0``, ``AM-TMP``... normalised here to
  ``ARG0``, ``ARGM-TMP``).
No CoNLL-U library reads the extra PropBank columns (conllu/pyconll parse 10 fixed fields), so
the few lines below do it, with errors naming file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from mteval.srl.frames import Argument, Frame, FramedSentence

#: predicate kind by universal POS of the predicate token
KIND_OF_UPOS = {"VERB": "verbal", "AUX": "verbal", "NOUN": "nominal", "PROPN": "nominal", "ADJ": "adjectival"}
#: labels that mark the predicate itself (or a split predicate's continuation), not arguments
PREDICATE_LABELS = frozenset({"V", "C-V"})
_SENSE = re.compile(r"\.(\d+|LV)$")
_TOKEN_ID = re.compile(r"^\d+$")
_SKIPPED_ID = re.compile(r"^\d+(-\d+|\.\d+)$")  # multiword ranges and empty nodes
_UP1_LABEL = re.compile(r"^(?P<prefix>(?:[CR]-)?)(?P<core>A(?P<num>[0-9A])|AM(?P<mod>-.+)?)$")


def kind_of(upos: str) -> str:
    """A predicate's kind (verbal, nominal, adjectival, other) from its universal POS tag."""
    return KIND_OF_UPOS.get(upos, "other")


def normalise_label(label: str) -> str:
    """PropBank label in the English form: UP 1.0's ``A0``/``AM-TMP``/``C-A1``/``R-AM-LOC`` become
    ``ARG0``/``ARGM-TMP``/``C-ARG1``/``R-ARGM-LOC``; ``AA`` becomes ``ARGA``; others unchanged."""
    m = _UP1_LABEL.match(label)
    if not m:
        return label
    core = f"ARG{m['num']}" if m["num"] else f"ARGM{m['mod'] or ''}"
    return m["prefix"] + core


@dataclass(frozen=True)
class Predicate:
    """A gold predicate: token index (0-based), roleset (e.g. ``give.01``) and its arguments as
    (head token index, label) pairs in token order."""

    index: int
    roleset: str
    arguments: tuple[tuple[int, str], ...]

    @property
    def lemma(self) -> str:
        """The roleset's lemma (``give.01``, ``make.LV`` -> ``give``, ``make``; a sense-free roleset is
        the lemma itself)."""
        return _SENSE.sub("", self.roleset)


@dataclass(frozen=True)
class UPSentence:
    """One UP sentence: gold tokens and UD annotation (heads 0-based, -1 for the root), its gold
    predicates, and where it comes from (``doc_id`` groups sentences for cross-validation;
    ``annotated`` is False for EWT's ``# propbank = no-up`` sentences, which carry no frames)."""

    sent_id: str
    doc_id: str
    text: str
    words: tuple[str, ...]
    lemmas: tuple[str, ...]
    upos: tuple[str, ...]
    xpos: tuple[str, ...]
    heads: tuple[int, ...]
    deprels: tuple[str, ...]
    space_after: tuple[bool, ...]
    predicates: tuple[Predicate, ...]
    annotated: bool = True

    def __len__(self) -> int:
        return len(self.words)

    def span_of(self, head: int, predicate: int) -> tuple[int, int]:
        """The filler span [start, end) of an argument headed by ``head``: see :func:`filler_span`."""
        return filler_span(self.heads, head, predicate)

    def framed(self) -> FramedSentence:
        """The gold frames: one per predicate (kind from its UPOS), each argument spanning its head's
        gold subtree (without the predicate's branch when the predicate lies inside it)."""
        frames = tuple(
            Frame(p.index, p.lemma, kind_of(self.upos[p.index]),
                  tuple(Argument(label, h, self.span_of(h, p.index)) for h, label in p.arguments))
            for p in self.predicates)
        return FramedSentence(self.words, frames)


def filler_span(heads: Iterable[int], head: int, predicate: int) -> tuple[int, int]:
    """Span [start, end) of the filler headed by ``head``: the tokens of its subtree, less the branch
    holding the predicate when the argument dominates it (a relative clause's head noun, a noun
    predicate's modifier), cut to the contiguous run around the head (MEANT needs one span)."""
    heads = list(heads)
    n = len(heads)
    inside = _dominated(heads, head)
    if predicate != head and inside[predicate]:
        branch = predicate
        while heads[branch] != head:
            branch = heads[branch]
        inside = [a and not b for a, b in zip(inside, _dominated(heads, branch))]
    start = head
    while start > 0 and inside[start - 1]:
        start -= 1
    end = head + 1
    while end < n and inside[end]:
        end += 1
    return start, end


def _dominated(heads: list[int], top: int) -> list[bool]:
    """Whether each token lies in the subtree of ``top`` (a cycle in a bad tree stops the walk)."""
    result = []
    for i in range(len(heads)):
        j, steps = i, 0
        while j >= 0 and j != top and steps <= len(heads):
            j, steps = heads[j], steps + 1
        result.append(j == top)
    return result


def read_up(path: str | Path) -> list[UPSentence]:
    """Every sentence of a UP CoNLL-U file (layout detected per file)."""
    path = Path(path)
    with path.open(encoding="utf-8") as f:
        return parse_up(f, source=str(path))


def parse_up(lines: Iterable[str], source: str = "<string>") -> list[UPSentence]:
    """Sentences from UP CoNLL-U lines; a malformed line raises ``ValueError`` naming source and line."""
    blocks = list(_blocks(lines))
    layout = _layout(blocks)
    sentences: list[UPSentence] = []
    doc = ""
    for number, (first_line, comments, rows) in enumerate(blocks, 1):
        meta = _comments(comments)
        doc = meta.get("newdoc id", doc)
        sent_id = meta.get("sent_id", f"{Path(source).name}#{number}")
        doc_id = doc or _doc_of(sent_id)
        sentences.append(_sentence(rows, layout, sent_id, doc_id, meta, source, first_line))
    return sentences


def _blocks(lines: Iterable[str]) -> Iterator[tuple[int, list[str], list[tuple[int, list[str]]]]]:
    """(first line number, comment lines, token rows with their line numbers) per sentence."""
    comments: list[str] = []
    rows: list[tuple[int, list[str]]] = []
    first = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip():
            if rows:
                yield first, comments, rows
            elif comments and any(c.startswith(("# text", "# sentence-text", "# sent_id")) for c in comments):
                yield first, comments, rows
            comments, rows, first = [], [], 0
            continue
        first = first or number
        if line.startswith("#"):
            comments.append(line)
        else:
            rows.append((number, line.split("\t")))
    if rows:
        yield first, comments, rows


def _layout(blocks: list) -> str:
    """``up1`` when column 9 only ever holds the predicate flag (``Y`` or ``_``) and some row flags a
    predicate or no row is wider than 10 columns; ``ud`` otherwise (the EWT release keeps DEPS and MISC)."""
    token_rows = [row for _, _, rows in blocks for _, row in rows if _TOKEN_ID.match(row[0])]
    col9 = {row[8] for row in token_rows if len(row) > 8}
    widest = max((len(row) for row in token_rows), default=0)
    return "up1" if col9 and col9 <= {"Y", "_"} and ("Y" in col9 or widest == 10) else "ud"


def _comments(comments: list[str]) -> dict[str, str]:
    """``# key = value`` and ``# key: value`` comments as a dict (``sentence-text`` stored as ``text``)."""
    meta: dict[str, str] = {}
    for c in comments:
        body = c[1:].strip()
        m = re.match(r"^([\w\s-]+?)\s*(?:=|:)\s*(.*)$", body) or re.match(r"^(sent_id)\s+(.*)$", body)
        if m:
            key = "text" if m[1] == "sentence-text" else m[1]
            meta[key] = m[2]
    return meta


def _doc_of(sent_id: str) -> str:
    """The document of an EWT-style sentence id (``doc-0003`` -> ``doc``); other ids are their own document."""
    m = re.match(r"^(.+)-\d+$", sent_id)
    return m[1] if m else sent_id


def _sentence(rows, layout: str, sent_id: str, doc_id: str, meta: dict[str, str], source: str,
              first_line: int) -> UPSentence:
    """One sentence from its token rows."""
    ud_cols = 10 if layout == "ud" else 8
    roleset_col = ud_cols if layout == "ud" else 9
    tokens: list[tuple[int, list[str]]] = []
    for number, row in rows:
        if _SKIPPED_ID.match(row[0]):
            continue
        if not _TOKEN_ID.match(row[0]):
            raise ValueError(f"{source}:{number}: token id {row[0]!r} is not a number")
        if len(row) < roleset_col + 1:
            raise ValueError(f"{source}:{number}: {len(row)} columns, a UP row ({layout}) needs at least "
                             f"{roleset_col + 1}")
        if int(row[0]) != len(tokens) + 1:
            raise ValueError(f"{source}:{number}: token id {row[0]} out of sequence (expected {len(tokens) + 1})")
        tokens.append((number, row))
    if not tokens:
        raise ValueError(f"{source}:{first_line}: sentence {sent_id!r} has no tokens")
    n = len(tokens)
    pred_rows = [i for i, (_, row) in enumerate(tokens) if row[roleset_col] not in ("_", "")]
    heads = []
    for number, row in tokens:
        try:
            head = int(row[6]) - 1
        except ValueError:
            raise ValueError(f"{source}:{number}: head {row[6]!r} is not a number") from None
        if not -1 <= head < n:
            raise ValueError(f"{source}:{number}: head {row[6]} outside the sentence ({n} tokens)")
        heads.append(head)
    arguments: list[list[tuple[int, str]]] = [[] for _ in pred_rows]
    for i, (number, row) in enumerate(tokens):
        args = row[roleset_col + 1:]
        while len(args) > len(pred_rows) and args[-1] == "":
            args = args[:-1]
        if len(args) != len(pred_rows):
            raise ValueError(f"{source}:{number}: {len(args)} argument columns for {len(pred_rows)} predicates")
        for k, label in enumerate(args):
            label = normalise_label(label.strip())
            if label not in ("_", "") and label not in PREDICATE_LABELS:
                arguments[k].append((i, label))
    predicates = tuple(Predicate(i, tokens[i][1][roleset_col], tuple(arguments[k])) for k, i in enumerate(pred_rows))
    words = tuple(row[1] for _, row in tokens)
    space_after = tuple("SpaceAfter=No" not in row[9].split("|") if layout == "ud" else True for _, row in tokens)
    return UPSentence(
        sent_id=sent_id, doc_id=doc_id, text=meta.get("text", " ".join(words)), words=words,
        lemmas=tuple(row[2] for _, row in tokens), upos=tuple(row[3] for _, row in tokens),
        xpos=tuple(row[4] for _, row in tokens), heads=tuple(heads), deprels=tuple(row[7] for _, row in tokens),
        space_after=space_after, predicates=predicates, annotated=not meta.get("propbank", "").startswith("no"))
