"""Argument span extraction for explicit relations: PS takes the previous sentence as Arg1;
SS splits the connective's sentence by position (Tier 0) or by the dependency subtree of the
clause the connective attaches to (Tier 1, falling back to the Tier 0 split)."""

from __future__ import annotations

from coherence.parser.argpos import PS
from coherence.parser.connectives import Candidate, sentence_initial
from coherence.parser.document import ParsedText
from coherence.parser.lexicon import category

Tokens = list[int]


def _trim(pt: ParsedText, tokens) -> Tokens:
    """Sorted tokens without leading/trailing punctuation."""
    toks = sorted(tokens)
    while toks and pt.pos[toks[0]] == "PUNCT":
        toks.pop(0)
    while toks and pt.pos[toks[-1]] == "PUNCT":
        toks.pop()
    return toks


def _sentence(pt: ParsedText, k: int) -> range:
    a, b = pt.sentences[k]
    return range(a, b)


def previous_sentence_args(pt: ParsedText, cand: Candidate) -> tuple[Tokens, Tokens]:
    """PS: Arg1 = whole previous sentence, Arg2 = connective sentence minus the connective."""
    conn = set(cand.tokens)
    arg1 = _trim(pt, _sentence(pt, cand.sentence - 1))
    arg2 = _trim(pt, (t for t in _sentence(pt, cand.sentence) if t not in conn))
    return arg1, arg2


def linear_split(pt: ParsedText, cand: Candidate) -> tuple[Tokens, Tokens]:
    """Tier 0 SS: an initial subordinator's clause runs to the first comma (Arg2), the rest is
    Arg1; a medial connective has Arg1 on its left and Arg2 on its right."""
    sent = _sentence(pt, cand.sentence)
    conn = set(cand.tokens)
    first, last = cand.tokens[0], cand.tokens[-1]
    if sentence_initial(pt, cand):
        comma = next((j for j in range(last + 2, sent.stop) if pt.words[j] == ","), None)
        if comma is not None:
            return (_trim(pt, range(comma + 1, sent.stop)),
                    _trim(pt, (t for t in range(last + 1, comma) if t not in conn)))
        return [], _trim(pt, (t for t in range(last + 1, sent.stop) if t not in conn))
    return (_trim(pt, range(sent.start, first)),
            _trim(pt, (t for t in range(last + 1, sent.stop) if t not in conn)))


def dependency_split(pt: ParsedText, cand: Candidate) -> tuple[Tokens, Tokens]:
    """Tier 1 SS: Arg2 = subtree of the clause the connective attaches to (for a coordinator,
    the following conjunct), Arg1 = the rest of the sentence; Tier 0 split if either is empty."""
    sent = _sentence(pt, cand.sentence)
    conn = set(cand.tokens)
    first = cand.tokens[0]
    head = pt.heads[first]
    arg2_root = head
    if pt.deps[first] == "cc" or category(cand.key) == "coordinator":
        conjuncts = [c for c in pt.children[head] if pt.deps[c] == "conj" and c > first]
        arg2_root = conjuncts[0] if conjuncts else head
    if arg2_root == first:
        return linear_split(pt, cand)
    arg2 = set(pt.subtree(arg2_root)) - conn
    arg1 = set(sent) - arg2 - conn
    arg1_t, arg2_t = _trim(pt, arg1), _trim(pt, arg2)
    if not arg1_t or not arg2_t:
        return linear_split(pt, cand)
    return arg1_t, arg2_t


def extract(pt: ParsedText, cand: Candidate, position: str, tier: int) -> tuple[Tokens, Tokens]:
    """Arg1 and Arg2 token lists for a discourse connective at the predicted position."""
    if position == PS and cand.sentence > 0:
        return previous_sentence_args(pt, cand)
    return dependency_split(pt, cand) if tier >= 1 else linear_split(pt, cand)
