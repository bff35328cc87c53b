"""Compiled kernels of BPNG's batch path: phrase look-up in a compiled table's hash, best
segmentation, confusion network, the n-gram walk into a bag and the exact-match F1 of two bags.

Why numba: the walk emits hundreds of weighted n-grams per sentence and pivot, each a few dict
operations in Python (~1 µs), which made BPNG most of PEM's time. Compiled, tokens are integer
ids and a bag is a small open-addressing hash over rows of ids. Every floating-point operation is
the one the Python reference (:mod:`.segment`, :mod:`.network`, :func:`.builder.pivot_f1`) does,
in the same order and without fastmath (no reassociation, no fused multiply-add), so the values
are the reference's bit for bit; bags keep first-occurrence order so sums run in the same order.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from evalcore.bpng.network import _EPS as EPS  # the reference's inclusive-threshold tolerance
from evalcore.bpng.segment import UNSEEN_COUNT

_EMPTY = -1


@njit(cache=True, nogil=True)
def _hash(ids, start, n):
    """Hash of ``ids[start:start + n]`` (FNV-1a over the ids, then a final mix)."""
    h = np.int64(-3750763034362895579)
    for k in range(n):
        h = (h ^ np.int64(ids[start + k] + 1)) * np.int64(1099511628211)
    return h ^ (h >> np.int64(29))


@njit(cache=True, nogil=True)
def build_slots(keys, lens, n, n_slots):
    """Open-addressing slots (row index or -1) for the first ``n`` rows of ``keys`` (row ``e``
    holds ``lens[e]`` ids); ``n_slots`` a power of 2."""
    slots = np.full(n_slots, _EMPTY, np.int32)
    mask = n_slots - 1
    for e in range(n):
        i = _hash(keys[e], 0, lens[e]) & mask
        while slots[i] != _EMPTY:
            i = (i + 1) & mask
        slots[i] = e
    return slots


@njit(cache=True, nogil=True)
def _same(keys, lens, e, ids, start, n):
    """Whether row ``e`` of ``keys`` is ``ids[start:start + n]``."""
    if lens[e] != n:
        return False
    for k in range(n):
        if keys[e, k] != ids[start + k]:
            return False
    return True


@njit(cache=True, nogil=True)
def _find(keys, lens, slots, ids, start, n):
    """Row of ``keys`` equal to ``ids[start:start + n]``, or -1."""
    mask = slots.shape[0] - 1
    i = _hash(ids, start, n) & mask
    while slots[i] != _EMPTY:
        if _same(keys, lens, slots[i], ids, start, n):
            return slots[i]
        i = (i + 1) & mask
    return -1


@njit(cache=True, nogil=True)
def _find_phrase(toks, start, n, phrase_ids, phrase_len, slots):
    """Index of the phrase ``toks[start:start + n]`` in the table, or -1."""
    if n > phrase_ids.shape[1]:
        return -1
    return _find(phrase_ids, phrase_len, slots, toks, start, n)


@njit(cache=True, nogil=True)
def _segment(toks, start, n, max_len, log_total, phrase_ids, phrase_len, phrase_count, slots):
    """Spans of the most probable segmentation of ``toks[start:start + n]`` (as :func:`.segment.segment`):
    (span starts, span ends, phrase index or -1), in sentence order."""
    best = np.full(n + 1, -np.inf)
    best[0] = 0.0
    back = np.zeros(n + 1, np.int64)
    for end in range(1, n + 1):
        for s in range(max(0, end - max_len), end):
            p = _find_phrase(toks, start + s, end - s, phrase_ids, phrase_len, slots)
            if p >= 0 and phrase_count[p] > 0:
                count = phrase_count[p]
            elif end - s == 1:
                count = UNSEEN_COUNT
            else:
                continue
            score = best[s] + math.log(count) - log_total
            if score > best[end]:
                best[end] = score
                back[end] = s
    k = 0
    end = n
    while end > 0:
        k += 1
        end = back[end]
    lo = np.empty(k, np.int64)
    hi = np.empty(k, np.int64)
    phrase = np.empty(k, np.int64)
    end = n
    while end > 0:
        k -= 1
        lo[k], hi[k] = back[end], end
        # the span's entry whatever its count (the network reads translations, not counts)
        phrase[k] = _find_phrase(toks, start + back[end], end - back[end], phrase_ids, phrase_len, slots)
        end = back[end]
    return lo, hi, phrase


@njit(cache=True, nogil=True)
def _bag_insert(keys, lens, weights, slots, n, gram, glen, weight):
    """Add ``weight`` to the gram's entry (appended if new, as ``bag.get(gram, 0.0) + weight``);
    returns the new number of entries."""
    mask = slots.shape[0] - 1
    i = _hash(gram, 0, glen) & mask
    while slots[i] != _EMPTY:
        e = slots[i]
        if _same(keys, lens, e, gram, 0, glen):
            weights[e] = weights[e] + weight
            return n
        i = (i + 1) & mask
    slots[i] = n
    keys[n, :glen] = gram[:glen]
    lens[n] = glen
    weights[n] = 0.0 + weight
    return n + 1


@njit(cache=True, nogil=True)
def _walk(slot_ptr, arc_lo, arc_hi, arc_prob, arc_fac, buf, max_n, min_weight):
    """The weighted pivot n-grams of a network (as :func:`.network.pivot_ngram_bag`, same walk and
    order): (keys, lengths, weights) in first-occurrence order, keys padded with -1."""
    floor = min_weight - EPS
    n_slots = slot_ptr.shape[0] - 1
    cap = 64
    keys = np.full((cap, max_n), _EMPTY, np.int32)
    lens = np.zeros(cap, np.int64)
    weights = np.zeros(cap)
    slots = np.full(2 * cap, _EMPTY, np.int32)
    n = 0
    widest = 1
    for s in range(n_slots):
        widest = max(widest, slot_ptr[s + 1] - slot_ptr[s])
    depth = widest * (n_slots + 1) + 1  # pending nodes: at most one slot's arcs per level
    st_gram = np.empty((depth, max_n), np.int32)
    st_len = np.empty(depth, np.int64)
    st_w = np.empty(depth)
    st_arc = np.empty(depth, np.int64)
    st_off = np.empty(depth, np.int64)
    st_slot = np.empty(depth, np.int64)
    gram = np.empty(max_n, np.int32)
    for start_slot in range(n_slots):
        for a in range(slot_ptr[start_slot], slot_ptr[start_slot + 1]):
            if arc_prob[a] < floor:
                continue
            for offset in range(arc_hi[a] - arc_lo[a]):
                st_len[0], st_w[0], st_arc[0], st_off[0], st_slot[0] = 0, arc_prob[a], a, offset, start_slot
                sp = 1
                while sp > 0:
                    sp -= 1
                    glen, weight, arc, slot = st_len[sp], st_w[sp], st_arc[sp], st_slot[sp]
                    gram[:glen] = st_gram[sp, :glen]
                    factor = arc_fac[arc]
                    extend = True
                    for t in range(arc_lo[arc] + st_off[sp], arc_hi[arc]):
                        if factor != 1.0:
                            weight *= factor
                        if weight < floor:
                            extend = False
                            break
                        gram[glen] = buf[t]
                        glen += 1
                        if 2 * (n + 1) > slots.shape[0]:
                            if n == keys.shape[0]:
                                grown = np.full((2 * n, max_n), _EMPTY, np.int32)
                                grown[:n] = keys
                                keys = grown
                                lens = np.concatenate((lens, np.zeros(n, np.int64)))
                                weights = np.concatenate((weights, np.zeros(n)))
                            slots = build_slots(keys, lens, n, 2 * slots.shape[0])
                        n = _bag_insert(keys, lens, weights, slots, n, gram, glen, weight)
                        if glen == max_n:
                            extend = False
                            break
                    if extend:
                        slot += 1
                        if slot < n_slots:
                            for nxt in range(slot_ptr[slot + 1] - 1, slot_ptr[slot] - 1, -1):
                                w = weight * arc_prob[nxt]
                                if w >= floor:
                                    st_gram[sp, :glen] = gram[:glen]
                                    st_len[sp], st_w[sp], st_arc[sp], st_off[sp], st_slot[sp] = glen, w, nxt, 0, slot
                                    sp += 1
    return keys[:n], lens[:n], weights[:n], slots


@njit(cache=True, nogil=True)
def _network(toks, func, start, n, max_len, discount, log_total, phrase_ids, phrase_len,
             phrase_count, slots, arc_ptr, arc_prob, arc_tok_ptr, arc_toks):
    """The confusion network of ``toks[start:start + n]`` (as :func:`.network.confusion_network`
    on the best segmentation): slot pointers, per arc its token range in ``buf``, probability
    and per-token factor. The table's arcs are already pruned by ``min_arc``."""
    lo, hi, phrase = _segment(toks, start, n, max_len, log_total, phrase_ids, phrase_len, phrase_count, slots)
    n_slots = lo.shape[0]
    n_arcs = 0
    n_buf = 0
    for k in range(n_slots):
        p = phrase[k]
        if p >= 0 and arc_ptr[p + 1] > arc_ptr[p]:
            n_arcs += arc_ptr[p + 1] - arc_ptr[p]
            n_buf += arc_tok_ptr[arc_ptr[p + 1]] - arc_tok_ptr[arc_ptr[p]]
        else:
            n_arcs += 1
            n_buf += hi[k] - lo[k]
    slot_ptr = np.empty(n_slots + 1, np.int64)
    a_lo = np.empty(n_arcs, np.int64)
    a_hi = np.empty(n_arcs, np.int64)
    a_prob = np.empty(n_arcs)
    a_fac = np.empty(n_arcs)
    buf = np.empty(n_buf, np.int32)
    a = 0
    b = 0
    slot_ptr[0] = 0
    for k in range(n_slots):
        factor = 1.0
        if discount >= 0.0:
            every = True
            for t in range(lo[k], hi[k]):
                if not func[start + t]:
                    every = False
                    break
            if every:
                factor = discount
        p = phrase[k]
        if p >= 0 and arc_ptr[p + 1] > arc_ptr[p]:
            for q in range(arc_ptr[p], arc_ptr[p + 1]):
                a_lo[a] = b
                for t in range(arc_tok_ptr[q], arc_tok_ptr[q + 1]):
                    buf[b] = arc_toks[t]
                    b += 1
                a_hi[a], a_prob[a], a_fac[a] = b, arc_prob[q], factor
                a += 1
        else:  # no translation (an unseen word): the English tokens pass through with probability 1
            a_lo[a] = b
            for t in range(lo[k], hi[k]):
                buf[b] = toks[start + t]
                b += 1
            a_hi[a], a_prob[a], a_fac[a] = b, 1.0, factor
            a += 1
        slot_ptr[k + 1] = a
    return slot_ptr, a_lo, a_hi, a_prob, a_fac, buf


