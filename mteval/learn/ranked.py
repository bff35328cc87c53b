"""WMT12 human rankings into English and the texts of every ranked output, as the trained MT
metrics (TESLA-F, BEER, RED's tuning) learn from them and report on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mteval.data.wmt12 import Ranking, read_rankings, read_testset
from mteval.metaeval import sample_segments

INTO_ENGLISH = ("cs-en", "de-en", "es-en", "fr-en")
RNK = "wmt12.RNK_results.csv"
HypKey = tuple[str, int, str]  # (pair, 1-based segment, system)
@dataclass
class RankedSet:
    """The ranked outputs: one key and (references, hypothesis) per output, the rankings over them."""

    keys: list[HypKey]
    items: list[tuple[tuple[str, ...], str]]
    rankings: list[Ranking]
    unreadable: list[str]

    def index(self) -> dict[HypKey, int]:
        return {k: i for i, k in enumerate(self.keys)}


#: segments (of the 2,318 ranked into English) that training and the cross-validated reports read
#: by default: 0 = all
DEFAULT_SEGMENTS = 0


def load_ranked_set(root: Path, pairs: Sequence[str] = INTO_ENGLISH, max_segments: int = DEFAULT_SEGMENTS,
                    seed: int = 0) -> RankedSet:
    """Rankings of ``pairs`` (of a seeded sample of ``max_segments`` segments; 0 = all) and the
    texts of every ranked output; an output whose line cannot be read leaves its ranking (named
    in ``unreadable``)."""
    rankings = read_rankings(root / RNK, pairs)
    wanted = set(sample_segments({r.segment for r in rankings}, max_segments, seed))
    rankings = [r for r in rankings if r.segment in wanted]
    testsets = {pair: read_testset(root, pair) for pair in pairs}
    keys: dict[HypKey, tuple[tuple[str, ...], str]] = {}
    kept, unreadable = [], []
    for r in rankings:
        ts = testsets[r.pair]
        given = tuple(ref.lines[r.segment - 1] for ref in ts.references)
        refs = tuple(ref for ref in given if ref is not None)
        systems, ranks = [], []
        for system, rank in zip(r.systems, r.ranks):
            out = ts.systems.get(system)
            line = out.lines[r.segment - 1] if out is not None else None
            if line is None or len(refs) < len(given):
                why = f" ({out.errors.get(r.segment - 1)})" if out else ""
                unreadable.append(f"{r.pair}:{system}:{r.segment}{why}")
                continue
            keys.setdefault((r.pair, r.segment, system), (refs, line))
            systems.append(system)
            ranks.append(rank)
        if len(set(ranks)) > 1:  # a ranking with one output or all ties teaches nothing
            kept.append(Ranking(r.pair, r.segment, r.judge, tuple(systems), tuple(ranks)))
    return RankedSet(list(keys), list(keys.values()), kept, sorted(set(unreadable)))
