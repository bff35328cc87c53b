"""The connective lexicon: PDTB-2's 100 connectives with their level-1 sense counts, plus the
connectives seen in GDTB train; shipped as ``coherence/parser/connectives.json``."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from coherence.relations import LEVEL1
from evalcore.resources import shipped_file
from evalcore.text import tokenize

LEXICON_FILE = ("coherence", "parser", "connectives.json")
_ABBREV = {"Temp": "Temporal", "Cont": "Contingency", "Comp": "Comparison", "Exp": "Expansion"}

# The released Lin parser's syntactic categories (spec 2.3.4); everything else is adverbial.
SUBORDINATORS = frozenset([
    "after", "although", "as", "as if", "as long as", "as soon as", "as though", "because",
    "before", "before and after", "for", "however", "if", "if and when", "insofar as", "lest",
    "much as", "now that", "once", "since", "so", "so that", "though", "till", "unless", "until",
    "when", "when and if", "while"])
COORDINATORS = frozenset(["and", "but", "else", "if..then", "neither..nor", "nor",
                          "on the one hand..on the other hand", "or", "plus", "then", "yet"])
# Tier 0 order of preference when two level-1 classes tie on a connective (documented rule).
TIE_ORDER = ("Expansion", "Contingency", "Comparison", "Temporal")


def category(key: str) -> str:
    """``subordinator``, ``coordinator`` or ``adverbial`` for a connective key."""
    if key in COORDINATORS:
        return "coordinator"
    if key in SUBORDINATORS:
        return "subordinator"
    return "adverbial"


def normalise(text: str) -> str:
    """Connective key: lowercased project tokens joined by spaces; parts of a paired one by ``..``."""
    return "..".join(" ".join(t.lower() for t in tokenize(part)) for part in text.split(".."))


def most_frequent(counts: dict[str, int]) -> str | None:
    """The most frequent level-1 class, ties broken by :data:`TIE_ORDER`."""
    if not counts:
        return None
    return max(counts, key=lambda k: (counts[k], -TIE_ORDER.index(k) if k in TIE_ORDER else -9))


@dataclass(frozen=True)
class Lexicon:
    """Connective keys with PDTB-2 and GDTB-train level-1 counts."""

    pdtb2: dict[str, dict[str, int]]
    gdtb_train: dict[str, dict[str, int]]

    @functools.cached_property
    def tier0_keys(self) -> frozenset[str]:
        return frozenset(self.pdtb2)

    @functools.cached_property
    def tier1_keys(self) -> frozenset[str]:
        """PDTB-2 connectives plus those seen at least twice in GDTB train."""
        seen = {k for k, v in self.gdtb_train.items() if sum(v.values()) >= 2}
        return frozenset(self.pdtb2) | frozenset(seen)

    def mfs_pdtb2(self, key: str) -> str:
        """Tier 0 sense: PDTB-2 most frequent level-1 class, else Expansion."""
        return most_frequent(self.pdtb2.get(key, {})) or "Expansion"

    def mfs_train(self, key: str) -> str:
        """Baseline sense: GDTB-train most frequent, back-off PDTB-2, then Expansion."""
        return most_frequent(self.gdtb_train.get(key, {})) or self.mfs_pdtb2(key)

    def to_json(self) -> dict:
        return {"pdtb2": self.pdtb2, "gdtb_train": self.gdtb_train}


def parse_pdtb2_table(path: Path) -> dict[str, dict[str, int]]:
    """Rows of ``pdtb2_connective_senses.md`` as ``{connective: {level-1: count}}``."""
    out: dict[str, dict[str, int]] = {}
    for line in path.read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[1].isdigit():
            continue
        dist = {}
        for item in cells[4].split(","):
            m = re.match(r"\s*(\w+)\s+(\d+)", item)
            if m:
                dist[_ABBREV.get(m.group(1), m.group(1))] = int(m.group(2))
        out[normalise(cells[0])] = dist
    return out


def build_lexicon(pdtb2_table: Path, train_docs) -> Lexicon:
    """Lexicon from the PDTB-2 table and the explicit connectives of GDTB train documents."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for doc in train_docs:
        for rel in doc.relations:
            if rel.explicit and rel.connective and rel.l1 in LEVEL1:
                key = normalise("..".join(doc.text[s:e] for s, e in rel.connective))
                if key and re.search(r"[a-z]", key):
                    counts[key][rel.l1] += 1
    return Lexicon(parse_pdtb2_table(pdtb2_table), {k: dict(v) for k, v in sorted(counts.items())})


def save_lexicon(lexicon: Lexicon, path: Path) -> None:
    path.write_text(json.dumps(lexicon.to_json(), indent=1, sort_keys=True) + "\n", "utf-8")


@functools.lru_cache(maxsize=4)
def load_lexicon(path: str | None = None) -> Lexicon:
    """The shipped lexicon (or one at ``path``)."""
    p = Path(path) if path else shipped_file(*LEXICON_FILE)
    raw = json.loads(p.read_text("utf-8"))
    return Lexicon(raw["pdtb2"], raw["gdtb_train"])
