"""Explicit connective identification: lexicon candidates (longest match, paired connectives
inside one sentence), Tier 0 filters for ambiguous items, and Tier 1 classifier features."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from coherence.parser.document import ParsedText
from coherence.parser.lexicon import category

FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"})
# Tier 0 filters (spec 2.3.2).
_NEED_FINITE_OR_INITIAL = frozenset({"and", "or", "but", "nor", "yet", "so", "then"})
_NEED_CLAUSE = frozenset({"as", "since", "when", "while", "until", "before", "after", "once", "if"})
_ONLY_INITIAL = frozenset({"for"})


@dataclass(frozen=True)
class Candidate:
    """A lexicon match: connective key, its token indices (all parts) and its sentence."""

    key: str
    tokens: tuple[int, ...]
    sentence: int


def _index(keys) -> dict[str, list[list[list[str]]]]:
    """First word -> candidate keys as lists of parts (word lists), longest first."""
    by_first: dict[str, list[list[list[str]]]] = defaultdict(list)
    for key in keys:
        parts = [p.split() for p in key.split("..")]
        if parts and parts[0]:
            by_first[parts[0][0]].append(parts)
    for lst in by_first.values():
        lst.sort(key=lambda parts: (-sum(map(len, parts)), parts))
    return by_first


_INDEX_CACHE: dict[frozenset, dict] = {}


def find_candidates(pt: ParsedText, keys: frozenset[str]) -> list[Candidate]:
    """Longest-match connective candidates, left to right, non-overlapping."""
    index = _INDEX_CACHE.get(keys)
    if index is None:
        index = _INDEX_CACHE.setdefault(keys, _index(keys))
    out: list[Candidate] = []
    for sent, (a, b) in enumerate(pt.sentences):
        used: set[int] = set()
        for i in range(a, b):
            if i in used or pt.lower[i] not in index:
                continue
            for parts in index[pt.lower[i]]:
                if len(parts[0]) > 1 and pt.lower[i + 1:i + len(parts[0])] != parts[0][1:]:
                    continue  # the first part does not follow (a cheap test of most candidates)
                match = _match_parts(pt.lower, parts, i, b, used)
                if match:
                    used.update(match)
                    out.append(Candidate("..".join(" ".join(p) for p in parts), tuple(match), sent))
                    break
    return out


def _match_parts(words: list[str], parts: list[list[str]], i: int, end: int,
                 used: set[int]) -> list[int] | None:
    """Token indices of ``parts`` with the first part at ``i`` and later parts after it."""
    tokens: list[int] = []
    pos = i
    for n, part in enumerate(parts):
        starts = [pos] if n == 0 else range(pos, end - len(part) + 1)
        for s in starts:
            span = range(s, s + len(part))
            if s + len(part) <= end and all(words[j] == w and j not in used for j, w in zip(span, part)):
                tokens.extend(span)
                pos = s + len(part)
                break
        else:
            return None
    return tokens


def sentence_initial(pt: ParsedText, cand: Candidate) -> bool:
    """Whether only punctuation precedes the connective in its sentence."""
    a, _ = pt.sentences[cand.sentence]
    return all(pt.pos[j] == "PUNCT" for j in range(a, cand.tokens[0]))


def _verb_after(pt: ParsedText, cand: Candidate, tags: frozenset[str]) -> bool:
    _, b = pt.sentences[cand.sentence]
    return any(pt.tags[j] in tags for j in range(cand.tokens[-1] + 1, b))


def tier0_is_discourse(pt: ParsedText, cand: Candidate) -> bool:
    """Tier 0 filters for ambiguous connectives (spec 2.3.2); other candidates are accepted."""
    if cand.key in _ONLY_INITIAL:
        return sentence_initial(pt, cand)
    if cand.key in _NEED_FINITE_OR_INITIAL:
        return sentence_initial(pt, cand) or _verb_after(pt, cand, FINITE_TAGS)
    if cand.key in _NEED_CLAUSE:
        return _verb_after(pt, cand, VERB_TAGS)
    return True


def context_features(pt: ParsedText, cand: Candidate) -> dict[str, float]:
    """Lexical, POS and dependency context of a connective (Lin et al. with dependency paths)."""
    k, first, last = cand.key, cand.tokens[0], cand.tokens[-1]
    a, b = pt.sentences[cand.sentence]
    surface = "_".join(pt.words[t] for t in cand.tokens)
    cpos = "_".join(pt.tags[t] for t in cand.tokens)
    prev = pt.lower[first - 1] if first > a else "<S>"
    prevpos = pt.tags[first - 1] if first > a else "<S>"
    prev2pos = pt.tags[first - 2] if first - 1 > a else "<S>"
    nxt = pt.lower[last + 1] if last + 1 < b else "</S>"
    nextpos = pt.tags[last + 1] if last + 1 < b else "</S>"
    head = pt.heads[first]
    path, j = [], first
    for _ in range(4):
        path.append(pt.deps[j])
        if pt.heads[j] == j:
            break
        j = pt.heads[j]
    init = sentence_initial(pt, cand)
    rel_pos = "start" if init else ("end" if last + 2 >= b else "mid")
    f: dict[str, float] = {
        f"c={k}": 1, f"cs={surface}": 1, f"cpos={cpos}": 1, f"cat={category(k)}": 1,
        f"prev={prev}": 1, f"prev+c={prev}|{k}": 1, f"prevpos={prevpos}": 1,
        f"prevpos+cpos={prevpos}|{cpos}": 1, f"prev2pos={prev2pos}|{prevpos}": 1,
        f"next={nxt}": 1, f"next+c={k}|{nxt}": 1, f"nextpos={nextpos}": 1,
        f"cpos+nextpos={cpos}|{nextpos}": 1, f"dep={pt.deps[first]}": 1,
        f"c+dep={k}|{pt.deps[first]}": 1, f"hpos={pt.tags[head]}": 1, f"c+hpos={k}|{pt.tags[head]}": 1,
        f"hdep={pt.deps[head]}": 1, f"path={'>'.join(path)}": 1, f"c+path={k}|{'>'.join(path)}": 1,
        f"pos={rel_pos}": 1, f"c+pos={k}|{rel_pos}": 1,
        f"c+head_before={k}|{head < first}": 1, f"c+prev+next={k}|{prevpos}|{nextpos}": 1,
        f"c+kids={k}|{' '.join(sorted(pt.deps[c] for c in pt.children[first]))}": 1,
        f"c+hdep={k}|{pt.deps[head]}": 1,
    }
    if _verb_after(pt, cand, FINITE_TAGS):
        f["finite_after"] = 1
        f[f"c+finite_after={k}"] = 1
    if any(pt.words[j] == "," for j in range(last + 1, b)):
        f["comma_after"] = 1
    return f
