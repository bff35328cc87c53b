"""What the labeller sees of a sentence: spaCy's tokens, tags, lemmas and dependency tree (the same
parser at training and at run time: spaCy's English model labels dependencies ClearNLP-style, not
UD), and the sparse feature dicts of predicate candidates and (predicate, argument) candidates.

Training parses the UP sentences' gold tokens (a spaCy ``Doc`` built from the gold words, so token
i is gold token i and gold argument heads map one to one); run time parses raw text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from mteval.srl.up import UPSentence, filler_span, kind_of

#: spaCy POS tags that can be predicates (verbal, nominal, adjectival)
PREDICATE_POS = frozenset({"VERB", "AUX", "NOUN", "PROPN", "ADJ"})
#: candidate arguments lie within this many steps up from the argument to the lowest common
#: ancestor, and down from it to the predicate (see :func:`candidates`)
MAX_UP, MAX_DOWN = 3, 2
_SKIP_POS = frozenset({"PUNCT", "SPACE"})
_PASSIVE_DEPS = frozenset({"auxpass", "nsubjpass", "csubjpass"})


@dataclass(frozen=True)
class Parsed:
    """A parsed text: per token its word, lemma, fine tag, universal POS, dependency label, head
    (-1 at a root) and sentence number (several sentences share a text when spaCy splits it);
    ``lang`` is the parser's language, ``ents`` the named-entity type of each token (``""`` outside
    entities; None when the pipeline has no recogniser)."""

    words: tuple[str, ...]
    lemmas: tuple[str, ...]
    tags: tuple[str, ...]
    pos: tuple[str, ...]
    deps: tuple[str, ...]
    heads: tuple[int, ...]
    sents: tuple[int, ...]
    lang: str = "en"
    ents: tuple[str, ...] | None = None

    def __len__(self) -> int:
        return len(self.words)

    @cached_property
    def children(self) -> tuple[tuple[int, ...], ...]:
        """Each token's dependents, in token order."""
        kids: list[list[int]] = [[] for _ in self.words]
        for i, h in enumerate(self.heads):
            if h >= 0:
                kids[h].append(i)
        return tuple(tuple(k) for k in kids)

    @cached_property
    def chains(self) -> tuple[tuple[int, ...], ...]:
        """Each token and its ancestors up to the root."""
        return tuple(tuple(_chain(self.heads, i)) for i in range(len(self.words)))

    def kind(self, i: int) -> str:
        """Predicate kind of token i from spaCy's POS."""
        return kind_of(self.pos[i])

    def span(self, head: int, predicate: int) -> tuple[int, int]:
        """The filler span of an argument head: its subtree without the predicate's branch; a noun
        under a preposition takes the prepositional phrase (UD heads name the noun, spaCy's tree
        hangs it under the preposition)."""
        top = head
        parent = self.heads[head]
        if self.deps[head] in ("pobj", "pcomp") and parent >= 0 and parent != predicate:
            top = parent
        start, end = filler_span(self.heads, top, predicate)
        return min(start, head), max(end, head + 1)


def from_doc(doc) -> Parsed:
    """A :class:`Parsed` from a spaCy ``Doc`` (parser on); whitespace tokens (spaCy keeps runs of
    spaces as tokens) are left out, a dependent of one hanging from its head instead."""
    kept = [t for t in doc if not t.is_space]
    index = {t.i: k for k, t in enumerate(kept)}
    sent_of = {t.i: k for k, sent in enumerate(doc.sents) for t in sent}

    def head(t) -> int:
        while t.head.i != t.i and t.head.is_space:
            t = t.head
        return -1 if t.head.i == t.i else index[t.head.i]

    return Parsed(
        words=tuple(t.text for t in kept), lemmas=tuple(t.lemma_ for t in kept), tags=tuple(t.tag_ for t in kept),
        pos=tuple(t.pos_ for t in kept), deps=tuple(t.dep_ for t in kept), heads=tuple(head(t) for t in kept),
        sents=tuple(sent_of[t.i] for t in kept), lang=doc.lang_,
        ents=tuple(t.ent_type_ for t in kept) if doc.has_annotation("ENT_IOB") else None)


def parse_gold_tokens(nlp, sentences: Sequence[UPSentence], batch_size: int = 256) -> list[Parsed]:
    """spaCy's analysis of each UP sentence on its gold tokenisation (token i = gold token i)."""
    from spacy.tokens import Doc

    docs = (Doc(nlp.vocab, words=list(s.words), spaces=list(s.space_after)) for s in sentences)
    parsed = [from_doc(d) for d in nlp.pipe(docs, batch_size=batch_size)]
    for sent, p in zip(sentences, parsed):
        if len(p) != len(sent):
            raise ValueError(f"sentence {sent.sent_id}: a gold token is whitespace, so spaCy's tokens no longer "
                             "line up with the gold ones")
    return parsed


