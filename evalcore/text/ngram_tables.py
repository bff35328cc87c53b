"""Corpus-batch bags and joins of :class:`evalcore.text.ngrams.BagSet` in numpy, without sorts of
the n-grams: what a base install (no numba) runs on a corpus batch.

Why dense local tables: a global sort of ~10^6 n-gram occurrences (and another to join each
candidate n-gram with its document's references) is memory-bound and was most of TESLA-S's batch
time. Here each text's tokens get small local ids (one sort of the tokens only), so a text's
skip-bigram (a, b) is the cell ``a * U + b`` of a dense table of its U distinct tokens; likewise
a reference set's tokens get set-local ids and its n-grams cells of the set's own table. A cell's
first occurrence comes from ``np.minimum.at``, weights are summed by ``np.bincount`` in text
order. Texts (reference sets) are taken in runs of a few thousand tokens: each run's arrays fit in
the CPU's cache and are reused by the allocator, where arrays of the whole batch would be fresh
memory (page faults) on every pass. pandas' hash-table ``factorize`` was measured as well: slower
than ``np.sort`` on these keys, so the tables are numpy's. The floats are those of the sort engine and of the compiled
kernels (the tests compare them float for float); keys are the n-gram numbers
``first * width + second + 1`` (``+ 0`` for a unigram) the compiled kernels give.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from evalcore.text.arrays import ranges, run_starts

#: largest dense table (entries) either stage allocates; beyond it :func:`bag_texts` returns None
#: (the caller sorts instead) and :func:`join` splits its runs (a set too large alone is sorted)
TABLE_LIMIT = 1 << 23
#: tokens of a run of texts bagged together (about 1 MB of arrays per pass)
RUN_TOKENS = 1 << 14


def _firsts(index: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """For entries numbered ``index`` (< ``size``) in order: (where each number first occurs, each
    entry's rank among those first occurrences), with a dense table of ``size`` (int32: half the
    memory traffic of int64, and positions fit)."""
    n = len(index)
    dtype = np.int32 if n < 1 << 31 else np.int64
    table = np.full(size, n, dtype=dtype)
    positions = np.arange(n, dtype=dtype)
    np.minimum.at(table, index, positions)
    first_of = table[index]  # each entry's number's first position
    is_first = first_of == positions
    rank = np.cumsum(is_first, dtype=dtype) - 1
    return np.flatnonzero(is_first), rank[first_of]


def bag_texts(ids: np.ndarray, weights: np.ndarray, lengths: np.ndarray, max_gap: int, last_unigram: bool,
              merged: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(keys, weights, indptr) of the unigram and skip-bigram bags of texts end to end, laid out
    as :func:`evalcore.text.ngrams.occurrences` lays them out; None when a dense table would
    exceed :data:`TABLE_LIMIT` (texts of thousands of distinct tokens). Texts are bagged in runs
    of about :data:`RUN_TOKENS` tokens, whose arrays stay in cache and are reused by the allocator."""
    n_texts, n_bags = len(lengths), len(lengths) * (1 if merged else 2)
    if not len(ids):
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(n_bags + 1, np.int64)
    width = int(ids.max()) + 2
    ends = np.cumsum(lengths)
    cuts = np.searchsorted(ends, np.arange(RUN_TOKENS, int(ends[-1]), RUN_TOKENS)) + 1
    bounds = np.unique(np.concatenate([[0], np.minimum(cuts, n_texts), [n_texts]])).tolist()
    parts = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        start = int(ends[lo - 1]) if lo else 0
        part = _bag_run(ids[start:ends[hi - 1]], weights[start:ends[hi - 1]], lengths[lo:hi], max_gap, last_unigram,
                        merged, width)
        if part is None:
            return None
        parts.append(part)
    keys, out_weights, counts = (np.concatenate(column) for column in zip(*parts))
    indptr = np.zeros(n_bags + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return keys, out_weights, indptr


def _bag_run(ids: np.ndarray, weights: np.ndarray, lengths: np.ndarray, max_gap: int, last_unigram: bool,
             merged: bool, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`bag_texts` for one run of texts: (keys, weights, cells per bag), or None."""
    n_texts, n_tokens, span = len(lengths), len(ids), max_gap + 1
    n_bags = n_texts * (1 if merged else 2)
    if not n_tokens:
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(n_bags, np.int64)
    text = np.repeat(np.arange(n_texts, dtype=np.int64), lengths)
    # each token's unigram cell: its text's distinct tokens numbered by first occurrence, text by text
    bits = int(n_tokens - 1).bit_length() or 1
    if n_texts * width >= 1 << (63 - bits):
        return None
    packed = np.sort(((text * width + ids) << bits) | np.arange(n_tokens, dtype=np.int64))
    new = run_starts(packed >> bits)
    run_first = packed[new] & ((1 << bits) - 1)  # each (text, token)'s first position
    is_first = np.zeros(n_tokens, dtype=bool)
    is_first[run_first] = True
    cell_at = np.cumsum(is_first) - 1
    token_cell = np.empty(n_tokens, dtype=np.int64)
    token_cell[packed & ((1 << bits) - 1)] = cell_at[run_first][np.cumsum(new) - 1]
    distinct = np.bincount(text[is_first], minlength=n_texts)
    local = token_cell - (np.cumsum(distinct) - distinct)[text]
    first_tokens = np.flatnonzero(is_first)
    # unigrams: cells are the token cells (those left with an occurrence, without each text's last token)
    ends = np.cumsum(lengths)
    left = ends[text] - np.arange(n_tokens)  # tokens from each token to its text's end
    if last_unigram:
        u_weights = np.bincount(token_cell, weights=weights, minlength=len(first_tokens))
        u_keys, u_text = ids[first_tokens] * width, text[first_tokens]
    else:
        kept = left > 1
        occurring = np.bincount(token_cell[kept], minlength=len(first_tokens)) > 0
        u_weights = np.bincount(token_cell[kept], weights=weights[kept], minlength=len(first_tokens))[occurring]
        u_keys, u_text = ids[first_tokens[occurring]] * width, text[first_tokens[occurring]]
    # skip-bigrams (i, j), row-major: cell a * U + b of the text's U x U table of local ids
    pair = np.flatnonzero(np.arange(1, span + 1)[None, :] < left[:, None])
    first = pair // span
    second = pair - first * span + first + 1
    pair_text = text[first]
    squares = distinct * distinct
    if int(squares.sum()) > TABLE_LIMIT:
        return None
    table_at = np.cumsum(squares) - squares
    row_at = table_at[text] + local * distinct[text]  # each token's row of its text's table
    index = row_at[first] + local[second]
    firsts, pair_cell = _firsts(index, int(squares.sum()))
    s_weights = np.bincount(pair_cell, weights=weights[first] * weights[second], minlength=len(firsts))
    s_keys = ids[first[firsts]] * width + ids[second[firsts]] + 1
    s_text = pair_text[firsts]
    # lay the cells out bag by bag
    u_count, s_count = np.bincount(u_text, minlength=n_texts), np.bincount(s_text, minlength=n_texts)
    counts = u_count + s_count if merged else np.stack([u_count, s_count], axis=1).ravel()
    indptr = np.cumsum(counts) - counts
    u_start = indptr if merged else indptr[::2]
    s_start = indptr + u_count if merged else indptr[1::2]
    keys, out_weights = np.empty(len(u_keys) + len(s_keys), np.int64), np.empty(len(u_keys) + len(s_keys))
    for start, count, kind_keys, kind_weights in ((u_start, u_count, u_keys, u_weights),
                                                  (s_start, s_count, s_keys, s_weights)):
        dest = np.arange(len(kind_keys)) + np.repeat(start - (np.cumsum(count) - count), count)
        keys[dest], out_weights[dest] = kind_keys, kind_weights
    return keys, out_weights, counts


def canonical_prefix(keys: np.ndarray, indptr: np.ndarray, block_of: np.ndarray, n_blocks: int) -> np.ndarray:
    """What :func:`evalcore.text.ngram_kernels.canonical_prefix` gives, in numpy: per bag, whether
    its n-grams' first occurrences over all bags in order rise along it, for a prefix of the bags
    that grows fourfold until every block holds a non-canonical bag (later bags are left True:
    they cannot change any block's verdict)."""
    n_bags = len(indptr) - 1
    canonical = np.ones(n_bags, dtype=bool)
    scanned = min(n_bags, 64)
    while True:
        cells = keys[:indptr[scanned]]
        order = np.argsort(cells, kind="stable")
        new = run_starts(cells[order])
        first_of = np.empty(len(cells), dtype=np.int64)  # each cell's n-gram's first cell
        first_of[order] = order[new][np.cumsum(new) - 1]
        steps = np.zeros(len(cells) + 1, dtype=np.int64)
        np.cumsum(first_of[1:] <= first_of[:-1], out=steps[2:])
        lo, hi = indptr[:scanned], indptr[1:scanned + 1]
        canonical[:scanned] = steps[hi] == steps[np.minimum(lo + 1, hi)]
        own = block_of[:scanned]
        settled = np.zeros(max(n_blocks, 1), dtype=bool)
        settled[own[(own >= 0) & ~canonical[:scanned]]] = True
        if scanned == n_bags or settled[:n_blocks].all():
            return canonical
        scanned = min(n_bags, 4 * scanned)


def join(keys: np.ndarray, weights: np.ndarray, indptr: np.ndarray, width: int, cand: np.ndarray,
         backwards: np.ndarray, query_set: np.ndarray, sets: np.ndarray,
         fallback: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The (queries x slots) overlaps of :meth:`evalcore.text.ngrams.BagSet.overlaps` (same floats,
    same order of addition), the reference sets taken in runs whose dense tables stay within
    :data:`TABLE_LIMIT` (a run too large is split; a single set too large goes to
    ``fallback(queries)``, the sort engine's join)."""
    n_q, n_slots = len(cand), sets.shape[1]
    lengths = np.diff(indptr)
    out = np.zeros((n_q, n_slots))
    by_set = np.argsort(query_set, kind="stable")
    sorted_sets = query_set[by_set]
    # runs of sets of about RUN_TOKENS * 4 candidate and reference cells (their arrays stay in
    # cache), and few enough that the (sets x tokens) table stays within the limit
    cells = np.cumsum(np.bincount(query_set, weights=lengths[cand], minlength=len(sets))
                      + np.where(sets >= 0, lengths[sets], 0).sum(axis=1))
    cuts = np.searchsorted(cells, np.arange(4 * RUN_TOKENS, cells[-1], 4 * RUN_TOKENS))
    bounds = np.unique(np.concatenate([[0], cuts, [len(sets)]])).tolist()
    per_run = max(1, TABLE_LIMIT // width)
    pending = [(a, min(a + per_run, hi)) for lo, hi in zip(bounds[:-1], bounds[1:]) for a in range(lo, hi, per_run)]
    while pending:
        lo, hi = pending.pop()
        queries = by_set[np.searchsorted(sorted_sets, lo):np.searchsorted(sorted_sets, hi)]
        if not len(queries):
            continue
        got, rows = _join_chunk(keys, weights, indptr, lengths, width, cand[queries], backwards[queries],
                                query_set[queries] - lo, sets[lo:hi])
        if got is not None:
            out[queries] = got
        elif hi - lo == 1:
            out[queries] = fallback(queries)
        else:  # split where the tables add up to the limit
            start, filled = lo, 0
            for k, size in enumerate(rows.tolist(), lo):
                if filled + size > TABLE_LIMIT and k > start:
                    pending.append((start, k))
                    start, filled = k, 0
                filled += size
            pending.append((start, hi))
    return out


def _join_chunk(keys: np.ndarray, weights: np.ndarray, indptr: np.ndarray, lengths: np.ndarray, width: int,
                cand: np.ndarray, backwards: np.ndarray, query_set: np.ndarray,
                sets: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """:func:`join` for one run of reference sets: each set's reference tokens get set-local ids
    (a dense sets x tokens table), its n-grams the cells of a V x (V + 1) table of its V tokens.
    Returns (overlaps, each set's table size), overlaps None when the tables exceed the limit."""
    n_sets, n_slots = sets.shape
    n_q = len(cand)
    slot_set, slot_j = np.nonzero(sets >= 0)
    slot_bag = sets[slot_set, slot_j]
    slot_len = lengths[slot_bag]
    ref_cell = ranges(indptr[slot_bag], slot_len)
    ref_key = keys[ref_cell]
    ref_first = ref_key // width
    ref_second = ref_key - ref_first * width  # 0 for a unigram, else the second token + 1
    ref_base = np.repeat(slot_set * width, slot_len)
    # (set, token + 1) -> the token's set-local id + 1 if the set's references hold it, else 0
    local = np.zeros((n_sets, width), dtype=np.int32)
    flat = local.ravel()
    flat[ref_base + ref_first + 1] = 1
    flat[ref_base + ref_second] = 1
    local[:, 0] = 0  # column 0 stands for "no second token"
    present = flat.astype(bool)
    distinct = local.sum(axis=1, dtype=np.int64)
    np.cumsum(local, axis=1, out=local)
    ref_set = np.repeat(slot_set, slot_len)
    pairs = np.bincount(ref_set[ref_second > 0], minlength=n_sets) > 0
    # the set's table: (first, second + 1), second + 1 = 0 for a unigram; a column for sets of unigrams
    stride = np.where(pairs, distinct + 1, 1)
    rows = distinct * stride
    if int(rows.sum()) > TABLE_LIMIT:
        return None, rows
    # an n-gram's cell: start[set] + (first's local id + 1) * stride[set] + (second's local id + 1 or 0)
    start = np.cumsum(rows) - rows - stride
    ref_index = start[ref_set] + flat[ref_base + ref_first + 1] * stride[ref_set] + flat[ref_base + ref_second]
    # each n-gram's row of ``grid`` (numbered through whichever of its cells a repeated index keeps:
    # only the grouping matters); its weight in slot j at grid[j, row] (flat: numpy's 2-d fancy
    # indexing is slower)
    n_cells = len(ref_index)
    row_of = np.full(int(rows.sum()), -1, dtype=np.int32 if n_cells < 1 << 31 else np.int64)
    row_of[ref_index] = np.arange(n_cells)
    kept = row_of[ref_index]
    is_row = kept == np.arange(n_cells)
    row = np.cumsum(is_row, dtype=row_of.dtype) - 1
    n_rows = int(row[-1]) + 1 if n_cells else 0
    row_of[ref_index] = row[kept]
    grid = np.zeros(n_slots * n_rows)
    grid[np.repeat(slot_j * n_rows, slot_len) + row[kept]] = weights[ref_cell]
    # the candidates' cells in the order their minima are added; those whose tokens a set lacks miss
    q_len = lengths[cand]
    q_cell = ranges(indptr[cand], q_len, backwards)
    q_key = keys[q_cell]
    q_first = q_key // width
    q_set = np.repeat(query_set, q_len)
    q_base = q_set * width
    col_b = q_key - q_first * width  # 0 for a unigram
    unigram = col_b == 0
    col_b += q_base
    col_a = q_first + q_base + 1
    second_present = (present.reshape(n_sets, width) & pairs[:, None]).ravel()  # a set of unigrams has no pairs
    known = np.flatnonzero(present[col_a] & (unigram | second_present[col_b]))
    known_set = q_set[known]
    q_row = row_of[start[known_set] + flat[col_a[known]] * stride[known_set] + flat[col_b[known]]]
    found = q_row >= 0
    hit = known[found]
    hit_row, hit_weight = q_row[found], np.take(weights, q_cell[hit])
    # a pair's minima are a run of ``values``: its query's hits in its slot's row
    hit_query = np.searchsorted(np.cumsum(q_len), hit, side="right")
    group = np.flatnonzero(run_starts(hit_query))  # where each query's hits start
    values: list[np.ndarray] = []
    counts = np.zeros((n_slots, len(group)), dtype=np.int64)
    for j, slot_grid in enumerate(grid.reshape(n_slots, n_rows)):  # a slot at a time: the arrays stay in cache
        minima = np.minimum(np.take(slot_grid, hit_row), hit_weight)
        nonzero = minima != 0  # scipy keeps non-zero minima only
        values.append(minima[nonzero])
        if len(group):
            counts[j] = np.add.reduceat(nonzero, group, dtype=np.int64)
    out = np.zeros(n_slots * n_q)
    run_length = counts.ravel()  # slot by slot, query by query
    runs = np.flatnonzero(run_length)
    if len(runs):
        out[(np.arange(n_slots)[:, None] * n_q + hit_query[group]).ravel()[runs]] = np.add.reduceat(
            np.concatenate(values), (np.cumsum(run_length) - run_length)[runs])
    return out.reshape(n_slots, n_q).T, rows
