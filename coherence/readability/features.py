"""The features of ``readability``: one number per question people answer when they judge how a
text reads (TAC's linguistic-quality questions; Pitler, Louis & Nenkova 2010), each computed from
one spaCy parse of the text (sentences as :mod:`coherence.sentences` reads them), the discourse
parser's relations on that parse, and a KenLM language model.

A feature that a text cannot have (a transition in a one-sentence text, a definite noun phrase in
a text with none) is NaN: the model reads it as the training mean, so it neither helps nor hurts.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from coherence.parser.document import ParsedText
from evalcore.resources.lm import KenLM


@dataclass(frozen=True)
class Feature:
    """One feature: its name in model files and signatures, the question it answers, what it is."""

    name: str
    question: str
    what: str


FEATURES: tuple[Feature, ...] = (
    Feature("log_words", "length", "natural log of the number of words"),
    Feature("log_sentences", "length", "natural log of the number of sentences"),
    Feature("lm_per_word", "grammaticality", "log10 probability per token under the LM (sentence ends included)"),
    Feature("lm_worst_sentence", "grammaticality", "the lowest log10 probability per token of any sentence"),
    Feature("oov_share", "grammaticality", "share of tokens outside the LM's vocabulary"),
    Feature("fragment_share", "grammaticality", "share of sentences without a finite verb (VBD, VBZ, VBP, MD)"),
    Feature("repeated_trigrams", "non-redundancy", "share of word trigrams that repeat an earlier trigram"),
    Feature("max_sentence_overlap", "non-redundancy",
            "largest share of one sentence's content lemmas that another sentence repeats (near-duplicates)"),
    Feature("unresolved_pronouns", "referential clarity",
            "third-person pronouns with no noun before them in the text, per sentence"),
    Feature("pronoun_start", "referential clarity", "1 when the text's first nominal is a third-person pronoun"),
    Feature("new_definites", "referential clarity",
            "share of definite noun phrases ('the X') whose noun no earlier sentence mentions"),
    Feature("dicomer", "structure", "DICOMER's decision value (discourse-role transitions of the suite's parser)"),
    Feature("connectives", "structure", "explicit discourse connectives per sentence (the suite's parser)"),
    Feature("adjacent_similarity", "structure", "mean cosine of adjacent sentences' content-lemma counts"),
    Feature("entity_continuity", "focus", "share of adjacent sentence pairs that share a noun (entity grid)"),
    Feature("focus_similarity", "focus", "mean cosine of each sentence's content lemmas with the rest of the text"),
)
NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)
LENGTH_FEATURES = frozenset(f.name for f in FEATURES if f.question == "length")
#: the version of the feature code, part of the model file's and the metric's signature
FEATURES_VERSION = "rf1"

_FINITE = frozenset({"VBD", "VBZ", "VBP", "MD"})
_THIRD_PERSON = frozenset({"he", "she", "it", "they", "him", "her", "them", "his", "its", "their", "hers", "theirs",
                           "himself", "herself", "itself", "themselves"})
_LIGHT_VERBS = frozenset({"be", "have", "do"})


def _is_word(word: str) -> bool:
    return any(c.isalnum() for c in word)


def _content_lemmas(pt: ParsedText, start: int, end: int) -> Counter:
    """Lemmas of the open-class tokens (nouns, verbs but be/have/do, adjectives, adverbs) of a span."""
    return Counter(lemma for tag, lemma in zip(pt.tags[start:end], pt.lemmas[start:end])
                   if tag[:2] in ("NN", "VB", "JJ", "RB") and lemma not in _LIGHT_VERBS and _is_word(lemma))


def _cosine(a: Counter, b: Counter) -> float:
    dot = sum(v * b[k] for k, v in a.items() if k in b)
    norm = math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))
    return dot / norm if norm else 0.0


def _lm_features(pt: ParsedText, lm: KenLM) -> tuple[float, float, float]:
    """(log10 probability per token, worst sentence's per-token value, out-of-vocabulary share)."""
    total, tokens, unknown, worst = 0.0, 0, 0, math.inf
    for a, b in pt.sentences:
        words = [w.lower() for w in pt.words[a:b]]
        logp = lm.log10_prob_tokens(words)
        total += logp
        tokens += len(words) + 1  # the sentence end is predicted too
        unknown += lm.unknown(words)
        worst = min(worst, logp / (len(words) + 1))
    return total / tokens, worst, unknown / max(1, len(pt.words))


def _redundancy(words: list[str], content: list[Counter]) -> tuple[float, float]:
    """(share of repeated word trigrams, largest content overlap of two sentences; NaN for one)."""
    trigrams = list(zip(words, words[1:], words[2:]))
    repeated = (len(trigrams) - len(set(trigrams))) / len(trigrams) if trigrams else 0.0
    overlaps = [sum((a & b).values()) / min(sum(a.values()), sum(b.values()))
                for i, a in enumerate(content) for b in content[i + 1:] if a and b]
    return repeated, max(overlaps) if overlaps else math.nan


def _reference(pt: ParsedText) -> tuple[float, float, float]:
    """(unresolved third-person pronouns per sentence, pronoun first nominal, share of new
    definites; NaN without definites)."""
    seen_nouns: set[str] = set()
    sentence_nouns: list[set[str]] = [set() for _ in pt.sentences]
    unresolved, first_nominal = 0, None
    definites = new = 0
    for i, (word, tag, lemma) in enumerate(zip(pt.lower, pt.tags, pt.lemmas)):
        if tag.startswith("NN"):
            first_nominal = first_nominal or "noun"
            sentence_nouns[pt.sent_of[i]].add(lemma)
        elif tag in ("PRP", "PRP$") and word in _THIRD_PERSON:
            first_nominal = first_nominal or "pronoun"
            if not seen_nouns:
                unresolved += 1
        if tag.startswith("NN"):
            seen_nouns.add(lemma)
    earlier: set[str] = set()
    for k, (a, b) in enumerate(pt.sentences):
        for i in range(a, b):
            head = pt.heads[i]
            if pt.lower[i] == "the" and pt.deps[i] == "det" and pt.tags[head].startswith("NN"):
                definites += 1
                new += pt.lemmas[head] not in earlier
        earlier |= sentence_nouns[k]
    return (unresolved / max(1, len(pt.sentences)), float(first_nominal == "pronoun"),
            new / definites if definites else math.nan)


def _continuity(pt: ParsedText, content: list[Counter]) -> tuple[float, float, float]:
    """(mean adjacent cosine, share of adjacent pairs sharing a noun, mean cosine of each sentence
    with the rest); NaN for a one-sentence text."""
    if len(pt.sentences) < 2:
        return math.nan, math.nan, math.nan
    nouns = [{lemma for lemma, tag in zip(pt.lemmas[a:b], pt.tags[a:b]) if tag.startswith("NN")}
             for a, b in pt.sentences]
    adjacent = [_cosine(a, b) for a, b in zip(content, content[1:])]
    shared = [bool(a & b) for a, b in zip(nouns, nouns[1:])]
    whole = sum(content, Counter())
    rest = [_cosine(c, whole - c) for c in content]
    return float(np.mean(adjacent)), float(np.mean(shared)), float(np.mean(rest))


def text_features(pt: ParsedText, lm: KenLM, dicomer: float, explicit: int) -> np.ndarray:
    """The :data:`FEATURES` of one parsed, non-empty text, in order: ``dicomer`` is DICOMER's
    value for it (NaN when DICOMER did not judge it), ``explicit`` its explicit connectives."""
    n_sentences = max(1, len(pt.sentences))
    words = [w for w in pt.lower if _is_word(w)]
    content = [_content_lemmas(pt, a, b) for a, b in pt.sentences]
    finite = sum(1 for a, b in pt.sentences if not _FINITE.intersection(pt.tags[a:b]))
    lm_word, lm_worst, oov = _lm_features(pt, lm)
    repeated, overlap = _redundancy(words, content)
    unresolved, pronoun_start, new_definites = _reference(pt)
    adjacent, entity, focus = _continuity(pt, content)
    values = {
        "log_words": math.log(max(1, len(words))), "log_sentences": math.log(n_sentences),
        "lm_per_word": lm_word, "lm_worst_sentence": lm_worst, "oov_share": oov,
        "fragment_share": finite / n_sentences, "repeated_trigrams": repeated, "max_sentence_overlap": overlap,
        "unresolved_pronouns": unresolved, "pronoun_start": pronoun_start, "new_definites": new_definites,
        "dicomer": dicomer, "connectives": explicit / n_sentences, "adjacent_similarity": adjacent,
        "entity_continuity": entity, "focus_similarity": focus,
    }
    return np.array([values[name] for name in NAMES], dtype=float)


def feature_matrix(pts: Sequence[ParsedText], lm: KenLM, dicomer: Sequence[float],
                   explicit: Sequence[int]) -> np.ndarray:
    """One row of :func:`text_features` per parsed text; a text without tokens has only NaN
    features (it reads as the training mean: the suite's input rule refuses blank texts first)."""
    if not pts:
        return np.zeros((0, len(NAMES)))
    return np.vstack([text_features(pt, lm, d, e) if pt.sentences else np.full(len(NAMES), np.nan)
                      for pt, d, e in zip(pts, dicomer, explicit)])
