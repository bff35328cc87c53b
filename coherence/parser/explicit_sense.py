"""Level-1 sense of explicit relations: Tier 0 = the connective's PDTB-2 most frequent sense;
Tier 1 = classifier on the connective and its context, with the GDTB-train most frequent
sense as a feature and as the back-off for connectives never seen in training."""

from __future__ import annotations

from collections.abc import Sequence

from coherence.parser import vectors
from coherence.parser.connectives import Candidate, context_features
from coherence.parser.document import ParsedText
from coherence.parser.lexicon import Lexicon


def features(pt: ParsedText, cand: Candidate, lexicon: Lexicon,
             context: dict[str, float] | None = None) -> dict[str, float]:
    """Connective context features (``context``, when already made) plus its training-set and
    PDTB-2 most frequent senses."""
    f = dict(context) if context is not None else context_features(pt, cand)
    f["mfs=" + lexicon.mfs_train(cand.key)] = 1
    f["mfs2=" + lexicon.mfs_pdtb2(cand.key)] = 1
    head = pt.heads[cand.tokens[0]]
    f[f"c+hlemma={cand.key}|{pt.lemmas[head]}"] = 1
    f[f"c+htag={cand.key}|{pt.tags[head]}"] = 1
    return f


def predict(model, occurrences: Sequence[tuple[ParsedText, Candidate]], lexicon: Lexicon,
            contexts: Sequence[dict[str, float]] | None = None) -> list[str]:
    """Tier 1 senses of connectives (each with its text; ``contexts``: their context features,
    when already made), one classifier call for all; a connective unseen in training keeps its
    most frequent sense."""
    if not occurrences:
        return []
    given: Sequence[dict[str, float] | None] = contexts if contexts is not None else [None] * len(occurrences)
    preds = vectors.predict(model, [features(pt, c, lexicon, f) for (pt, c), f in zip(occurrences, given)])
    return [str(p) if c.key in lexicon.gdtb_train else lexicon.mfs_train(c.key)
            for (_, c), p in zip(occurrences, preds)]
