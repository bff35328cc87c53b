"""The ``red`` and ``redp`` metrics: the reference parsed once (spaCy), the hypothesis only
tokenised; RED with exact matches and the paper's untuned values (alpha 0.5, w_n = 1/3), REDp with
stem, WordNet-synonym and pivot-paraphrase matches, the function-word weight and the paper's
tuned values (Table 1). Several references: the mean of the per-reference scores (the paper
uses one). Corpus score = mean of sentence scores, as the paper's system level.
"""

from __future__ import annotations

import numbers
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from mteval.red import parse
from mteval.red.align import MODULES, align
from mteval.red.depngrams import MAX_N, DepNgrams, DepTree, dep_ngrams
from mteval.red.score import Weights, aligned_stats, exact_stats, fmeasures

LANGUAGES = ("en",)
#: REDp's tuned values, RED Table 1 (tuned on WMT 2010 into English)
TABLE1: dict[str, Any] = {"alpha": 0.9, "w_fun": 0.2, "w_exact": 0.9, "w_stem": 0.6, "w_syn": 0.6, "w_par": 0.6,
          "weights": (0.6, 0.5, 0.1)}


def _check_unit(name: str, value: object, low_open: bool = False) -> None:
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not (
            (0 < float(value) if low_open else 0 <= float(value)) and float(value) <= 1):
        raise ValueError(f"{name} must be within {'(0' if low_open else '[0'}, 1], got {value!r}")


class _RedBase(ReferenceMetric):
    """What RED and REDp share: English only, each reference parsed once, F per length as components."""

    max_chars = 3_000  # the cost grows faster than linearly with length: docs/bounds.md
    languages: ClassVar[tuple[str, ...]] = LANGUAGES
    cost: ClassVar[str] = "medium"
    # parameters both constructors set
    alpha: float
    weights: tuple[float, ...]
    language: str

    def _validate_common(self) -> None:
        _check_unit("alpha", self.alpha, low_open=True)
        if self.alpha == 1:
            raise ValueError("alpha must be below 1 (alpha = 1 ignores recall)")
        if (not isinstance(self.weights, (tuple, list)) or len(self.weights) != MAX_N):
            raise ValueError(f"weights must be {MAX_N} numbers (w_1..w_{MAX_N}), got {self.weights!r}")
        for k, w in enumerate(self.weights):
            _check_unit(f"weights[{k}]", w)
        if self.language not in LANGUAGES:
            raise ValueError(f"{self.name} needs a dependency parse of English references; language must be "
                             f"one of {', '.join(LANGUAGES)}, got {self.language!r}")

    def signature_extras(self) -> dict[str, object]:
        return {"n": f"1-{MAX_N}", "refs": "mean", **parse.describe()}

    @abstractmethod
    def setting(self) -> Weights:
        """This configuration's parameters as one row of :class:`~mteval.red.score.Weights`."""

    @abstractmethod
    def _stats(self, tree: DepTree, grams: DepNgrams, hypothesis: Sequence[str]) -> np.ndarray:
        """The match statistics of one reference against one tokenised hypothesis."""

    def statistics(self, items: Sequence[Item]) -> list[np.ndarray]:
        """Per item, (references x N_STATS) match statistics (:mod:`.score`): what the scores and
        the tuning grid compute from. ValueError for a reference without a word."""
        prep = parse.prepared()
        refs = list(dict.fromkeys(r for it in items for r in it.references))
        trees = dict(zip(refs, prep.trees(refs)))
        grams = {ref: dep_ngrams(tree) for ref, tree in trees.items()}
        out = []
        for item in items:
            hyp = prep.words(item.candidate)
            rows = []
            for k, ref in enumerate(item.references):
                tree = trees[ref]
                if not len(tree):
                    raise ValueError(f"reference {k + 1} has no word (only punctuation or symbols)")
                rows.append(self._stats(tree, grams[ref], hyp))
            out.append(np.array(rows))
        return out

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        weights = self.setting()
        out = []
        for stats in self.statistics(items):
            f = fmeasures(stats, weights)[0]  # (references x MAX_N)
            value = float((f @ np.asarray(self.weights, dtype=np.float64)).mean())
            out.append(Score(value, {f"f{n}": float(f[:, n - 1].mean()) for n in range(1, MAX_N + 1)}))
        return out


