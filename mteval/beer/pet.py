"""Permutation trees (PETs, Zhang & Gildea 2007) and BEER's word-order features over them
(Stanojevic & Sima'an 2014 §3): node counts by operator, the PET-count ratio with Catalan
numbers, and Kendall tau distance.

No library factorises permutations, so it is written here: a shift-reduce pass (Zhang & Gildea's
shift-reduce factorisation) keeps a stack of blocks (runs of positions whose values form an
interval); after each shift the smallest k >= 2 for which the top k blocks form an interval are
reduced into one node. Reducing eagerly and with the smallest k builds the canonical
left-branching PET: a k-block reduction with k >= 4 has no reducible sub-run (it would have been
reduced when its last block was shifted), so its operator is prime. Each block scans the stack at
most down to its first reducible run: linear on the permutations of real alignments, quadratic
in the worst case (n is a sentence length).

Binary nodes of one operator chained on the left spine form a run of length r; a PET with runs
r_1.. r_m has prod Cat(r_i) alternative bracketings (the paper's equation 1, product sign restored
by the spec, section 7), and a perfectly grouped permutation of length n has Cat(n - 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

MONOTONE, INVERTED = (1, 2), (2, 1)


@dataclass(frozen=True)
class PetCounts:
    """The operators of a permutation's PET: binary monotone and inverted nodes, prime nodes of
    arity 4 and of arity > 4, and the number of alternative PETs (bracketings)."""

    monotone: int
    inverted: int
    prime4: int
    prime_longer: int
    trees: int

    @property
    def nodes(self) -> int:
        return self.monotone + self.inverted + self.prime4 + self.prime_longer


@dataclass
class _Block:
    lo: int  # smallest value covered
    hi: int  # largest value covered
    op: tuple[int, ...] | None = None  # operator of the block's root (None: a leaf)
    run: int = 0  # binary nodes of ``op`` chained on the left spine below (and including) the root


def catalan(n: int) -> int:
    """Cat(n) = C(2n, n) / (n + 1): the number of binary bracketings of n + 1 items."""
    if n < 0:
        raise ValueError(f"Catalan number of a negative order {n}")
    return comb(2 * n, n) // (n + 1)


def check_permutation(perm: Sequence[int]) -> None:
    """ValueError unless ``perm`` holds each of 1..n once."""
    if sorted(perm) != list(range(1, len(perm) + 1)):
        raise ValueError(f"not a permutation of 1..{len(perm)}: {list(perm)}")


def ranks(values: Sequence[int]) -> list[int]:
    """The 1-based rank of each of distinct ``values`` among them (the pattern they form)."""
    out = [0] * len(values)
    for rank, k in enumerate(sorted(range(len(values)), key=values.__getitem__), 1):
        out[k] = rank
    return out


def operator(blocks: Sequence[_Block]) -> tuple[int, ...]:
    """The operator of adjacent blocks: the rank of each block's values among them."""
    return tuple(ranks([b.lo for b in blocks]))


def factorise(perm: Sequence[int]) -> PetCounts:
    """The canonical PET of ``perm`` (values 1..n) by shift-reduce, summarised as operator counts
    and the number of alternative PETs."""
    check_permutation(perm)
    stack: list[_Block] = []
    mono = inv = prime4 = longer = 0
    trees = 1
    for value in perm:
        stack.append(_Block(value, value))
        while True:
            lo, hi, k = stack[-1].lo, stack[-1].hi, 1
            size = hi - lo + 1
            while k < len(stack):
                below = stack[-1 - k]
                lo, hi, size, k = min(lo, below.lo), max(hi, below.hi), size + below.hi - below.lo + 1, k + 1
                if hi - lo + 1 == size:
                    break
            else:
                break  # no run of >= 2 top blocks forms an interval: shift the next value
            children = stack[-k:]
            op = operator(children)
            del stack[-k:]
            if k == 2:
                mono += op == MONOTONE
                inv += op == INVERTED
                left = children[0]
                run = left.run + 1 if left.op == op else 1
                if left.op == op:
                    trees //= catalan(left.run)
                trees *= catalan(run)
                stack.append(_Block(lo, hi, op, run))
            else:
                prime4 += k == 4
                longer += k > 4
                stack.append(_Block(lo, hi, op, 0))
    return PetCounts(mono, inv, prime4, longer, trees)


def kendall_distance(perm: Sequence[int]) -> float:
    """The share of pairs of positions in inverted order (0 = monotone, 1 = reversed); 0 for n < 2.
    O(n log n) by merge sort (scipy's kendalltau gives a correlation with tie handling, not this)."""
    n = len(perm)
    if n < 2:
        return 0.0

    def sort(xs: list[int]) -> tuple[list[int], int]:
        if len(xs) < 2:
            return xs, 0
        left, a = sort(xs[:len(xs) // 2])
        right, b = sort(xs[len(xs) // 2:])
        merged, inversions, i, j = [], a + b, 0, 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                inversions += len(left) - i
                j += 1
        return merged + left[i:] + right[j:], inversions

    return sort(list(perm))[1] / (n * (n - 1) / 2)


#: names of the fluency features, in :func:`fluency_features` order
FLUENCY_FEATURES = ("pet_mono", "pet_inv", "pet_prime4", "pet_prime_longer", "pet_count", "kendall")


def fluency_features(perm: Sequence[int]) -> tuple[float, ...]:
    """BEER's six word-order features of a permutation: node counts per operator divided by the
    number of PET nodes, #PETs / Cat(n - 1), and 1 - Kendall tau distance (so every feature grows
    with better order). Spec decision: fewer than two positions is perfectly ordered (1, 0, 0, 0,
    1, 1)."""
    if len(perm) < 2:
        check_permutation(perm)
        return (1.0, 0.0, 0.0, 0.0, 1.0, 1.0)
    c = factorise(perm)
    return (c.monotone / c.nodes, c.inverted / c.nodes, c.prime4 / c.nodes, c.prime_longer / c.nodes,
            c.trees / catalan(len(perm) - 1), 1.0 - kendall_distance(perm))
