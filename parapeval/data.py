"""Public human-judgement data sets read by `parapeval train` and `python -m benchmarks parapeval` (never at
scoring time): Twitter-Para pairs with their source groups and folds, STS-B test pairs."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError, read_text
from evalcore.resources.registry import ResourceError, shared_data_dir

#: what a model trained on Twitter-Para inherits (recorded in its model header)
TWITTER_PARA_LICENCE = "Twitter-Para (ParaScore release): Apache-2.0 container; tweet text for research use"


@dataclass(frozen=True)
class ScoredPair:
    original: str
    paraphrase: str
    score: float


def twitter_para_path(data: str | Path | None = None) -> Path:
    """twitter_para.jsonl in ``data`` (a folder or the file) or in ../shared/data/paraphrase."""
    base = Path(data) if data else shared_data_dir() / "paraphrase"
    for cand in (base, base / "twitter_para.jsonl", base / "twitter_para" / "twitter_para.jsonl",
                 base / "paraphrase" / "twitter_para" / "twitter_para.jsonl"):
        if cand.is_file():
            return cand
    raise ResourceError(f"Twitter-Para (twitter_para.jsonl) not found under {base}")


def _scored_pairs(line: str) -> list[ScoredPair]:
    """The (source, candidate, score) triples of one Twitter-Para JSONL line."""
    rec = json.loads(line)
    return [ScoredPair(str(rec["source"]), str(c["text"]), float(c["score"])) for c in rec["candidates"]]


def read_twitter_para(path: str | Path) -> list[ScoredPair]:
    """Every (source, candidate, human score) of Twitter-Para, in file order; a malformed line
    or a file without pairs is an InputError naming it."""
    pairs = []
    for number, line in enumerate(read_text(path).split("\n"), 1):
        if line.strip():
            try:
                pairs.extend(_scored_pairs(line))
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"{path}:{number}: not a Twitter-Para record "
                                 f"(source, candidates with text and score): {exc!r}") from None
    if not pairs:
        raise InputError(f"{path}: no scored pairs")
    return pairs


def source_folds(pairs: list[ScoredPair], k: int = 5) -> list[int]:
    """Fold of each pair: index of its source in the sorted list of distinct sources, mod k."""
    order = {s: i for i, s in enumerate(sorted({p.original for p in pairs}))}
    return [order[p.original] % k for p in pairs]


def read_sts_test(data: str | Path | None = None) -> list[ScoredPair]:
    """STS-B test split (score 0..5) from sts-test.csv (tab-separated, quotes not special)."""
    base = Path(data) if data else shared_data_dir() / "paraphrase"
    for cand in (base / "stsbenchmark" / "sts-test.csv", base / "paraphrase" / "stsbenchmark" / "sts-test.csv",
                 base / "sts-test.csv"):
        if cand.is_file():
            with open(cand, encoding="utf-8") as fh:
                rows = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
                return [ScoredPair(r[5], r[6], float(r[4])) for r in rows if len(r) >= 7]
    raise ResourceError(f"STS-B (stsbenchmark/sts-test.csv) not found under {base}")