class Red(_RedBase):
    """RED: dep-ngrams of the reference (headword chains scored by position distance,
    fixed-floating strings by contiguous occurrence) against the raw hypothesis, exact words;
    ``value`` = sum_n w_n F_n; components ``f1``..``f3``."""

    signature_keys: ClassVar[dict[str, str]] = {"alpha": "a", "weights": "w", "language": "lang"}

    def __init__(self, alpha: float = 0.5, weights: tuple[float, ...] = (1 / 3, 1 / 3, 1 / 3), language: str = "en"):
        self.alpha = alpha
        self.weights = weights
        self.language = language

    def validate(self) -> None:
        self._validate_common()

    def signature_extras(self) -> dict[str, object]:
        return {**super().signature_extras(), "match": "exact"}

    def setting(self) -> Weights:
        return Weights.one(self.alpha, None, (1.0, 0.0, 0.0), 0.0, self.weights)

    def _stats(self, tree: DepTree, grams: DepNgrams, hypothesis: Sequence[str]) -> np.ndarray:
        return exact_stats(tree, grams, hypothesis)


class RedP(_RedBase):
    """REDp: RED with the staged exact/stem/WordNet-synonym alignment (module weights averaged
    over a dep-ngram's words), the function-word weight, and paraphrase-ngrams from the pivot
    phrase tables' paraphrase pairs; defaults are the paper's tuned values (Table 1)."""

    signature_keys: ClassVar[dict[str, str]] = {"alpha": "a", "w_fun": "fw", "w_exact": "wex", "w_stem": "wst",
                                                "w_syn": "wsy", "w_par": "wpar", "weights": "w", "par_min": "pmin",
                                                "language": "lang"}

    def __init__(self, alpha: float = TABLE1["alpha"], w_fun: float = TABLE1["w_fun"],
                 w_exact: float = TABLE1["w_exact"], w_stem: float = TABLE1["w_stem"],
                 w_syn: float = TABLE1["w_syn"], w_par: float = TABLE1["w_par"],
                 weights: tuple[float, ...] = TABLE1["weights"], par_min: float = 0.05, language: str = "en"):
        self.alpha = alpha
        self.w_fun = w_fun
        self.w_exact = w_exact
        self.w_stem = w_stem
        self.w_syn = w_syn
        self.w_par = w_par
        self.weights = weights
        self.par_min = par_min
        self.language = language

    def validate(self) -> None:
        self._validate_common()
        for name in ("w_fun", "w_exact", "w_stem", "w_syn", "w_par"):
            _check_unit(name, getattr(self, name))
        _check_unit("par_min", self.par_min, low_open=True)

    def signature_extras(self) -> dict[str, object]:
        from evalcore.resources.wordnet import version

        extras = {**super().signature_extras(), "match": "+".join(MODULES) + "+para", "stem": "porter",
                  "syn": f"wordnet-{version()}", "align": "staged-assignment"}
        if self.w_par > 0:
            extras.update(self.paraphrases.signature_fields())
        return extras

    @lazy_resource("par_min")
    def paraphrases(self):
        """The pivot tables' paraphrase pairs above ``par_min`` (opened once per configuration)."""
        from mteval.red.paraphrase import PivotParaphrases

        return PivotParaphrases.default(self.par_min)

    def setting(self) -> Weights:
        return Weights.one(self.alpha, self.w_fun, (self.w_exact, self.w_stem, self.w_syn), self.w_par, self.weights)

    def _stats(self, tree: DepTree, grams: DepNgrams, hypothesis: Sequence[str]) -> np.ndarray:
        pairs = self.paraphrases.pairs(tree.words, hypothesis) if self.w_par > 0 else ()
        return aligned_stats(tree, grams, hypothesis, align(tree.words, hypothesis), pairs)
