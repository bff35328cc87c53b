"""Gold annotations aligned to the parser's tokens and sentences: the training and evaluation
examples of every stage, plus a disk cache of spaCy parses of corpus documents."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from coherence.corpora import GoldDocument
from coherence.parser.argpos import gold_position
from coherence.parser.connectives import Candidate, find_candidates
from coherence.parser.document import ParsedText, parse_texts
from coherence.parser.lexicon import normalise
from coherence.relations import LEVEL1


@dataclass
class ExplicitExample:
    """A gold explicit relation seen through the parser's tokens."""

    cand: Candidate
    l1: str
    position: str
    arg1: set[int]
    arg2: set[int]


def parse_corpus(docs: list[GoldDocument]) -> list[ParsedText]:
    """spaCy parses of corpus documents, cached on disk by text and model (parsing dominates
    training and benchmark time); an unusable or corrupt cache only costs the time to parse."""
    from spacy.tokens import DocBin

    from evalcore.io.persist import write_cache_entry
    from evalcore.resources.registry import cache_warning, spacy_pipeline, usable_cache_dir

    nlp = spacy_pipeline(("ner",))
    key = hashlib.sha256("\x00".join([nlp.meta.get("name", ""), nlp.meta.get("version", "")] +
                                     [d.text for d in docs]).encode()).hexdigest()[:20]
    folder = usable_cache_dir("coherence")
    path = folder / f"{key}.spacy" if folder else None
    if path and path.exists():
        try:
            spacy_docs = list(DocBin().from_disk(path).get_docs(nlp.vocab))
            wanted = [d for d in docs if d.text.strip()]
            if len(spacy_docs) != len(wanted):
                raise ValueError(f"{len(spacy_docs)} parses for {len(wanted)} texts")
            found = iter(spacy_docs)
            return [ParsedText(d.text, d.doc_id, next(found) if d.text.strip() else None) for d in docs]
        except Exception as exc:  # noqa: BLE001 - any unreadable cache file: parse again, write it over
            cache_warning(path, f"is not a valid cache entry ({type(exc).__name__}: {exc}); rebuilding it")
    parsed = parse_texts([d.text for d in docs], [d.doc_id for d in docs])
    if path:
        data = DocBin(attrs=["TAG", "POS", "DEP", "HEAD", "LEMMA", "SENT_START"],
                      docs=[p.doc for p in parsed if p.doc is not None]).to_bytes()
        write_cache_entry(path, lambda tmp: tmp.write_bytes(data))
    return parsed


def connective_examples(pt: ParsedText, doc: GoldDocument, keys: frozenset[str]) -> tuple[list[Candidate], list[bool]]:
    """Lexicon candidates labelled True when they overlap a gold connective."""
    gold = pt.tokens_in(s for spans in doc.connectives for s in spans)
    cands = find_candidates(pt, keys)
    return cands, [bool(gold.intersection(c.tokens)) for c in cands]


def explicit_examples(pt: ParsedText, doc: GoldDocument) -> list[ExplicitExample]:
    """Gold explicit relations with a known connective position and a level-1 sense."""
    out = []
    for rel in doc.relations:
        if not (rel.explicit and rel.connective) or rel.l1 not in LEVEL1:
            continue
        toks = sorted(pt.tokens_in(rel.connective))
        if not toks:
            continue
        key = normalise("..".join(doc.text[s:e] for s, e in rel.connective))
        cand = Candidate(key, tuple(toks), pt.sent_of[toks[0]])
        arg1, arg2 = pt.tokens_in(rel.arg1), pt.tokens_in(rel.arg2)
        out.append(ExplicitExample(cand, rel.l1, gold_position(pt, cand, arg1), arg1, arg2))
    return out


def pair_examples(pt: ParsedText, doc: GoldDocument) -> tuple[list[int], list[str], list[bool]]:
    """Adjacent sentence pairs, their gold 6-way label and whether a gold relation gave it
    (False = labelled NoRel for lack of any gold relation). A pair carries the non-explicit relation whose Arg1 ends in
    the
    first sentence and Arg2 starts in the second; pairs linked only by an explicit are left out."""
    nonexp: dict[int, str] = {}
    explicit_linked: set[int] = set()
    for rel in doc.relations:
        a1, a2 = pt.tokens_in(rel.arg1), pt.tokens_in(rel.arg2)
        if not a1 or not a2:
            continue
        s1, s2 = pt.sent_of[max(a1)], pt.sent_of[min(a2)]
        if s2 != s1 + 1:
            continue
        if rel.explicit:
            explicit_linked.add(s1)
        else:
            nonexp.setdefault(s1, rel.l1)
    pairs, labels, annotated = [], [], []
    for i in range(len(pt.sentences) - 1):
        if i in nonexp or i not in explicit_linked:
            pairs.append(i)
            labels.append(nonexp.get(i, "NoRel"))
            annotated.append(i in nonexp)
    return pairs, labels, annotated
