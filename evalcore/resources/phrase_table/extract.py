"""Phrase-pair extraction with the consistency heuristic of phrase-based SMT (Koehn et al.
2003; Moses' extract): a pair of spans is kept when no alignment point links a word inside one
span to a word outside the other and at least one point lies inside; unaligned pivot words at
the edges extend the pivot span. Both sides are limited to ``max_len`` words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

Phrase = tuple[str, ...]


def extract_phrase_pairs(e_tokens: Sequence[str], f_tokens: Sequence[str],
                         alignment: set[tuple[int, int]], max_len: int = 4) -> list[tuple[Phrase, Phrase]]:
    """All consistent phrase pairs of one aligned sentence pair (with repetitions)."""
    n_e, n_f = len(e_tokens), len(f_tokens)
    f_of_e: list[list[int]] = [[] for _ in range(n_e)]
    e_of_f: list[list[int]] = [[] for _ in range(n_f)]
    for e, f in alignment:
        if 0 <= e < n_e and 0 <= f < n_f:
            f_of_e[e].append(f)
            e_of_f[f].append(e)
    f_aligned = [bool(es) for es in e_of_f]
    pairs: list[tuple[Phrase, Phrase]] = []
    for e_start in range(n_e):
        f_min, f_max = n_f, -1
        for e_end in range(e_start, min(n_e, e_start + max_len)):
            for f in f_of_e[e_end]:
                f_min, f_max = min(f_min, f), max(f_max, f)
            if f_max < 0 or f_max - f_min >= max_len:
                continue
            if any(e < e_start or e > e_end for f in range(f_min, f_max + 1) for e in e_of_f[f]):
                continue
            e_phrase = tuple(e_tokens[e_start:e_end + 1])
            fs = f_min
            while True:
                fe = f_max
                while fe - fs < max_len:
                    pairs.append((e_phrase, tuple(f_tokens[fs:fe + 1])))
                    fe += 1
                    if fe >= n_f or f_aligned[fe]:
                        break
                fs -= 1
                if fs < 0 or f_aligned[fs] or f_max - fs >= max_len:
                    break
    return pairs


def count_phrase_pairs(corpus: Iterable[tuple[Sequence[str], Sequence[str], set[tuple[int, int]]]],
                       max_len: int = 4) -> Counter:
    """N(e, f) over an aligned corpus of (English tokens, pivot tokens, alignment)."""
    counts: Counter = Counter()
    for e_tokens, f_tokens, alignment in corpus:
        counts.update(extract_phrase_pairs(e_tokens, f_tokens, alignment, max_len))
    return counts
