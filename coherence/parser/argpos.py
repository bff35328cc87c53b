"""Arg1 position of an explicit relation: SS (same sentence as the connective) or PS (previous
sentence); Tier 0 rule from the connective's category and position, Tier 1 features."""

from __future__ import annotations

from coherence.parser.connectives import Candidate, context_features, sentence_initial
from coherence.parser.document import ParsedText
from coherence.parser.lexicon import category

SS, PS = "SS", "PS"


def tier0_position(pt: ParsedText, cand: Candidate) -> str:
    """A sentence-initial connective is PS unless it is a subordinator heading a comma-closed
    clause; everything else (and anything in the first sentence) is SS."""
    if cand.sentence == 0 or not sentence_initial(pt, cand):
        return SS
    _, b = pt.sentences[cand.sentence]
    comma_later = any(pt.words[j] == "," for j in range(cand.tokens[-1] + 2, b))
    if category(cand.key) == "subordinator" and comma_later:
        return SS
    return PS


def features(pt: ParsedText, cand: Candidate, context: dict[str, float] | None = None) -> dict[str, float]:
    """Connective context (``context``: its :func:`context_features`, when already made) plus its
    position cues and the sentence index (first sentence)."""
    f = dict(context) if context is not None else context_features(pt, cand)
    f["tier0=" + tier0_position(pt, cand)] = 1
    if cand.sentence == 0:
        f["first_sentence"] = 1
    return f


def gold_position(pt: ParsedText, cand: Candidate, arg1_tokens: set[int]) -> str:
    """SS when any Arg1 token lies in the connective's sentence, else PS."""
    return SS if any(pt.sent_of[t] == cand.sentence for t in arg1_tokens) else PS
