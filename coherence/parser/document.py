"""A text preprocessed once for parsing: the project's tokens with character offsets, spaCy
tags/dependencies on those tokens, and sentences; every parser stage reads this."""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from coherence.relations import Span
from evalcore.resources import spacy_pipeline
from evalcore.text import tokenize

# spaCy needs the parser for sentences and dependencies; NER is never used.
SPACY_DISABLE = ("ner",)


def token_offsets(text: str) -> tuple[list[str], list[Span]]:
    """The project's PTB-like tokens of ``text`` and their character offsets."""
    words = tokenize(text)
    offsets, pos = [], 0
    for w in words:
        start = text.index(w, pos)
        pos = start + len(w)
        offsets.append((start, pos))
    return words, offsets


def _annotations(doc) -> tuple[list[str], list[str], list[str], list[int], list[str]]:
    """Tags, coarse POS, dependency labels, head indices and lowercased lemmas of a spaCy doc, read
    as one array (several times faster than a Token object per token and attribute)."""
    if doc is None:
        return [], [], [], [], []
    from spacy.attrs import DEP, HEAD, LEMMA, POS, TAG

    array = doc.to_array([TAG, POS, DEP, LEMMA, HEAD])
    strings = doc.vocab.strings
    tags, pos, deps, lemmas = ([strings[x] for x in row] for row in array[:, :4].T.tolist())
    # HEAD is the head's offset from the token, stored unsigned
    heads = [i + offset for i, offset in enumerate(array[:, 4].astype("int64").tolist())]
    return tags, pos, deps, heads, [lemma.lower() for lemma in lemmas]


class ParsedText:
    """Tokens, offsets, POS, dependencies and sentences of one text (whole text = one paragraph);
    ``tokens``: the text's :func:`token_offsets` when the caller has them already."""

    def __init__(self, text: str, doc_id: str | None = None, spacy_doc=None,
                 tokens: tuple[list[str], list[Span]] | None = None):
        self.text = text
        self.doc_id = doc_id
        self.words, self.offsets = tokens or token_offsets(text)
        if spacy_doc is None and self.words:
            from spacy.tokens import Doc as SpacyDoc

            nlp = spacy_pipeline(SPACY_DISABLE)
            spacy_doc = nlp(SpacyDoc(nlp.vocab, words=self.words))
        self.doc = spacy_doc
        self.starts = [s for s, _ in self.offsets]
        self.lower = [w.lower() for w in self.words]
        self.tags, self.pos, self.deps, self.heads, self.lemmas = _annotations(spacy_doc)
        self.sentences: list[tuple[int, int]] = (
            [(s.start, s.end) for s in spacy_doc.sents] if spacy_doc is not None else [])
        self.sent_of = [0] * len(self.words)
        for k, (a, b) in enumerate(self.sentences):
            self.sent_of[a:b] = [k] * (b - a)
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


def parse_texts(texts: list[str], doc_ids: list[str | None] | None = None) -> list[ParsedText]:
    """Parse many texts with spaCy's batched pipe at the pipeline's own batch size (256 texts:
    measured faster than small batches; a text's analysis does not depend on its batch)."""
    from spacy.tokens import Doc as SpacyDoc

    nlp = spacy_pipeline(SPACY_DISABLE)
    doc_ids = doc_ids or [None] * len(texts)
    tokenised = [token_offsets(t) for t in texts]
    nonempty = [SpacyDoc(nlp.vocab, words=words) for words, _ in tokenised if words]
    parsed = iter(nlp.pipe(nonempty))
    return [ParsedText(t, d, next(parsed) if tok[0] else None, tok) for t, d, tok in zip(texts, doc_ids, tokenised)]
