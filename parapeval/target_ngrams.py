"""PEM's target-language (English) n-gram F1 between original and paraphrase, n = 1..4: a
similarity of wording (1 for a verbatim copy), the feature PEM's paper calls lexical
dissimilarity (its complement)."""

from __future__ import annotations

from evalcore.matching import bag_overlap, f_measure
from evalcore.ngrams import Bag, merge, ngram_bag, total
from evalcore.text import Doc


def target_bag(doc: Doc, max_n: int = 4) -> Bag:
    """All English n-grams (n = 1..max_n) of a sentence with their counts."""
    return merge([ngram_bag(doc, n) for n in range(1, max_n + 1)])


def target_f1(bag_original: Bag, bag_paraphrase: Bag) -> float:
    """F1 (alpha 0.5) of two n-gram bags under exact match; 0 when either side is empty."""
    return f_measure(bag_overlap(bag_original, bag_paraphrase), total(bag_original), total(bag_paraphrase), alpha=0.5)[2]
