"""The baselines every mteval table shows: BLEU, chrF and TER as sacrebleu computes them, and
METEOR as nltk computes it (with the suite's offline WordNet).

sacrebleu's corpus scores are not means of sentence scores: they are computed from summed
segment statistics (n-gram matches, edits). Each segment's :class:`~evalcore.metric.Score`
therefore carries sacrebleu's statistics as its components, :meth:`aggregate` sums them, and
:meth:`~evalcore.metric.statistics.SufficientStatistics.corpus_from_statistics` gives paired significance tests
(:mod:`evalcore.stats.significance`) the same corpus score on every resample. Sentence BLEU is
sacrebleu's ``sentence_bleu`` (exponential smoothing, effective order); corpus BLEU is
``corpus_bleu`` (exponential smoothing, no effective order), both from the same statistics.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import lazy_resource
from evalcore.metric.statistics import SufficientStatistics

#: texts sacrebleu's tokenizers may keep cached (their own bound, 65,536 per cache, is tens of MiB
#: of long segments): this metric prepares each batch's references once itself, so a smaller bound
#: only costs re-tokenizing a text met again batches later, and a long run's memory stays flat
TOKENIZER_CACHE = 4096


class Sacrebleu(SufficientStatistics, ReferenceMetric):
    """A sacrebleu metric: segment statistics as components, corpus score from their sums."""

    english: ClassVar[bool] = False  # language-independent: no English-text notes
    languages: ClassVar[tuple[str, ...]] = ("*",)

    @lazy_resource()
    def sentence_metric(self):
        """The configured sacrebleu object, sentence flavour (built once per configuration)."""
        return self._build(True)

    @lazy_resource()
    def corpus_metric(self):
        """The configured sacrebleu object, corpus flavour (built once per configuration)."""
        return self._build(False)

    def _build(self, sentence: bool):
        """A sacrebleu metric object for this configuration."""
        raise NotImplementedError

    def signature_extras(self) -> dict[str, object]:
        import sacrebleu

        return {"sacrebleu": sacrebleu.__version__}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        corpus, sentence = self.corpus_metric, self.sentence_metric
        names = self.statistic_names()
        references: dict[tuple[str, ...], dict] = {}  # each reference set is preprocessed once per batch
        out = []
        for item in items:
            info = references.get(item.references)
            if info is None:
                info = corpus._extract_reference_info([corpus._preprocess_segment(r) for r in item.references])
                references[item.references] = info
            stats = corpus._compute_segment_statistics(corpus._preprocess_segment(item.candidate), info)
            value = sentence._compute_score_from_stats(stats).score
            out.append(Score(value, dict(zip(names, map(float, stats)))))
        bound_tokenizer_caches(getattr(corpus, "tokenizer", None))
        return out

    def corpus_from_statistics(self, summed: np.ndarray) -> np.ndarray:
        """Corpus scores from rows of summed statistics ((n x statistics) -> n scores)."""
        corpus = self.corpus_metric
        rows = np.atleast_2d(np.asarray(summed, dtype=float))
        return np.array([corpus._compute_score_from_stats(list(row)).score for row in rows])


def bound_tokenizer_caches(tokenizer: object) -> None:
    """Empty a sacrebleu tokenizer's caches (``functools`` caches on its class, and on the class of
    the tokenizer it hands on to) that hold more than :data:`TOKENIZER_CACHE` texts."""
    for obj in (tokenizer, getattr(tokenizer, "_post_tokenizer", None)):
        cached: Any = vars(type(obj)).get("__call__")  # the class's own (functools-cached) tokenizing call
        if hasattr(cached, "cache_info") and cached.cache_info().currsize > TOKENIZER_CACHE:
            cached.cache_clear()


class Bleu(Sacrebleu):
    """BLEU (Papineni et al. 2002) by sacrebleu; sentence values as ``sentence_bleu``."""

    signature_keys = {"tokenize": "tok", "lowercase": "lc", "smooth_method": "smooth",
                      "smooth_value": "smooth-value", "max_ngram_order": "order"}

    def __init__(self, tokenize: str = "13a", lowercase: bool = False, smooth_method: str = "exp",
                 smooth_value: float | None = None, max_ngram_order: int = 4):
        self.tokenize = tokenize
        self.lowercase = lowercase
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order

    def validate(self) -> None:
        from sacrebleu.metrics.bleu import _TOKENIZERS, BLEU

        if self.tokenize not in _TOKENIZERS:
            raise ValueError(f"bleu: unknown tokenizer {self.tokenize!r}; choose from {', '.join(sorted(_TOKENIZERS))}")
        if self.smooth_method not in BLEU.SMOOTH_DEFAULTS:
            raise ValueError(f"bleu: unknown smoothing {self.smooth_method!r}; "
                             f"choose from {', '.join(BLEU.SMOOTH_DEFAULTS)}")
        if not isinstance(self.max_ngram_order, int) or self.max_ngram_order < 1:
            raise ValueError(f"bleu: max_ngram_order must be a positive whole number, got {self.max_ngram_order!r}")

    def signature_extras(self) -> dict[str, object]:
        return {"eff": "sent-yes+corpus-no", **super().signature_extras()}

    def _build(self, sentence: bool):
        from sacrebleu.metrics.bleu import BLEU

        return BLEU(lowercase=self.lowercase, tokenize=self.tokenize, smooth_method=self.smooth_method,
                    smooth_value=self.smooth_value, max_ngram_order=self.max_ngram_order,
                    effective_order=sentence)

    def statistic_names(self) -> tuple[str, ...]:
        orders = range(1, self.max_ngram_order + 1)
        return ("sys_len", "ref_len", *(f"correct_{n}" for n in orders), *(f"total_{n}" for n in orders))


class Chrf(Sacrebleu):
    """chrF (Popović 2015) by sacrebleu; ``word_order=2`` gives chrF++."""

    signature_keys = {"char_order": "nc", "word_order": "nw", "lowercase": "lc", "whitespace": "ws",
                      "eps_smoothing": "eps"}

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: int = 2, lowercase: bool = False,
                 whitespace: bool = False, eps_smoothing: bool = False):
        self.char_order = char_order
        self.word_order = word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing

    def validate(self) -> None:
        for key in ("char_order", "word_order", "beta"):
            value = getattr(self, key)
            if not isinstance(value, int) or value < (1 if key == "char_order" else 0):
                raise ValueError(f"chrf: {key} must be a whole number >= {1 if key == 'char_order' else 0}, got "
                                 f"{value!r}")

    def _build(self, sentence: bool):
        from sacrebleu.metrics.chrf import CHRF

        return CHRF(char_order=self.char_order, word_order=self.word_order, beta=self.beta,
                    lowercase=self.lowercase, whitespace=self.whitespace, eps_smoothing=self.eps_smoothing)

    def statistic_names(self) -> tuple[str, ...]:
        orders = [f"c{n}" for n in range(1, self.char_order + 1)] + [f"w{n}" for n in range(1, self.word_order + 1)]
        return tuple(f"{kind}_{o}" for o in orders for kind in ("hyp", "ref", "match"))


class Ter(Sacrebleu):
    """TER (Snover et al. 2006) by sacrebleu (Tercom's algorithm); lower is better."""

    max_chars = 2_000  # the cost grows faster than linearly with length: docs/bounds.md

    lower_is_better = True
    signature_keys = {"normalized": "norm", "no_punct": "no-punct", "asian_support": "asian",
                      "case_sensitive": "case"}
    cost = "medium"

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False):
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive

    def _build(self, sentence: bool):
        from sacrebleu.metrics.ter import TER

        return TER(normalized=self.normalized, no_punct=self.no_punct, asian_support=self.asian_support,
                   case_sensitive=self.case_sensitive)

    def statistic_names(self) -> tuple[str, ...]:
        return ("edits", "ref_len")


