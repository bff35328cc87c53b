"""RED's text preparation: references parsed by the suite's spaCy pipeline (``en_core_web_sm``,
parser on, through :func:`evalcore.resources.spacy_pipeline`), hypotheses only tokenised by the
same pipeline's tokeniser (RED never parses the hypothesis). Words are lowercased; tokens without
a letter or digit (punctuation, symbols) are dropped, a dropped token's dependents re-attached to
its nearest kept ancestor, so positions count words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from evalcore.resources.registry import spacy_pipeline
from evalcore.text.preprocess import closed_class
from mteval.red.depngrams import DepTree

_ALNUM = re.compile(r"[^\W_]")
#: texts remembered per kind (emptied when full): references recur across systems
CACHE_TEXTS = 65536


@functools.lru_cache(maxsize=1)
def pipeline():
    """The English spaCy pipeline with its parser (NER off), loaded once per process."""
    return spacy_pipeline(("ner",))


def describe() -> dict[str, str]:
    """Signature fields: the parser model and the tokeniser."""
    meta = pipeline().meta
    model = f"{meta['lang']}_{meta['name']}-{meta['version']}"
    return {"parser": model, "tok": model}


def tree_from_doc(doc) -> DepTree:
    """The :class:`DepTree` of a parsed spaCy doc: kept words, heads re-attached past dropped tokens."""
    kept = [t.i for t in doc if _ALNUM.search(t.text)]
    index = {i: k for k, i in enumerate(kept)}
    heads = []
    for i in kept:
        token = doc[i]
        while token.head.i != token.i and token.head.i not in index:
            token = token.head
        heads.append(-1 if token.head.i == token.i else index[token.head.i])
    return DepTree(tuple(doc[i].text.lower() for i in kept), tuple(heads),
                   tuple(closed_class(doc[i].pos_, doc[i].tag_) for i in kept))


class Prepared:
    """Caches of parsed references and tokenised hypotheses, one pipeline pass per new text."""

    def __init__(self):
        self._trees: dict[str, DepTree] = {}
        self._words: dict[str, tuple[str, ...]] = {}

    def trees(self, texts: Sequence[str]) -> list[DepTree]:
        """The dependency tree of every reference text, new texts parsed in one batch."""
        new = [t for t in dict.fromkeys(texts) if t not in self._trees]
        if new:
            if len(self._trees) + len(new) > CACHE_TEXTS:
                self._trees.clear()
            for text, doc in zip(new, pipeline().pipe(new, batch_size=256)):
                self._trees[text] = tree_from_doc(doc)
        return [self._trees[t] for t in texts]

    def words(self, text: str) -> tuple[str, ...]:
        """A hypothesis's lowercased words (tokeniser only: RED never parses the hypothesis)."""
        known = self._words.get(text)
        if known is None:
            if len(self._words) >= CACHE_TEXTS:
                self._words.clear()
            known = self._words[text] = tuple(t.text.lower() for t in pipeline().tokenizer(text)
                                              if _ALNUM.search(t.text))
        return known


@functools.lru_cache(maxsize=1)
def prepared() -> Prepared:
    """The process's one cache of prepared texts (shared by RED and REDp)."""
    return Prepared()
