"""German tags and lemmas for TESLA: HanTa (the Hanover Tagger, PyPI ``HanTa``, LGPL-3.0-or-later;
its trained German model ``morphmodel_ger.pgz`` ships inside the wheel, so it runs offline) tags
spaCy's rule tokens with STTS tags and lemmatises them; function words follow the English rule.

Decisions (spec related-metrics.md §2 says only "POS-tag, lemmatise", "function word decided by POS
tag"):
- s_pos compares full STTS tags, the analogue of the full Penn tags of the English path. HanTa
  writes some tags in its own form (``VV(FIN)``, ``ADJ(A)``) and splits nominalised adjectives and
  infinitives (``NNA``, ``NNI``) off ``NN``: these are written back to STTS (``VVFIN``, ``ADJA``,
  ``NN``), the tag set of the TIGER treebank.
- A function word is what the English path calls one (:func:`mteval.lexical.preprocess.function_word`:
  a closed Universal POS class or an interjection), with each STTS tag's Universal POS from the
  TIGER-to-UD table below (spaCy 2's German tag map), except modal verbs (VM*), taken as AUX as UD
  German HDT does and as the English path discounts modals (Penn MD): articles, determiners,
  pronouns, prepositions, conjunctions, particles (PTK*, separable prefixes PTKVZ like English RP),
  auxiliaries and modals, interjections. Pronominal and interrogative adverbs (PROAV, PWAV), like
  English "therefore"/"where" (RB/WRB), stay content words.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

#: STTS tag -> Universal POS (TIGER to UD, as spaCy 2's German tag map; modals AUX as UD German HDT)
STTS_UPOS = {
    "$(": "PUNCT", "$,": "PUNCT", "$.": "PUNCT",
    "ADJA": "ADJ", "ADJD": "ADJ", "ADV": "ADV",
    "APPO": "ADP", "APPR": "ADP", "APPRART": "ADP", "APZR": "ADP",
    "ART": "DET", "CARD": "NUM", "FM": "X", "ITJ": "INTJ",
    "KOKOM": "CCONJ", "KON": "CCONJ", "KOUI": "SCONJ", "KOUS": "SCONJ",
    "NE": "PROPN", "NN": "NOUN",
    "PDAT": "DET", "PDS": "PRON", "PIAT": "DET", "PIDAT": "DET", "PIS": "PRON", "PPER": "PRON",
    "PPOSAT": "DET", "PPOSS": "PRON", "PRELAT": "DET", "PRELS": "PRON", "PRF": "PRON",
    "PROAV": "ADV", "PWAT": "DET", "PWAV": "ADV", "PWS": "PRON",
    "PTKA": "PART", "PTKANT": "PART", "PTKNEG": "PART", "PTKVZ": "ADP", "PTKZU": "PART",
    "TRUNC": "X", "XY": "X",
    "VAFIN": "AUX", "VAIMP": "AUX", "VAINF": "AUX", "VAPP": "AUX",
    "VMFIN": "AUX", "VMINF": "AUX", "VMPP": "AUX",
    "VVFIN": "VERB", "VVIMP": "VERB", "VVINF": "VERB", "VVIZU": "VERB", "VVPP": "VERB",
}
#: HanTa's own tags that STTS folds into another tag
_HANTA_STTS = {"NNA": "NN", "NNI": "NN"}
MODEL = "morphmodel_ger.pgz"


def stts(hanta_tag: str) -> str:
    """The STTS tag of a HanTa tag: ``VV(FIN)`` -> ``VVFIN``, ``NNA`` -> ``NN``."""
    tag = hanta_tag.replace("(", "").replace(")", "")
    return _HANTA_STTS.get(tag, tag)


def upos(stts_tag: str) -> str:
    """The Universal POS of an STTS tag (``X`` for a tag outside STTS)."""
    return STTS_UPOS.get(stts_tag, "X")


@functools.lru_cache(maxsize=1)
def _tagger():
    """HanTa's German model, loaded once (about 0.3 s). HanTa looks up the words it was trained
    on but re-analyses every other word (7 ms each) at each occurrence: its morphological
    analysis of a word (``analyze_forward``, a function of the word alone) is memoised here, as
    the same unseen names and compounds recur in a reference and all its candidates."""
    from HanTa import HanoverTagger

    tagger = HanoverTagger.HanoverTagger(MODEL)
    tagger.analyze_forward = functools.lru_cache(maxsize=200_000)(tagger.analyze_forward)
    return tagger


@functools.lru_cache(maxsize=500_000)
def _lemma(word: str, hanta_tag: str) -> str:
    """HanTa's lemma of ``word`` read as ``hanta_tag`` (cached: words recur across texts)."""
    return _tagger().analyze(word, pos=hanta_tag)[0]


def clear_caches() -> None:
    """Forget every word's analysis and lemma (benchmarks time tagging from a cold cache)."""
    _lemma.cache_clear()
    if _tagger.cache_info().currsize:
        _tagger().analyze_forward.cache_clear()


def tag(words: Sequence[str]) -> list[tuple[str, str]]:
    """(lemma, STTS tag) of every word of one text, tagged in context by HanTa's trigram tagger."""
    if not words:
        return []
    tags = _tagger().tag_sent(list(words), taglevel=0)
    return [(_lemma(w, t), stts(t)) for w, t in zip(words, tags)]


def version() -> str:
    """HanTa's version, for the metric's signature."""
    from importlib.metadata import version as package_version

    return package_version("HanTa")
