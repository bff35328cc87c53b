"""A text preprocessed once for parsing: the project's tokens with character offsets, spaCy
tags/dependencies on those tokens, and sentences; every parser stage reads this."""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from evalcore.resources import spacy_pipeline
from evalcore.text import tokenize

from coherence.relations import Span

# spaCy needs the parser for sentences and dependencies; NER is never used.
_DISABLE = ("ner",)


def token_offsets(text: str) -> tuple[list[str], list[Span]]:
    """The project's PTB-like tokens of ``text`` and their character offsets."""
    words = tokenize(text)
    offsets, pos = [], 0
    for w in words:
        start = text.index(w, pos)
        pos = start + len(w)
        offsets.append((start, pos))
    return words, offsets


class ParsedText:
    """Tokens, offsets, POS, dependencies and sentences of one text (whole text = one paragraph)."""

    def __init__(self, text: str, doc_id: str | None = None, spacy_doc=None):
        self.text = text
        self.doc_id = doc_id
        self.words, self.offsets = token_offsets(text)
        if spacy_doc is None and self.words:
            from spacy.tokens import Doc as SpacyDoc

            nlp = spacy_pipeline(_DISABLE)
            spacy_doc = nlp(SpacyDoc(nlp.vocab, words=self.words))
        self.doc = spacy_doc
        self.starts = [s for s, _ in self.offsets]
        self.lower = [w.lower() for w in self.words]
        toks = list(spacy_doc) if spacy_doc is not None else []
        self.tags = [t.tag_ for t in toks]
        self.pos = [t.pos_ for t in toks]
        self.deps = [t.dep_ for t in toks]
        self.heads = [t.head.i for t in toks]
        self.lemmas = [t.lemma_.lower() for t in toks]
        self.sentences: list[tuple[int, int]] = (
            [(s.start, s.end) for s in spacy_doc.sents] if spacy_doc is not None else [])
        self.sent_of = [0] * len(self.words)
        for k, (a, b) in enumerate(self.sentences):
            for i in range(a, b):
                self.sent_of[i] = k
        self.children: list[list[int]] = [[] for _ in self.words]
        for i, h in enumerate(self.heads):
            if h != i:
                self.children[h].append(i)

    def __len__(self) -> int:
        return len(self.words)

    def tokens_in(self, spans: Iterable[Span]) -> set[int]:
        """Indices of tokens overlapping any of the character spans."""
        spans = list(spans)
        return {i for i, (s, e) in enumerate(self.offsets) if any(s < se and ss < e for ss, se in spans)}

    def spans_of(self, tokens: Iterable[int]) -> tuple[Span, ...]:
        """Character spans covering the tokens, one per run of consecutive token indices."""
        out: list[list[int]] = []
        last = None
        for i in sorted(set(tokens)):
            s, e = self.offsets[i]
            if out and last == i - 1:
                out[-1][1] = e
            else:
                out.append([s, e])
            last = i
        return tuple((s, e) for s, e in out)

    def sentence_of_offset(self, char: int) -> int:
        """The sentence holding (or nearest before) a character offset."""
        i = bisect.bisect_right(self.starts, char) - 1
        return self.sent_of[i] if i >= 0 else 0

    def subtree(self, i: int) -> list[int]:
        """Token indices of the dependency subtree rooted at ``i``."""
        out, stack = [], [i]
        while stack:
            j = stack.pop()
            out.append(j)
            stack.extend(self.children[j])
        return sorted(out)


def parse_texts(texts: list[str], doc_ids: list[str | None] | None = None,
                batch_size: int = 8) -> list[ParsedText]:
    """Parse many texts with spaCy's batched pipe (faster than one call per text)."""
    from spacy.tokens import Doc as SpacyDoc

    nlp = spacy_pipeline(_DISABLE)
    doc_ids = doc_ids or [None] * len(texts)
    tokenised = [token_offsets(t)[0] for t in texts]
    nonempty = [SpacyDoc(nlp.vocab, words=w) for w in tokenised if w]
    parsed = iter(nlp.pipe(nonempty, batch_size=batch_size))
    return [ParsedText(t, d, next(parsed) if w else None) for t, d, w in zip(texts, doc_ids, tokenised)]
