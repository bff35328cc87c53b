"""TESLA's preprocessing (2010 §5.2), done once per text: tokenise, POS-tag and lemmatise with
spaCy, then drop the tokens that hold no letter or digit; a token is a function word by its POS tag.

English uses the suite's spaCy pipeline (``en_core_web_sm``: tagger, attribute ruler, rule
lemmatiser; parser and NER disabled) and keeps its Penn Treebank tags, the tag set of the
paper's OpenNLP tagger. Decision where the paper is silent: "non-alphanumeric" drops tokens with
no letter or digit at all (punctuation, symbols), so "n't", "U.S." and "3.5" stay.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.resources import spacy_pipeline
from evalcore.text import closed_class

#: a token is kept when it holds a letter or a digit
_ALNUM = re.compile(r"[^\W_]")
#: texts a Preparer remembers (emptied when full): references recur across systems
CACHE_TEXTS = 65536


@dataclass(frozen=True)
class Segment:
    """A prepared text: its kept tokens with lemma (lowercased), POS tag and function-word flag."""

    words: tuple[str, ...]
    lemmas: tuple[str, ...]
    tags: tuple[str, ...]
    function: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.words)


class Preparer:
    """Turns texts into :class:`Segment` s with one spaCy pass per new text (cached by text)."""

    #: signature fields: what tokenises, tags and lemmatises (English)
    describe = {"tok": "spacy", "tagger": "en_core_web_sm", "pos": "ptb", "lemma": "spacy-rules"}

    def __init__(self, cache_texts: int = CACHE_TEXTS):
        self.cache_texts = cache_texts
        self._done: dict[str, Segment] = {}

    def __call__(self, texts: Sequence[str]) -> list[Segment]:
        """The segment of every text, in order; texts not seen before are tagged in one batch."""
        new = [t for t in dict.fromkeys(texts) if t not in self._done]
        if new:
            if len(self._done) + len(new) > self.cache_texts:
                self._done.clear()
            for text, segment in zip(new, self._prepare(new)):
                self._done[text] = segment
        return [self._done[t] for t in texts]

    def _prepare(self, texts: list[str]) -> list[Segment]:
        nlp = spacy_pipeline(("ner", "parser"))
        return [_segment([(t.text, t.lemma_, t.tag_, closed_class(t.pos_, t.tag_)) for t in doc])
                for doc in nlp.pipe(texts, batch_size=256)]


def _segment(tokens: Sequence[tuple[str, str, str, bool]]) -> Segment:
    """A :class:`Segment` from (word, lemma, tag, function) tuples, non-alphanumeric tokens dropped."""
    kept = [(w, lemma.lower(), tag, f) for w, lemma, tag, f in tokens if _ALNUM.search(w)]
    if not kept:
        return Segment((), (), (), ())
    words, lemmas, tags, function = zip(*kept)
    return Segment(words, lemmas, tags, function)


@functools.lru_cache(maxsize=None)
def preparer() -> Preparer:
    """The process's one English :class:`Preparer` (its text cache is shared by TESLA-M/B/F)."""
    return Preparer()


def prepare(texts: Sequence[str]) -> list[Segment]:
    """The :class:`Segment` of every text (English), each text tagged once per process."""
    return preparer()(texts)