def parse_texts(nlp, texts: Iterable[str], batch_size: int = 256) -> list[Parsed]:
    """spaCy's analysis of raw texts (its own tokenisation)."""
    return [from_doc(d) for d in nlp.pipe(texts, batch_size=batch_size)]


# ---- tree paths -----------------------------------------------------------------------------------

def _chain(heads: Sequence[int], i: int) -> list[int]:
    """Token i and its ancestors up to the root."""
    chain = [i]
    while heads[chain[-1]] >= 0 and len(chain) <= len(heads):
        chain.append(heads[chain[-1]])
    return chain


def path(p: Parsed, arg: int, pred: int) -> tuple[list[int], list[int]] | None:
    """(tokens from the argument up to the lowest common ancestor, tokens from the ancestor down to
    the predicate), or None when they lie in different trees."""
    up_chain, down_chain = p.chains[arg], p.chains[pred]
    position = {t: k for k, t in enumerate(down_chain)}
    for k, t in enumerate(up_chain):
        if t in position:
            return list(up_chain[:k + 1]), list(reversed(down_chain[:position[t] + 1]))
    return None


Route = tuple[list[int], list[int]]


def candidate_routes(p: Parsed, pred: int) -> list[tuple[int, Route]]:
    """Argument candidates of a predicate with their tree paths: tokens of its sentence (not
    punctuation, not itself) at most ``MAX_UP`` steps up to the common ancestor and ``MAX_DOWN``
    down to the predicate (the dependency form of Xue and Palmer's pruning; it keeps ~98% of
    gold argument heads on EWT dev)."""
    out = []
    for a in range(len(p)):
        if a == pred or p.sents[a] != p.sents[pred] or p.pos[a] in _SKIP_POS:
            continue
        route = path(p, a, pred)
        if route and len(route[0]) - 1 <= MAX_UP and len(route[1]) - 1 <= MAX_DOWN:
            out.append((a, route))
    return out


def path_string(p: Parsed, route: Route) -> str:
    """A tree path as dependency labels: up from the argument (``^``), then down to the predicate (``v``)."""
    ups, downs = route
    return "^".join(p.deps[t] for t in ups[:-1]) + "|" + "v".join(p.deps[t] for t in downs[1:])


def voice(p: Parsed, pred: int) -> str:
    """``passive`` when the predicate has a passive auxiliary or subject, or is a past participle
    modifying a noun; ``active`` for other verbs; ``-`` for non-verbs."""
    if p.pos[pred] not in ("VERB", "AUX"):
        return "-"
    deps = {p.deps[c] for c in p.children[pred]}
    if deps & _PASSIVE_DEPS or (p.tags[pred] == "VBN" and p.deps[pred] in ("acl", "amod")):
        return "passive"
    return "active"


# ---- features -------------------------------------------------------------------------------------

def predicate_features(p: Parsed, i: int) -> dict[str, float]:
    """Features of token i as a predicate candidate: its lemma, tags, suffix, dependency, its head,
    the dependencies of its children (a noun with an ``of`` or possessive dependent reads as an
    event more often) and, for English nouns, their WordNet classes."""
    lemma = p.lemmas[i].lower()
    head = p.heads[i]
    f = {f"lemma={lemma}": 1.0, f"tag={p.tags[i]}": 1.0, f"pos={p.pos[i]}": 1.0, f"dep={p.deps[i]}": 1.0,
         f"lemma_pos={lemma}|{p.pos[i]}": 1.0, f"suffix3={lemma[-3:]}": 1.0, f"suffix4={lemma[-4:]}": 1.0,
         f"tag_dep={p.tags[i]}|{p.deps[i]}": 1.0, f"lemma_dep={lemma}|{p.deps[i]}": 1.0,
         f"head_pos={p.pos[head] if head >= 0 else 'ROOT'}": 1.0,
         f"head_lemma={p.lemmas[head].lower() if head >= 0 else 'ROOT'}": 1.0}
    if p.pos[i] == "NOUN" and p.lang == "en":
        for name in noun_classes(lemma):
            f[f"wn={name}"] = 1.0
    for c in p.children[i]:
        f[f"child_dep={p.deps[c]}"] = 1.0
        f[f"child={p.deps[c]}|{p.lemmas[c].lower()}" if p.pos[c] in ("ADP", "AUX", "PART")
          else f"child={p.deps[c]}"] = 1.0
    return f


