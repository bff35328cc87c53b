"""Sentences as the data has them, for spaCy: every ``coherence`` reader of sentences (DICOMER,
``readability``, CREMER's readability input) parses texts through :func:`parse_texts` in one of
the modes of :mod:`evalcore.text.sentences` (``auto``, ``lines``, ``text``).

A boundary is preset on the spaCy document before it is parsed (``Doc(sent_starts=...)``): the
dependency parser keeps preset boundaries, so tags and dependencies follow the sentences."""

from __future__ import annotations

from collections.abc import Sequence

from coherence.parser.document import SPACY_DISABLE, ParsedText, token_offsets
from evalcore.resources.registry import spacy_pipeline
from evalcore.text.sentences import DEFAULT_SENTENCES, SENTENCE_MODES, check_mode, effective_mode, line_starts

__all__ = ["DEFAULT_SENTENCES", "SENTENCE_MODES", "check_mode", "effective_mode", "parse_texts"]


def parse_texts(texts: Sequence[str], doc_ids: Sequence[str | None] | None = None,
                mode: str = DEFAULT_SENTENCES) -> list[ParsedText]:
    """Texts parsed once with spaCy's batched pipe, sentence starts preset at line breaks where
    ``mode`` reads lines; a text read as ``text`` parses exactly as
    :func:`coherence.parser.document.parse_texts` parses it."""
    from spacy.tokens import Doc as SpacyDoc

    nlp = spacy_pipeline(SPACY_DISABLE)
    ids = list(doc_ids) if doc_ids is not None else [None] * len(texts)
    tokenised = [token_offsets(t) for t in texts]
    docs = []
    for text, (words, offsets) in zip(texts, tokenised):
        if not words:
            continue
        if effective_mode(text, mode) == "lines":
            # True: a line starts here; None: the parser decides (several sentences may share a line)
            starts: list[bool | int | None] = [True if new or i == 0 else None
                                         for i, new in enumerate(line_starts(text, offsets))]
            docs.append(SpacyDoc(nlp.vocab, words=words, sent_starts=starts))
        else:
            docs.append(SpacyDoc(nlp.vocab, words=words))
    parsed = iter(nlp.pipe(docs))
    return [ParsedText(t, d, next(parsed) if tok[0] else None, tok) for t, d, tok in zip(texts, ids, tokenised)]