@njit(cache=True, nogil=True)
def _plain_network(toks, start, n):
    """A network of one pass-through arc per token: its bag is the plain n-gram counts."""
    slot_ptr = np.arange(n + 1).astype(np.int64)
    a_lo = np.arange(n).astype(np.int64)
    return slot_ptr, a_lo, a_lo + 1, np.ones(n), np.ones(n), toks[start:start + n].copy()


@njit(cache=True, nogil=True)
def _f1(x, y, alpha):
    """F (``alpha``) of two bags (x the reference) under exact match, as :func:`.builder.pivot_f1`."""
    xk, xl, xw, xs = x
    yk, yl, yw, ys = y
    x_total = 0.0
    for i in range(xw.shape[0]):
        x_total += xw[i]
    y_total = 0.0
    for i in range(yw.shape[0]):
        y_total += yw[i]
    if xw.shape[0] > yw.shape[0]:  # iterate the smaller bag, as bag_overlap does
        xk, xl, xw, yk, yl, yw, ys = yk, yl, yw, xk, xl, xw, xs
    s = 0.0
    for i in range(xw.shape[0]):
        j = _find(yk, yl, ys, xk[i], 0, xl[i])
        if j >= 0:
            wx, wy = xw[i], yw[j]
            s += wx if wx < wy else wy
    if s <= 0 or x_total <= 0 or y_total <= 0:
        return 0.0
    p, r = s / y_total, s / x_total
    return p * r / (alpha * p + (1 - alpha) * r)


