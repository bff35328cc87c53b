"""Compiled (numba) kernels for :class:`evalcore.text.ngrams.BagSet` on corpus batches.

Why compiled: in numpy, bagging a corpus batch and joining each candidate n-gram with its
document's references take two global sorts and a few dozen gathers and scatters over ~10^6
entries. Those passes are memory-bound: on SummEval they were ~80% of TESLA-S's batch time and
left it at 4x rouge-score-rs (the target is 3x). Here each text is bagged with a small hash
table and each document's references with another, so the work stays in cache and runs in a few
loops. Imported only for batches large enough to repay numba's import (~0.4 s; compiled code is
cached on disk, ``cache=True``), so a one-document run never loads numba. The kernels compute what
the numpy path computes in the same order (the tests compare both paths float for float); sums of
several minima stay numpy's ``np.add.reduceat``.
"""

from __future__ import annotations

import numba
import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: multiply, keep the top bits


@numba.njit(inline="always")
def _slot(table, stamp, key, shift, mask):  # pragma: no cover - compiled
    """Open-addressing slot of ``key`` in ``table`` (rows: stamp, key, value): where it is, or the
    free slot where it goes. Rows whose stamp is not ``stamp`` are free, so a table is emptied by
    changing the stamp; a row is one cache line's worth, so a probe costs one memory access."""
    s = np.int64((np.uint64(key) * _GOLDEN) >> shift)
    while table[s, 0] == stamp and table[s, 1] != key:
        s = (s + 1) & mask
    return s


def table_bits(entries: int) -> int:
    """Bits of a hash table that stays at most half full with ``entries``."""
    return max(int(2 * entries - 1).bit_length(), 4)


@numba.njit(cache=True, nogil=True)
def bag_texts(ids, weights, lengths, max_gap, last_unigram, merged, bits):  # pragma: no cover - compiled
    """Unigram and skip-bigram bags of texts end to end, laid out as
    :func:`evalcore.text.ngrams.occurrences` lays them out (text ``t``'s unigrams in bag ``2t``, its
    skip-bigrams in ``2t + 1``; ``merged``: both in bag ``t``): (n-gram keys, weights, indptr).
    Cells keep the order of first occurrence and weights are added in text order, as dict bags."""
    width = 2
    for a in ids:
        width = max(width, a + 2)
    n_tokens, n_texts, span = len(ids), len(lengths), max_gap + 1
    upper = n_tokens * (span + 1)
    out_keys = np.empty(upper, np.int64)
    out_weights = np.empty(upper)
    indptr = np.zeros(n_texts * (1 if merged else 2) + 1, np.int64)
    shift, mask = np.uint64(64 - bits), (1 << bits) - 1
    table = np.full((1 << bits, 3), -1, np.int64)  # a bag's n-gram -> its cell
    n = 0
    start = 0
    for t in range(n_texts):
        end = start + lengths[t]
        for kind in range(2):
            stamp = 2 * t + kind
            last = end if kind == 1 or last_unigram else end - 1
            for i in range(start, last):
                for j in range(i + 1, min(end, i + span + 1)) if kind == 1 else range(i, i + 1):
                    key = ids[i] * width + (ids[j] + 1 if kind == 1 else 0)
                    w = weights[i] * weights[j] if kind == 1 else weights[i]
                    s = _slot(table, stamp, key, shift, mask)
                    if table[s, 0] == stamp:
                        out_weights[table[s, 2]] += w
                    else:
                        table[s, 0], table[s, 1], table[s, 2] = stamp, key, n
                        out_keys[n] = key
                        out_weights[n] = 0.0 + w  # as np.bincount starts each sum
                        n += 1
            indptr[(t if merged else stamp) + 1] = n
        start = end
    return out_keys[:n], out_weights[:n], indptr


