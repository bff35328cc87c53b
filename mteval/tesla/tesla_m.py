"""TESLA-M (Liu, Dahlmeier, Ng 2010 §3; TESLA at WMT 2011 §2): the mean of six F-measures
between bags of target n-grams (n = 1..3) matched under s_ms (lemmas, WordNet synonyms, POS) and
s_pos, function words discounted by 0.1, alpha = 0.8 (recall-heavy).

Sentence score = mean of the six F (orders neither side has left out); several references: the
mean of the per-reference sentence scores, as the TESLA papers define it (TESLA-CELAB 2012 §3.4:
"Similar to the other TESLA metrics, when there are N multiple references, we match the
candidate translation against each of them and use the average"); corpus score = mean of the
sentence scores (so the metric decomposes over sentences, as MERT needs). Every text is prepared
once (:mod:`mteval.lexical.preprocess`), each reference encoded once for all its candidates.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from evalcore.metric import Item, ReferenceMetric, Score
from mteval.lexical.preprocess import LANGUAGES, preparer
from mteval.tesla.btng import FEATURES, btng_fmeasures

MULTI_REF_MODES = ("mean", "max")


class TeslaM(ReferenceMetric):
    """TESLA-M of a translation against one or more references. ``value`` is the mean of the
    six F-measures; components: the six F (``ms1`` .. ``pos3``, each the mean over references,
    or of the best reference under ``multi_ref="max"``; an undefined one is absent).

    ``multi_ref``: "mean" (the papers' rule) or "max" (best reference, as TESLA-S offers).
    ``language``: the target language; English is the paper's setting (spaCy tags and lemmas,
    WordNet synonyms), other languages say in the signature what replaces them."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    name: ClassVar[str] = "tesla-m"
    signature_keys: ClassVar[dict[str, str]] = {"discount": "fw", "multi_ref": "refs", "language": "lang"}
    languages: ClassVar[tuple[str, ...]] = tuple(LANGUAGES)
    cost: ClassVar[str] = "medium"

    def __init__(self, alpha: float = 0.8, discount: float = 0.1, multi_ref: str = "mean", language: str = "en"):
        self.alpha = alpha
        self.discount = discount
        self.multi_ref = multi_ref
        self.language = language

    @property
    def english(self) -> bool:  # type: ignore[override]  # a property: it follows the target language
        """English input notes apply to English targets only."""
        return self.language == "en"

    def statistic_names(self) -> tuple[str, ...]:
        """The six F-measures (the tuning stream's statistics; an undefined one prints as nan)."""
        return tuple(FEATURES)

    def validate(self) -> None:
        if not isinstance(self.alpha, numbers.Real) or not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be within (0, 1), got {self.alpha!r}")
        if not isinstance(self.discount, numbers.Real) or not 0 < self.discount <= 1:
            raise ValueError(f"discount must be within (0, 1], got {self.discount!r}")
        if self.multi_ref not in MULTI_REF_MODES:
            raise ValueError(f"multi_ref must be one of {MULTI_REF_MODES}, got {self.multi_ref!r}")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {self.language!r}")

    def signature_extras(self) -> dict[str, object]:
        """What prepares the text (tokeniser, tagger model, lemmatiser) and the synonym source."""
        if self.language not in LANGUAGES:
            return {}  # validate() refuses it before any scoring; the signature still names it
        prep = preparer(self.language)
        return {"ngrams": "1-3", "sim": "ms+pos" if prep.pos else "ms", **prep.describe()}

    # ---- scoring ---------------------------------------------------------------------------------
    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        prep = preparer(self.language)
        texts = list(dict.fromkeys(t for it in items for t in (it.candidate, *it.references)))
        segments = dict(zip(texts, prep(texts)))
        out = []
        for item in items:
            hyp = segments[item.candidate]
            per_ref = []
            for k, ref_text in enumerate(item.references):
                ref = segments[ref_text]
                if not len(ref):
                    raise ValueError(f"reference {k + 1} has no word (only punctuation or symbols)")
                per_ref.append(btng_fmeasures(ref, hyp, self.alpha, self.discount, prep.synonyms, prep.pos))
            out.append(self._combine(np.array(per_ref)))
        return out

    def _combine(self, per_ref: np.ndarray) -> Score:
        """One score from the six F-measures against each reference (rows); an F that is NaN
        (an order neither side has, s_pos without tags) is left out of means and components."""
        with warnings.catch_warnings():  # an F undefined for every reference: NaN, left out below
            warnings.simplefilter("ignore", RuntimeWarning)
            sentence = np.nanmean(per_ref, axis=1)  # a reference has >= 1 word: F1 is defined
            if self.multi_ref == "max":
                best = int(np.argmax(sentence))
                value, fs = sentence[best], per_ref[best]
            else:
                value, fs = sentence.mean(), np.nanmean(per_ref, axis=0)
        return Score(float(value), {name: float(f) for name, f in zip(FEATURES, fs) if not np.isnan(f)})

    def _aggregate(self, scores: Sequence[Score]) -> Score:
        """Corpus score: the mean of the sentence scores; each F component averaged over the
        sentences that define it."""
        if not scores:
            return super()._aggregate(scores)
        components = {}
        for name in FEATURES:
            values = [s.components[name] for s in scores if name in s.components]
            if values:
                components[name] = float(np.mean(values))
        return Score(float(np.mean([s.value for s in scores])), components)
