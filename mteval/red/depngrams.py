"""Dependency n-grams of a reference tree (RED §2.1): headword chains (downward paths, words kept
with their positions) and fixed-floating structures (Shen et al. 2010: a head with some complete
child constituents, or consecutive complete sibling constituents; kept as a contiguous string).

No library extracts these from a parse, so they are written here over a plain head array.
Decisions where the paper is silent: D_1 is the words (headword chains of one word; a
one-word fixed structure would repeat them); a fixed structure has at least one child; a
floating structure has at least two siblings; both must cover a contiguous span.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_N = 3


@dataclass(frozen=True)
class DepTree:
    """A dependency tree over the kept words of a sentence: ``heads[i]`` is the head's index
    (-1 for a root), ``function[i]`` whether word i is a function word."""

    words: tuple[str, ...]
    heads: tuple[int, ...]
    function: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.words)

    def children(self) -> list[list[int]]:
        """Each node's children, in sentence order."""
        out: list[list[int]] = [[] for _ in self.words]
        for i, h in enumerate(self.heads):
            if h >= 0:
                out[h].append(i)
        return out


def headword_chains(tree: DepTree, n: int) -> list[tuple[int, ...]]:
    """Every downward path of ``n`` words (head first), as word indices, in a fixed order."""
    children = tree.children()
    paths: list[tuple[int, ...]] = [(i,) for i in range(len(tree))]
    for _ in range(n - 1):
        paths = [p + (c,) for p in paths for c in children[p[-1]]]
    return paths


def _subtree_spans(tree: DepTree, children: list[list[int]]) -> list[tuple[int, int, int]]:
    """(first index, last index, size) of each node's complete subtree."""
    spans: dict[int, tuple[int, int, int]] = {}
    for root in range(len(tree)):
        if root in spans:
            continue
        stack, order = [root], []
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(children[node])
        for node in reversed(order):  # children before their head
            lo, hi, size = node, node, 1
            for c in children[node]:
                clo, chi, csize = spans[c]
                lo, hi, size = min(lo, clo), max(hi, chi), size + csize
            spans[node] = (lo, hi, size)
    return [spans[i] for i in range(len(tree))]


def fixed_floating(tree: DepTree, max_n: int = MAX_N) -> dict[int, set[tuple[int, int]]]:
    """Spans ``(start, end)`` (end exclusive) of the fixed and floating structures of 2..max_n
    words, by length: a head with its nearest k left and m right complete child constituents
    (k + m >= 1), or two or more consecutive complete sibling constituents; contiguous only."""
    children = tree.children()
    sub = _subtree_spans(tree, children)
    out: dict[int, set[tuple[int, int]]] = {n: set() for n in range(2, max_n + 1)}

    def add(lo: int, hi: int, size: int) -> None:
        if hi - lo + 1 == size and 2 <= size <= max_n:
            out[size].add((lo, hi + 1))

    for h, kids in enumerate(children):
        left = [c for c in reversed(kids) if c < h]  # nearest first
        right = [c for c in kids if c > h]
        for k in range(len(left) + 1):
            for m in range(len(right) + 1):
                if k + m == 0:
                    continue
                parts = [sub[c] for c in (*left[:k], *right[:m])]
                lo = min([h, *(p[0] for p in parts)])
                hi = max([h, *(p[1] for p in parts)])
                add(lo, hi, 1 + sum(p[2] for p in parts))
        for i in range(len(kids)):
            for j in range(i + 1, len(kids)):
                parts = [sub[c] for c in kids[i:j + 1]]
                add(min(p[0] for p in parts), max(p[1] for p in parts), sum(p[2] for p in parts))
    return out


@dataclass(frozen=True)
class DepNgrams:
    """A reference's dep-ngrams by length n: headword chains (word indices, head first) and
    fixed-floating spans (start, end)."""

    chains: dict[int, list[tuple[int, ...]]]
    spans: dict[int, list[tuple[int, int]]]

    def count(self, n: int) -> int:
        """count_n(ref): the number of dep-ngrams of length n."""
        return len(self.chains.get(n, ())) + len(self.spans.get(n, ()))


def dep_ngrams(tree: DepTree, max_n: int = MAX_N) -> DepNgrams:
    """D_n for n = 1..max_n: headword chains of every length, fixed-floating structures of 2..max_n."""
    ff = fixed_floating(tree, max_n)
    return DepNgrams({n: headword_chains(tree, n) for n in range(1, max_n + 1)},
                     {n: sorted(ff.get(n, ())) for n in range(1, max_n + 1)})