@functools.lru_cache(maxsize=1)
def _tokenizer_13a():
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    return Tokenizer13a()


class Meteor(ReferenceMetric):
    """METEOR as nltk implements it (exact, Porter-stem and WordNet synonym matches, fragmentation
    penalty; best reference), on sacrebleu's 13a tokens; WordNet from :mod:`evalcore.resources.wordnet`
    (Debian's wordnet-base, or the registry's Princeton WordNet 3.0, read offline; the signature
    names which). Corpus score = mean of segment scores (nltk has no
    corpus METEOR)."""

    signature_keys = {"alpha": "a", "beta": "b", "gamma": "g"}
    cost = "medium"

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5):
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma

    def validate(self) -> None:
        if not 0 < self.alpha <= 1 or self.beta <= 0 or not 0 <= self.gamma <= 1:
            raise ValueError(f"meteor: need 0 < alpha <= 1, beta > 0, 0 <= gamma <= 1; "
                             f"got {self.alpha}, {self.beta}, {self.gamma}")

    def signature_extras(self) -> dict[str, object]:
        import nltk

        from evalcore.resources.wordnet import source_name

        return {"tok": "13a-lc", "stem": "porter", "syn": source_name(), "nltk": nltk.__version__}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        from nltk.stem.porter import PorterStemmer
        from nltk.translate.meteor_score import meteor_score

        from evalcore.resources.wordnet import wordnet

        wn, stemmer, tok = wordnet(), PorterStemmer(), _tokenizer_13a()
        words: dict[str, list[str]] = {}

        def split(text: str) -> list[str]:
            if text not in words:
                words[text] = tok(text).lower().split()
            return words[text]

        return [Score(meteor_score([split(r) for r in it.references], split(it.candidate), stemmer=stemmer,
                                   wordnet=wn, alpha=self.alpha, beta=self.beta, gamma=self.gamma))
                for it in items]
