"""BEER 2.0's feature template and feature values (upstream ``src/beer/features/``).

A template (``feature_template.yaml``, read as ``FeatureExtractor.scala`` reads it) lists piece
families (``ngram``, ``skip-bigram``, ``char-ngram``) and the length disbalance. Each text's pieces
are counted once (:class:`TextPieces`); the values of many (hypothesis, reference) pairs are then
computed together as arrays: one row per pair, one column per feature name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

import numpy as np

from mteval.beer2.pairs import ordered_pair_overlap
from mteval.beer2.pieces import char_ngrams, java_chars, java_split, skip_bigrams, word_ngrams

#: the disbalance upstream gives when the shorter side has length 0 (``LengthDisbalance.scala``)
EMPTY_DISBALANCE = 100000.0
PIECE_KINDS = ("ngram", "skip-bigram", "char-ngram")


def java_double(x: float) -> str:
    """A number as Scala prints a ``Double`` in feature names (``1.0``, ``0.5``)."""
    return repr(float(x))


@dataclass(frozen=True)
class PieceFamily:
    """One piece feature (``src/beer/features/AbstractPieceFeature.scala``): its kind, its order
    (n-gram order, or the maximal skip of a skip-bigram), whether P and R are reported as
    (min, max) (``symmetry``) or as (P, R), and the betas of its F and G scores."""

    kind: str
    order: int
    symmetry: bool
    f_betas: tuple[float, ...]
    g_betas: tuple[float, ...]

    @property
    def name(self) -> str:
        """Upstream's prefix: ``ngram<n>``, ``skip<k>``, ``char<n>``."""
        return {"ngram": "ngram", "skip-bigram": "skip", "char-ngram": "char"}[self.kind] + str(self.order)

    def feature_names(self) -> list[str]:
        """``<name>.a``, ``<name>.b``, then ``<name>.f.<beta>`` and ``<name>.g.<beta>``."""
        return ([f"{self.name}.a", f"{self.name}.b"] + [f"{self.name}.f.{java_double(b)}" for b in self.f_betas]
                + [f"{self.name}.g.{java_double(b)}" for b in self.g_betas])

    def covers(self, n_words: int) -> bool:
        """Whether this is a skip-bigram family whose window spans a whole text of ``n_words``
        words, so its pieces are every ordered word pair (counted from positions, not listed)."""
        return self.kind == "skip-bigram" and n_words <= self.order + 2

    def count(self, words: list[str], chars: str):
        """This family's pieces of one text (None for a text the window covers: see :meth:`covers`)."""
        if self.covers(len(words)):
            return None
        if self.kind == "ngram":
            return word_ngrams(words, self.order)
        if self.kind == "skip-bigram":
            return skip_bigrams(words, self.order)
        return char_ngrams(chars, self.order)

    def values(self, overlap: np.ndarray, sys_size: np.ndarray, ref_size: np.ndarray) -> np.ndarray:
        """Feature values (pairs x names) from the clipped overlap and both sides' piece counts
        (``AbstractPieceFeature.computeFeatures``): P = overlap / |sys|, R = overlap / |ref| (0 for
        an empty side); a, b = min(P, R), max(P, R) under symmetry, else P, R;
        F_beta = (1 + beta^2) a b / (beta^2 a + b) (0 when the denominator is 0);
        G_beta = (a * b^beta)^(1 / (1 + beta))."""
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(sys_size == 0, 0.0, overlap / np.where(sys_size == 0, 1.0, sys_size))
            r = np.where(ref_size == 0, 0.0, overlap / np.where(ref_size == 0, 1.0, ref_size))
            a, b = (np.minimum(p, r), np.maximum(p, r)) if self.symmetry else (p, r)
            cols = [a, b]
            for beta in self.f_betas:
                den = beta * beta * a + b
                cols.append(np.where(den == 0, 0.0, (1 + beta * beta) * a * b / np.where(den == 0, 1.0, den)))
            for beta in self.g_betas:
                cols.append(np.power(a * np.power(b, beta), 1.0 / (1 + beta)))
        return np.column_stack(cols)


