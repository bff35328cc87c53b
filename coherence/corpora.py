"""Readers of the public training/benchmark corpora (GDTB and TED-MDB) under the shared data
folder; used by training and benchmarks only, never at parse time."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from coherence.formats.pdtb_pipe import read_pipe
from coherence.relations import Relation
from evalcore.resources.registry import ResourceError

SPLITS = ("train", "dev", "test", "test2")


@dataclass
class GoldDocument:
    """One annotated document: its text and gold relations (plus gold connective spans)."""

    doc_id: str
    text: str
    relations: list[Relation]
    connectives: list[tuple[tuple[int, int], ...]] = field(default_factory=list)


def _require(path: Path, what: str) -> Path:
    if not path.exists():
        raise ResourceError(f"{what} not found at {path}: benchmarks and training need the public "
                            "data folder (../shared/data beside the checkout, or AESOP_SHARED_DATA)")
    return path


def gdtb_splits(gdtb_dir: Path) -> dict[str, list[str]]:
    """Document names per split, from ``splits.md``."""
    splits: dict[str, list[str]] = {}
    current = None
    for line in _require(gdtb_dir / "splits.md", "GDTB splits.md").read_text("utf-8").splitlines():
        head = re.match(r"##\s+(\S+)", line)
        if head:
            current = head.group(1)
            splits[current] = []
        elif current and line.strip().startswith("*"):
            splits[current].append(line.strip().lstrip("*").strip())
    return splits


def is_blanked(text: str) -> bool:
    """Reddit documents ship with every character replaced by underscores."""
    return not re.search(r"[^\s_]", text)


def load_gdtb(gdtb_dir: Path, split: str) -> tuple[list[GoldDocument], list[str]]:
    """The documents of a split with text, and the names skipped because their text is blanked."""
    names = gdtb_splits(gdtb_dir).get(split)
    if names is None:
        raise ValueError(f"unknown GDTB split {split!r}; expected one of {SPLITS}")
    docs, skipped = [], []
    for name in names:
        text = _require(gdtb_dir / "pdtb" / "raw" / "00" / name, "GDTB raw text").read_text("utf-8")
        if is_blanked(text):
            skipped.append(name)
            continue
        rels = read_pipe(gdtb_dir / "pdtb" / "gold" / "00" / name, doc_id=name)
        docs.append(GoldDocument(name, text, rels,
                                 [r.connective for r in rels if r.explicit and r.connective]))
    return docs, skipped


def _token_ranges(value: str) -> list[int]:
    """``"1-6,8-9"`` -> 0-based token indices."""
    out: list[int] = []
    for part in value.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a) - 1, int(b or a)))
    return out


def _leading_connective(unit: list[int], conn_tokens: set[int]) -> set[int]:
    """Connective tokens of a unit whose connective starts within the unit's first three tokens."""
    ordered = sorted(unit)
    if not any(t in conn_tokens for t in ordered[:3]):
        return set()
    return {t for t in ordered if t in conn_tokens}


def _run_spans(tokens: list[int], offsets: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Character spans of the runs of consecutive token indices (a connective's words)."""
    runs: list[list[int]] = []
    for t in sorted(tokens):
        if runs and t == runs[-1][1] + 1:
            runs[-1][1] = t
        else:
            runs.append([t, t])
    return tuple((offsets[a][0], offsets[b][1]) for a, b in runs)


def _token_spans(tokens: Iterable[int], offsets: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Character span of each token, in the given order."""
    return tuple(offsets[a] for a in tokens)


def load_tedm(tedm_dir: Path, split: str = "test") -> list[GoldDocument]:
    """TED-MDB English (DISRPT): text = tokens joined by spaces, connectives from ``Seg=*-Conn``,
    relations from ``.rels``; a relation is Explicit when one unit holds a gold connective token
    within its first three tokens (that unit is Arg2), else Implicit (Arg1 = the earlier unit); Hypophora kept as
    such."""
    tok_path = _require(tedm_dir / f"eng.pdtb.tedm_{split}.tok", "TED-MDB .tok file")
    docs: dict[str, dict] = {}
    order: list[str] = []
    current = None
    for line in tok_path.read_text("utf-8").splitlines():
        if line.startswith("# newdoc_id"):
            current = line.split("=", 1)[1].strip()
            docs[current] = {"words": [], "conn": []}
            order.append(current)
        elif line and not line.startswith("#") and current:
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue
            docs[current]["words"].append(cols[1])
            docs[current]["conn"].append("B-Conn" if "B-Conn" in cols[-1] else
                                         "I-Conn" if "I-Conn" in cols[-1] else "")
    out = {}
    offsets_of: dict[str, list[tuple[int, int]]] = {}
    conn_tokens_of: dict[str, set[int]] = {}
    for name in order:
        words = docs[name]["words"]
        offsets: list[tuple[int, int]] = []
        pos = 0
        for w in words:
            offsets.append((pos, pos + len(w)))
            pos += len(w) + 1
        conns: list[list[int]] = []
        for i, tag in enumerate(docs[name]["conn"]):
            if tag == "B-Conn" or (tag == "I-Conn" and not conns):
                conns.append([i])
            elif tag == "I-Conn":
                conns[-1].append(i)
        out[name] = GoldDocument(name, " ".join(words), [], [_run_spans(c, offsets) for c in conns])
        offsets_of[name] = offsets
        conn_tokens_of[name] = {i for c in conns for i in c}
    rels_path = _require(tedm_dir / f"eng.pdtb.tedm_{split}.rels", "TED-MDB .rels file")
    lines = rels_path.read_text("utf-8").splitlines()
    header = lines[0].split("\t")
    col = {h: i for i, h in enumerate(header)}
    for line in lines[1:]:
        cols = line.split("\t")
        doc = out[cols[col["doc"]]]
        u1, u2 = _token_ranges(cols[col["unit1_toks"]]), _token_ranges(cols[col["unit2_toks"]])
        label = cols[col["orig_label"]]
        conn_tokens = conn_tokens_of[doc.doc_id]
        c1, c2 = _leading_connective(u1, conn_tokens), _leading_connective(u2, conn_tokens)
        tok_spans = partial(_token_spans, offsets=offsets_of[doc.doc_id])
        if label == "Hypophora":
            rel = Relation("Hypophora", None, tok_spans(u1), tok_spans(u2), doc_id=doc.doc_id)
        elif c1 or c2:
            arg2, arg1, conn = (u1, u2, c1) if c1 and not c2 else (u2, u1, c2)
            rel = Relation("Explicit", label, tok_spans(sorted(set(arg1) - conn)),
                           tok_spans(sorted(set(arg2) - conn)), connective=tok_spans(sorted(conn)),
                           doc_id=doc.doc_id)
        else:
            first, second = (u1, u2) if min(u1) <= min(u2) else (u2, u1)
            rel = Relation("Implicit", label, tok_spans(first), tok_spans(second), doc_id=doc.doc_id)
        doc.relations.append(rel)
    return [out[n] for n in order]