@njit(cache=True, nogil=True)
def bpng_f1(toks, func, text_ptr, pair_ref, pair_cand, max_len, max_n, min_weight, discount, log_total,
            phrase_ids, phrase_len, phrase_count, slots, arc_ptr, arc_prob, arc_tok_ptr, arc_toks):
    """Pivot F1 (alpha 0.5) of each pair (``pair_ref[k]``, ``pair_cand[k]``) of texts, each text
    ``toks[text_ptr[i]:text_ptr[i + 1]]`` (ids in the table's vocabulary) with function-word
    flags ``func``; ``discount`` < 0 means none. Each text's bag is built once."""
    n_texts = text_ptr.shape[0] - 1
    bags = []
    for i in range(n_texts):
        start, n = text_ptr[i], text_ptr[i + 1] - text_ptr[i]
        net = _network(toks, func, start, n, max_len, discount, log_total, phrase_ids, phrase_len,
                       phrase_count, slots, arc_ptr, arc_prob, arc_tok_ptr, arc_toks)
        bags.append(_walk(net[0], net[1], net[2], net[3], net[4], net[5], max_n, min_weight))
    out = np.empty(pair_ref.shape[0])
    for k in range(pair_ref.shape[0]):
        out[k] = _f1(bags[pair_ref[k]], bags[pair_cand[k]], 0.5)
    return out


@njit(cache=True, nogil=True)
def ngram_f1(toks, text_ptr, pair_ref, pair_cand, max_n):
    """F1 (alpha 0.5) of the plain n-gram counts (n = 1..``max_n``) of each pair of texts."""
    bags = []
    for i in range(text_ptr.shape[0] - 1):
        net = _plain_network(toks, text_ptr[i], text_ptr[i + 1] - text_ptr[i])
        bags.append(_walk(net[0], net[1], net[2], net[3], net[4], net[5], max_n, 0.0))
    out = np.empty(pair_ref.shape[0])
    for k in range(pair_ref.shape[0]):
        out[k] = _f1(bags[pair_ref[k]], bags[pair_cand[k]], 0.5)
    return out
