"""PEM's target-language (English) n-gram F1 between original and paraphrase, n = 1..4: a
similarity of wording (1 for a verbatim copy), the feature PEM's paper calls lexical
dissimilarity (its complement)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from evalcore.matching import bag_overlap, f_measure
from evalcore.text.ngrams import Bag, merge, ngram_bag, total
from evalcore.text.preprocess import Doc


def target_bag(doc: Doc, max_n: int = 4) -> Bag:
    """All English n-grams (n = 1..max_n) of a sentence with their counts."""
    return merge([ngram_bag(doc, n) for n in range(1, max_n + 1)])


def target_f1(bag_original: Bag, bag_paraphrase: Bag) -> float:
    """F1 (alpha 0.5) of two n-gram bags under exact match; 0 when either side is empty."""
    return f_measure(bag_overlap(bag_original, bag_paraphrase), total(bag_original), total(bag_paraphrase),
                     alpha=0.5)[2]


def target_f1_batch(pairs: Sequence[tuple[Doc, Doc]], max_n: int = 4) -> np.ndarray:
    """:func:`target_f1` of the n-gram bags of each (original, paraphrase) pair, by the compiled
    n-gram kernel over integer token ids. Equal bit for bit: the weights are counts, so every sum
    is an exact integer whatever its order."""
    from evalcore.bpng.kernels import ngram_f1

    vocab: dict[str, int] = {}
    docs: dict[tuple[str, ...], int] = {}
    ref = np.array([docs.setdefault(o.tokens, len(docs)) for o, _ in pairs], np.int64)
    cand = np.array([docs.setdefault(p.tokens, len(docs)) for _, p in pairs], np.int64)
    ids = np.array([vocab.setdefault(t, len(vocab)) for tokens in docs for t in tokens], np.int32)
    ptr = np.zeros(len(docs) + 1, np.int64)
    np.cumsum([len(tokens) for tokens in docs], out=ptr[1:])
    return ngram_f1(ids, ptr, ref, cand, max_n)