@dataclass(frozen=True)
class LengthDisbalance:
    """``len_disbalance[_exp]`` (``src/beer/features/LengthDisbalance.scala``) in words and in
    characters: with a, b the longer and the shorter length, a / b - 1 (or e^(a/b) - e when
    ``exponential``), 100000 when the shorter side is empty; one feature per degree d (value^d)."""

    exponential: bool
    degrees: tuple[float, ...]

    @property
    def name(self) -> str:
        return "len_disbalance" + ("_exp" if self.exponential else "")

    def feature_names(self) -> list[str]:
        return ([f"{self.name}_word.d.{java_double(d)}" for d in self.degrees]
                + [f"{self.name}_char.d.{java_double(d)}" for d in self.degrees])

    def disbalance(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        a, b = np.maximum(x, y).astype(float), np.minimum(x, y).astype(float)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = a / np.where(b == 0, 1.0, b)
            value = np.exp(ratio) - np.e if self.exponential else ratio - 1.0
        return np.where(b == 0, EMPTY_DISBALANCE, value)

    def values(self, sys_words, ref_words, sys_chars, ref_chars) -> np.ndarray:
        """Feature values (pairs x names) from both sides' word and character lengths."""
        word, char = self.disbalance(sys_words, ref_words), self.disbalance(sys_chars, ref_chars)
        return np.column_stack([np.power(word, d) for d in self.degrees] + [np.power(char, d) for d in self.degrees])


@dataclass
class TextPieces:
    """One text as the features read it: its piece counts per family (template order) and sizes,
    its words, its number of words and of characters (UTF-16 units of the words joined by one space).
    A skip-bigram family whose window covers the text has no counts (None) and a size in closed form."""

    words: list[str]
    counts: list
    sizes: np.ndarray
    n_words: int
    n_chars: int


class FeatureTemplate:
    """The features a model's template asks for, computed for many pairs at once."""

    def __init__(self, families: Sequence[PieceFamily], lengths: Sequence[LengthDisbalance]):
        self.families = tuple(families)
        self.lengths = tuple(lengths)

    @classmethod
    def from_yaml(cls, path: str | Path) -> FeatureTemplate:
        """The template in upstream's YAML (``FeatureExtractor.constructFromFile``): a ``features``
        list of entries named ``ngram`` (``order``), ``skip-bigram`` (``maxSkipSize``),
        ``char-ngram`` (``order``) or ``length-disbalance`` (``exponential``, ``degrees``)."""
        import yaml

        with open(path, encoding="utf-8") as f:
            conf = yaml.safe_load(f)
        families, lengths = [], []
        for k, entry in enumerate((conf or {}).get("features") or []):
            kind = entry.get("name")
            try:
                if kind == "length-disbalance":
                    lengths.append(LengthDisbalance(bool(entry["exponential"]), tuple(map(float, entry["degrees"]))))
                elif kind in PIECE_KINDS:
                    order = int(entry["maxSkipSize" if kind == "skip-bigram" else "order"])
                    families.append(PieceFamily(kind, order, bool(entry["symmetry"]),
                                                tuple(map(float, entry["fScores"])),
                                                tuple(map(float, entry["gScores"]))))
                else:
                    raise ValueError(f"unknown feature {kind!r}")
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{path}: feature {k + 1} ({kind}): {exc}") from None
        if not families and not lengths:
            raise ValueError(f"{path}: the template lists no features")
        return cls(families, lengths)

    def feature_names(self) -> list[str]:
        """Every feature name the template produces, in template order."""
        return [n for fam in self.families for n in fam.feature_names()] + \
            [n for ld in self.lengths for n in ld.feature_names()]

    def pieces(self, text: str) -> TextPieces:
        """Count one text's pieces for every family (upstream's tokenisation: :func:`java_split`)."""
        words = java_split(text)
        chars = java_chars(" ".join(words))
        counts = [fam.count(words, chars) for fam in self.families]
        n = len(words)
        sizes = [n * (n - 1) // 2 if c is None else sum(c.values()) for c in counts]
        return TextPieces(words, counts, np.array(sizes, dtype=float), n, len(chars))

    def overlap(self, j: int, sys: TextPieces, ref: TextPieces) -> int:
        """The clipped overlap of family ``j``'s pieces of two texts: sum over pieces of the
        smaller count; every-pair skip-bigrams by :func:`ordered_pair_overlap`."""
        cs, cr = sys.counts[j], ref.counts[j]
        if cs is None and cr is None:
            return ordered_pair_overlap(sys.words, ref.words)
        if cs is None or cr is None:
            order = self.families[j].order
            cs = skip_bigrams(sys.words, order) if cs is None else cs
            cr = skip_bigrams(ref.words, order) if cr is None else cr
        if len(cs) > len(cr):
            cs, cr = cr, cs
        return sum(map(min, cs.values(), map(cr.get, cs, repeat(0))))

    def values(self, pairs: Sequence[tuple[TextPieces, TextPieces]]) -> np.ndarray:
        """Feature values of (hypothesis, reference) pairs: pairs x :meth:`feature_names`."""
        n, m = len(pairs), len(self.families)
        overlap = np.zeros((n, m))
        for i, (sys, ref) in enumerate(pairs):
            for j in range(m):
                overlap[i, j] = self.overlap(j, sys, ref)
        sys_size = np.array([s.sizes for s, _ in pairs]).reshape(n, m)
        ref_size = np.array([r.sizes for _, r in pairs]).reshape(n, m)
        cols = [fam.values(overlap[:, j], sys_size[:, j], ref_size[:, j]) for j, fam in enumerate(self.families)]
        if self.lengths:
            lens = np.array([(s.n_words, r.n_words, s.n_chars, r.n_chars) for s, r in pairs], dtype=float).reshape(n, 4)
            cols += [ld.values(*lens.T) for ld in self.lengths]
        return np.column_stack(cols) if n else np.zeros((0, len(self.feature_names())))