@lru_cache(maxsize=100_000)
def noun_classes(lemma: str) -> tuple[str, ...]:
    """WordNet 3.0's lexicographer files of a noun's first two senses (``noun.act``, ``noun.event``...)
    and ``deverbal`` when its first sense derives from a verb: what makes an unseen noun read as an
    event, where the training data (one dev set) has seen few nominal predicates."""
    from evalcore.resources.wordnet import wordnet

    synsets = wordnet().synsets(lemma, "n")
    names = {s.lexname() for s in synsets[:2]}
    if synsets and any(r.synset().pos() == "v" for lem in synsets[0].lemmas()
                       for r in lem.derivationally_related_forms()):
        names.add("deverbal")
    return tuple(sorted(names))


def argument_features(p: Parsed, pred: int, arg: int, route: Route | None = None) -> dict[str, float]:
    """Features of token ``arg`` as an argument of predicate ``pred``: the dependency path between
    them, relative position, voice, lemmas and tags of both, the argument's head word (the
    preposition of a ``pobj``), predicate kind, and their conjunctions."""
    ups, downs = route or path(p, arg, pred) or ([arg], [pred])
    dep_path = path_string(p, (ups, downs))
    pos_path = "^".join(p.pos[t] for t in ups) + "|" + "v".join(p.pos[t] for t in downs[1:])
    lemma = p.lemmas[pred].lower()
    kind = p.kind(pred)
    vc = voice(p, pred)
    side = "before" if arg < pred else "after"
    dist = abs(arg - pred)
    a_lemma = p.lemmas[arg].lower()
    head = p.heads[arg]
    head_word = p.lemmas[head].lower() if head >= 0 else "ROOT"
    f = {
        f"path={dep_path}": 1.0, f"pos_path={pos_path}": 1.0, f"up={len(ups) - 1}|down={len(downs) - 1}": 1.0,
        f"kind={kind}": 1.0, f"voice={vc}": 1.0, f"side={side}": 1.0,
        f"dist={min(dist, 6)}": 1.0, f"p_lemma={lemma}": 1.0, f"p_tag={p.tags[pred]}": 1.0,
        f"a_lemma={a_lemma}": 1.0, f"a_tag={p.tags[arg]}": 1.0, f"a_dep={p.deps[arg]}": 1.0,
        f"a_head={head_word}": 1.0, f"a_head_dep={p.deps[arg]}|{head_word}": 1.0,
        f"kind_path={kind}|{dep_path}": 1.0, f"voice_side_path={vc}|{side}|{dep_path}": 1.0,
        f"p_lemma_path={lemma}|{dep_path}": 1.0, f"p_lemma_a_dep={lemma}|{p.deps[arg]}|{side}": 1.0,
        f"kind_a_dep_side={kind}|{p.deps[arg]}|{side}": 1.0, f"p_lemma_a_lemma={lemma}|{a_lemma}": 1.0,
        f"a_head_path={head_word}|{dep_path}": 1.0, f"voice_a_dep={vc}|{p.deps[arg]}|{side}": 1.0,
        f"p_dep={p.deps[pred]}": 1.0, f"p_dep_path={p.deps[pred]}|{dep_path}": 1.0,
    }
    for c in p.children[arg]:
        if p.deps[c] in ("mark", "case", "prep", "aux", "det", "poss"):
            f[f"a_child={p.deps[c]}|{p.lemmas[c].lower()}"] = 1.0
    # name heads differ: UD heads "Masoud Shojai" on its first word, spaCy on its last
    if p.pos[arg] == "PROPN":
        names = [c for c in p.children[arg] if p.deps[c] == "compound" and p.pos[c] == "PROPN"]
        first = p.deps[arg] == "compound" and not any(
            c < arg and p.deps[c] == "compound" for c in p.children[head]) if head >= 0 else False
        f[f"name={'head_with_compounds' if names else 'first_compound' if first else 'plain'}|{dep_path}"] = 1.0
    pred_head = p.heads[pred]
    if kind != "verbal" and pred_head >= 0:
        f[f"p_head_path={p.lemmas[pred_head].lower()}|{p.deps[pred]}|{dep_path}"] = 1.0
    f[f"a_lemma_path={a_lemma}|{dep_path}"] = 1.0
    if p.ents is not None:
        f[f"a_ent={p.ents[arg]}|{dep_path}"] = 1.0
        f[f"a_ent_head={p.ents[arg]}|{head_word}"] = 1.0
    return f
