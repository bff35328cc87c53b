"""Best segmentation of a sentence into phrases: argmax over segmentations of prod Pr(p_i),
Pr(p) = N(p) / sum_p' N(p') (PEM, Liu et al. 2010, eq. 1-2), by dynamic programming.

Any single word is a valid phrase; an unseen word counts N(w) = 0.5. Longer phrases must be in
the table. The product strongly prefers long phrases, as the paper notes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from evalcore.bpng.table import Phrase, PhraseEntry, PhraseTable

UNSEEN_COUNT = 0.5


def candidate_phrases(tokens: Sequence[str], max_len: int = 4) -> list[Phrase]:
    """Every contiguous span of at most ``max_len`` tokens (what a segmentation may use)."""
    toks = tuple(tokens)
    return [toks[i:j] for i in range(len(toks)) for j in range(i + 1, min(len(toks), i + max_len) + 1)]


def segment(tokens: Sequence[str], table: PhraseTable, max_len: int = 4,
            entries: dict[Phrase, PhraseEntry] | None = None) -> list[tuple[int, int]]:
    """Spans (start, end) of the most probable segmentation of ``tokens``.

    ``entries`` may pass a lookup already done for :func:`candidate_phrases`; ties go to the
    segmentation whose last phrase is longest, so the result is deterministic.
    """
    toks = tuple(tokens)
    n = len(toks)
    if n == 0:
        return []
    if entries is None:
        entries = table.lookup(candidate_phrases(toks, max_len))
    log_total = math.log(max(table.total, 1.0))
    best = [0.0] + [-math.inf] * n
    back = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(max(0, end - max_len), end):
            entry = entries.get(toks[start:end])
            if entry is not None and entry.count > 0:
                count = entry.count
            elif end - start == 1:
                count = UNSEEN_COUNT
            else:
                continue
            score = best[start] + math.log(count) - log_total
            if score > best[end]:
                best[end], back[end] = score, start
    spans: list[tuple[int, int]] = []
    end = n
    while end > 0:
        spans.append((back[end], end))
        end = back[end]
    return spans[::-1]
