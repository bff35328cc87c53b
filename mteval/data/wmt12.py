"""WMT 2012 (newstest2012): the plain-text tree and the 5-way relative rankings (``RNK`` CSV).

Layout: ``sources/newstest2012-src.<src>``, ``references/newstest2012-ref.<tgt>``,
``system-outputs/newstest2012/<pair>/newstest2012.<pair>.<system>``; ``wmt12.RNK_results.csv``
has one row per annotator block: source index (1-based line), five systems and their ranks
(1 best, ties allowed, -1 blank). A block of five yields up to ten pairwise comparisons.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError, read_text
from mteval.data.testset import TestSet, load_testset

PAIRS = ("cs-en", "de-en", "es-en", "fr-en", "en-cs", "en-de", "en-es", "en-fr")
LANGUAGES = {"Czech": "cs", "English": "en", "French": "fr", "German": "de", "Spanish": "es"}
PREFIX = "newstest2012"


def read_testset(root: Path, pair: str) -> TestSet:
    """One pair's source, reference and every system output below ``root`` (the ``wmt12`` folder)."""
    if pair not in PAIRS:
        raise InputError(f"unknown WMT12 pair {pair!r}; choose from {', '.join(PAIRS)}")
    src, tgt = pair.split("-")
    folder = root / "system-outputs" / PREFIX / pair
    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder (is {root} the wmt12 folder?)")
    stem = f"{PREFIX}.{pair}."
    systems = {p.name[len(stem):]: p for p in folder.iterdir() if p.name.startswith(stem)}
    return load_testset(pair, root / "sources" / f"{PREFIX}-src.{src}",
                        [root / "references" / f"{PREFIX}-ref.{tgt}"], systems)


@dataclass(frozen=True)
class Ranking:
    """One annotator's ranking of (up to) five outputs of one segment; rank 1 is best."""

    pair: str
    segment: int  # 1-based line of the test set
    judge: str
    systems: tuple[str, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Comparison:
    """A human pairwise judgment on one segment: ``human`` = +1 if ``a`` was ranked better than
    ``b``, -1 if worse, 0 for a tie."""

    segment: int
    a: str
    b: str
    human: int


def read_rankings(path: Path, pairs: Iterable[str] | None = None) -> list[Ranking]:
    """Rankings of ``path`` (the RNK CSV), optionally only for ``pairs``; blank ranks (-1) are
    dropped with their system; a malformed row is an InputError naming ``file:line``."""
    wanted = set(pairs) if pairs is not None else None
    rows = csv.DictReader(read_text(path).splitlines())
    out = []
    for line, row in enumerate(rows, 2):
        try:
            pair = f"{LANGUAGES[row['srclang']]}-{LANGUAGES[row['trglang']]}"
            segment = int(row["srcIndex"])
            entries = [(row[f"system{k}Id"], int(row[f"system{k}rank"])) for k in range(1, 6)]
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{path}:{line}: not a WMT12 ranking row ({type(exc).__name__}: {exc})") from None
        if wanted is not None and pair not in wanted:
            continue
        kept = [(s, r) for s, r in entries if r > 0]
        out.append(Ranking(pair, segment, row["judgeId"], tuple(s for s, _ in kept), tuple(r for _, r in kept)))
    return out


def comparisons(rankings: Iterable[Ranking]) -> list[Comparison]:
    """Every pairwise comparison the rankings imply (ten per full block), ties included."""
    out = []
    for r in rankings:
        for i in range(len(r.systems)):
            for j in range(i + 1, len(r.systems)):
                if r.systems[i] == r.systems[j]:
                    continue
                diff = r.ranks[j] - r.ranks[i]
                out.append(Comparison(r.segment, r.systems[i], r.systems[j], (diff > 0) - (diff < 0)))
    return out