@numba.njit(cache=True, nogil=True)
def canonical_prefix(keys, indptr, block_of, n_blocks):  # pragma: no cover - compiled
    """Per bag, whether its n-grams' first occurrences over all bags in order rise along it (its
    row is in scipy's canonical format when columns are numbered by first occurrence). Bags are
    scanned in order until every block (``block_of``: a bag's block, -1 none, -2 several) holds a
    non-canonical bag: later bags cannot change any block's verdict, and are left True. The
    table of first cells grows with the scan (it usually ends after a few bags)."""
    bits, used = 10, 0
    table = np.full((1 << bits, 3), -1, np.int64)  # n-gram -> its first cell
    n_bags = len(indptr) - 1
    canonical = np.ones(n_bags, np.bool_)
    settled = np.zeros(max(n_blocks, 1), np.bool_)
    open_blocks = n_blocks
    for b in range(n_bags):
        if 2 * (used + indptr[b + 1] - indptr[b]) > (1 << bits):  # keep it at most half full
            while 2 * (used + indptr[b + 1] - indptr[b]) > (1 << bits):
                bits += 1
            old = table
            table = np.full((1 << bits, 3), -1, np.int64)
            for r in range(old.shape[0]):
                if old[r, 0] == 0:
                    s = _slot(table, 0, old[r, 1], np.uint64(64 - bits), (1 << bits) - 1)
                    table[s, 0], table[s, 1], table[s, 2] = 0, old[r, 1], old[r, 2]
        shift, mask = np.uint64(64 - bits), (1 << bits) - 1
        previous = -1
        for c in range(indptr[b], indptr[b + 1]):
            s = _slot(table, 0, keys[c], shift, mask)
            if table[s, 0] != 0:
                table[s, 0], table[s, 1], table[s, 2] = 0, keys[c], c
                used += 1
            if table[s, 2] <= previous:
                canonical[b] = False
            previous = table[s, 2]
        if not canonical[b] and block_of[b] >= 0 and not settled[block_of[b]]:
            settled[block_of[b]] = True
            open_blocks -= 1
            if open_blocks == 0:
                break
    return canonical


@numba.njit(cache=True, nogil=True)
def pair_minima(keys, weights, indptr, cand, backwards, order, bounds, sets, bits):  # pragma: no cover
    """Non-zero minima of every (query, slot) pair in the order they are added: queries ``order``
    grouped by reference set (set ``s`` owns ``order[bounds[s]:bounds[s + 1]]``), a query's cells
    backwards where ``backwards``. Returns (values, pair ``q * n_slots + j`` of each run, run
    starts); a counting pass sizes the arrays, a second fills them."""
    n_slots = sets.shape[1]
    shift, mask = np.uint64(64 - bits), (1 << bits) - 1
    table = np.full((1 << bits, 3), -1, np.int64)  # the set's n-gram -> its row of ``grid``
    longest = 0
    for b in range(len(indptr) - 1):
        longest = max(longest, indptr[b + 1] - indptr[b])
    hit_row = np.empty(longest, np.int64)
    hit_weight = np.empty(longest)
    values = np.empty(0)
    run_pair = np.empty(0, np.int64)
    run_start = np.empty(0, np.int64)
    total = 0
    runs = 0
    for fill in (False, True):
        if fill:
            values = np.empty(total)
            run_pair = np.empty(runs, np.int64)
            run_start = np.empty(runs, np.int64)
            total = 0
            runs = 0
        for st in range(len(bounds) - 1):
            stamp = 2 * st + fill  # the set's table: a row per n-gram of its references, a column per slot
            n_rows = 0
            for j in range(n_slots):
                b = sets[st, j]
                if b >= 0:
                    for c in range(indptr[b], indptr[b + 1]):
                        s = _slot(table, stamp, keys[c], shift, mask)
                        if table[s, 0] != stamp:
                            table[s, 0], table[s, 1], table[s, 2] = stamp, keys[c], n_rows
                            n_rows += 1
            grid = np.zeros((n_rows, n_slots))
            for j in range(n_slots):
                b = sets[st, j]
                if b >= 0:
                    for c in range(indptr[b], indptr[b + 1]):
                        grid[table[_slot(table, stamp, keys[c], shift, mask), 2], j] = weights[c]
            for k in range(bounds[st], bounds[st + 1]):
                q = order[k]
                lo, hi = indptr[cand[q]], indptr[cand[q] + 1]
                m = 0
                for t in range(hi - lo):
                    c = hi - 1 - t if backwards[q] else lo + t
                    s = _slot(table, stamp, keys[c], shift, mask)
                    if table[s, 0] == stamp:
                        hit_row[m] = table[s, 2]
                        hit_weight[m] = weights[c]
                        m += 1
                for j in range(n_slots):
                    start = total
                    for t in range(m):
                        v = min(hit_weight[t], grid[hit_row[t], j])
                        if v != 0:
                            if fill:
                                values[total] = v
                            total += 1
                    if total > start:
                        if fill:
                            run_pair[runs] = q * n_slots + j
                            run_start[runs] = start
                        runs += 1
    return values, run_pair, run_start
