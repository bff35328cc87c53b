"""The clipped overlap of two texts' ordered word pairs, counted without listing the pairs.

A skip-bigram family whose window covers a whole text (upstream's ``skip1000000``) has every
ordered pair ``(w_i, w_j)``, ``i < j``, as a piece: n (n - 1) / 2 of them, so listing them costs
time and memory quadratic in the text's length. The overlap the features need is
``sum over (a, b) of min(X[a, b], Y[a, b])`` with ``X[a, b] = #{i < j: x_i = a, x_j = b}``;
:func:`ordered_pair_overlap` computes it from word positions:

- only words both texts contain can form a shared pair, and deleting the other words keeps every
  count of a shared pair (order is all that matters), so both texts are first reduced to them;
- a pair of words that each occur once in each text counts 1 when the two texts order them alike:
  concordant pairs, i.e. all pairs less the inversions of one order against the other
  (a merge count, O(m log^2 m));
- every pair with a repeated word (repeated in either text) is counted from that word's row or
  column of X and Y, built from prefix counts with one ``bincount`` per block of repeated words.

Cost O(n log^2 n + r (n + v)) time and O(n + v) memory for n words, v shared words of which r
repeat: near-linear when few words repeat, and bounded by vectorised O(n^2 / 2) at worst
(every word exactly twice), never the quadratic list of pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np

#: below this many (x pairs + y pairs) the pairs are listed and counted directly (the definition)
LIST_PAIRS_BELOW = 4096
#: cells of one block's (repeated words x positions) arrays
BLOCK_CELLS = 1 << 21


def listed_overlap(xs: Sequence[str], ys: Sequence[str]) -> int:
    """The overlap by listing every ordered pair of both texts (the definition; quadratic)."""
    cx, cy = Counter(combinations(xs, 2)), Counter(combinations(ys, 2))
    if len(cx) > len(cy):
        cx, cy = cy, cx
    return sum(min(c, cy[k]) for k, c in cx.items() if k in cy)


def ordered_pair_overlap(xs: Sequence[str], ys: Sequence[str]) -> int:
    """``sum over word pairs (a, b) of min(X[a, b], Y[a, b])`` (see the module docstring)."""
    if len(xs) * (len(xs) - 1) + len(ys) * (len(ys) - 1) < 2 * LIST_PAIRS_BELOW:
        return listed_overlap(xs, ys)
    ids = {w: k for k, w in enumerate(set(xs) & set(ys))}
    if not ids:
        return 0
    x = np.fromiter((ids[w] for w in xs if w in ids), dtype=np.int64)
    y = np.fromiter((ids[w] for w in ys if w in ids), dtype=np.int64)
    v = len(ids)
    fx, fy = np.bincount(x, minlength=v), np.bincount(y, minlength=v)
    once = (fx == 1) & (fy == 1)
    return _concordant_once(x, y, once, v) + _repeated_rows(x, y, np.flatnonzero(~once), once, v)


def _concordant_once(x: np.ndarray, y: np.ndarray, once: np.ndarray, v: int) -> int:
    """Pairs of words occurring once in each text, ordered alike in both."""
    px, py = np.full(v, -1), np.full(v, -1)
    px[x], py[y] = np.arange(len(x)), np.arange(len(y))
    words = np.flatnonzero(once)
    order = py[words[np.argsort(px[words], kind="stable")]]
    m = len(order)
    return m * (m - 1) // 2 - inversions(np.argsort(np.argsort(order, kind="stable"), kind="stable"))


def inversions(ranks: np.ndarray) -> int:
    """Pairs i < j with ranks[i] > ranks[j], for a permutation of 0..m-1 (bottom-up merge count:
    each level counts, for every element of a right block, the greater elements of its left block)."""
    m = len(ranks)
    arr = np.asarray(ranks, dtype=np.int64).copy()
    pos = np.arange(m)
    total, width = 0, 1
    while width < m:
        pair = pos // (2 * width)
        keys = arr + pair * m                  # within-pair order, pairs kept apart
        left = (pos // width) % 2 == 0
        left_keys = keys[left]                 # sorted: blocks are sorted and offsets increase
        right = ~left
        below = np.searchsorted(left_keys, keys[right], side="right")
        block_start = np.searchsorted(left_keys, pair[right] * m, side="left")
        n_left = np.minimum(width, m - pair[right] * 2 * width)
        total += int(np.sum(n_left - (below - block_start)))
        arr = np.sort(keys) - pair * m         # merge every pair of blocks
        width *= 2
    return total


def _repeated_rows(x: np.ndarray, y: np.ndarray, repeated: np.ndarray, once: np.ndarray, v: int) -> int:
    """Pairs (a, b) with a repeated (row a of X and Y, every b) plus pairs with b repeated and
    a occurring once in each text (column b, those a)."""
    total = 0
    block = max(1, BLOCK_CELLS // (max(len(x), len(y)) + v))
    slots_x, slots_y = (np.arange(min(block, len(repeated)))[:, None] * v + s[None, :] for s in (x, y))
    for start in range(0, len(repeated), block):
        words = repeated[start:start + block]
        rows_x, cols_x = _rows_and_columns(x, words, once, slots_x[:len(words)], v)
        rows_y, cols_y = _rows_and_columns(y, words, once, slots_y[:len(words)], v)
        total += int(np.minimum(rows_x, rows_y).sum())
        if cols_x is not None and cols_y is not None:
            total += int(np.minimum(cols_x, cols_y).sum())
    return total


def _rows_and_columns(seq: np.ndarray, words: np.ndarray, once: np.ndarray, slots: np.ndarray,
                      v: int) -> tuple[np.ndarray, np.ndarray | None]:
    """For each word a of ``words``: X[a, b] for every b (occurrences of a before each b), and
    X[b', a] for every b' in ``once`` (occurrences of a after b'; None when no word occurs
    once), as (len(words) x v) arrays; ``slots[k, q]`` = k v + seq[q], the cell position q adds to."""
    hits = seq[None, :] == words[:, None]
    inclusive = np.cumsum(hits, axis=1, dtype=np.int32)
    size = len(words) * v
    rows = np.bincount(slots.ravel(), weights=(inclusive - hits).ravel(), minlength=size).reshape(len(words), v)
    at_once = once[seq]
    if not at_once.any():
        return rows, None
    after = inclusive[:, -1:] - inclusive[:, at_once]
    cols = np.bincount(slots[:, at_once].ravel(), weights=after.ravel(), minlength=size).reshape(len(words), v)
    return rows, cols
