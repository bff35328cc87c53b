"""The end-to-end parser: connectives -> Arg1 position -> arguments -> explicit sense ->
non-explicit pairs, each stage consuming the previous stage's predictions (Lin et al.)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from coherence.parser import argpos, args, explicit_sense, nonexplicit, vectors
from coherence.parser.connectives import Candidate, context_features, find_candidates, tier0_is_discourse
from coherence.parser.document import ParsedText, parse_texts
from coherence.parser.lexicon import Lexicon, load_lexicon
from coherence.relations import Relation, Span
from evalcore.models import SUFFIX, ModelFileError, load_model
from evalcore.resources import ResourceError, package_path

#: a connective candidate with the text it occurs in
Occurrence = tuple[ParsedText, Candidate]

PROVIDERS = {0: "rules-v1", 1: "gdtb-clf-v1"}
MODEL_NAME = "parser_tier1"


def model_path(folder: Path | None = None) -> Path:
    """The Tier 1 model file (:mod:`evalcore.models`), shipped or in ``folder``."""
    return (folder or package_path("coherence", "models")) / f"{MODEL_NAME}{SUFFIX}"


def load_parser_model(path: str | Path | None = None) -> tuple[dict, dict]:
    """The Tier 1 estimators (``connective``, ``argpos``, ``explicit_sense``, ``nonexplicit``) and
    their header (features, split, versions, seed, ``sha256``), checked against the hash there;
    read once per process and file version."""
    model_file = Path(path) if path else model_path()
    if not model_file.exists():
        raise ResourceError(f"Tier 1 parser model {model_file} is missing: run "
                            "`coherence train parser` or use --tier 0")
    try:
        return load_model(model_file, classes=(nonexplicit.PairFeaturizer,))
    except ModelFileError as exc:
        raise ResourceError(str(exc)) from None


def _by_text(pairs: Sequence[tuple[ParsedText, int]]) -> list[tuple[ParsedText, list[int]]]:
    """Consecutive pairs of one text grouped: (text, its sentence indices), in order."""
    groups: list[tuple[ParsedText, list[int]]] = []
    for pt, i in pairs:
        if groups and groups[-1][0] is pt:
            groups[-1][1].append(i)
        else:
            groups.append((pt, [i]))
    return groups


def _sentence_spans(pt: ParsedText, i: int) -> tuple[Span, ...]:
    """Character spans of sentence ``i`` without punctuation: a non-explicit argument."""
    return pt.spans_of(t for t in range(*pt.sentences[i]) if pt.pos[t] != "PUNCT")


class DiscourseParser:
    """PDTB-style shallow parser; ``tier=0`` rules and lexicon, ``tier=1`` GDTB classifiers."""

    def __init__(self, tier: int = 1, model_path: str | None = None, lexicon_path: str | None = None,
                 lexicon: Lexicon | None = None):
        if tier not in PROVIDERS:
            raise ValueError(f"tier must be 0 or 1, got {tier!r}")
        self.tier = tier
        self.provider = PROVIDERS[tier]
        self.lexicon = lexicon or load_lexicon(lexicon_path)
        self.models, info = load_parser_model(model_path) if tier == 1 else ({}, {})
        #: SHA-256 of the Tier 1 model file (None for the rules): part of the parser's identity
        self.model_sha256: str | None = info.get("sha256")
        self.keys = self.lexicon.tier0_keys if tier == 0 else self.lexicon.tier1_keys

    # --- stages: each takes the occurrences of a whole batch of texts ------------------
    # A Tier 1 classifier is called once per stage for the batch, never once per text:
    # scikit-learn's per-call checks cost more than the prediction of a short text's rows.
    def candidates(self, pt: ParsedText) -> list[Candidate]:
        return find_candidates(pt, self.keys)

    # ``contexts``: each occurrence's context_features, made once for the three classifiers
    # that read them (each stage copies before adding its own features)
    def contexts(self, occurrences: Sequence[Occurrence]) -> list[dict[str, float]] | None:
        """The context features of each candidate (Tier 1; None for the rules)."""
        return None if self.tier == 0 else [context_features(pt, c) for pt, c in occurrences]

    def is_discourse(self, occurrences: Sequence[Occurrence],
                     contexts: Sequence[dict[str, float]] | None = None) -> list[bool]:
        """Discourse vs non-discourse use of each candidate."""
        if self.tier == 0 or not occurrences:
            return [tier0_is_discourse(pt, c) for pt, c in occurrences]
        rows = contexts if contexts is not None else [context_features(pt, c) for pt, c in occurrences]
        preds = vectors.predict(self.models["connective"], rows)
        return [bool(p) for p in preds]

    def positions(self, occurrences: Sequence[Occurrence],
                  contexts: Sequence[dict[str, float]] | None = None) -> list[str]:
        """SS or PS for each discourse connective (PS impossible in the first sentence)."""
        if self.tier == 0 or not occurrences:
            return [argpos.tier0_position(pt, c) for pt, c in occurrences]
        rows = contexts if contexts is not None else [context_features(pt, c) for pt, c in occurrences]
        preds = vectors.predict(self.models["argpos"],
                                [argpos.features(pt, c, f) for (pt, c), f in zip(occurrences, rows)])
        return [str(p) if c.sentence > 0 else argpos.SS for (_, c), p in zip(occurrences, preds)]

    def explicit_senses(self, occurrences: Sequence[Occurrence],
                        contexts: Sequence[dict[str, float]] | None = None) -> list[str]:
        """Level-1 sense of each discourse connective."""
        if self.tier == 0:
            return [self.lexicon.mfs_pdtb2(c.key) for _, c in occurrences]
        return explicit_sense.predict(self.models["explicit_sense"], occurrences, self.lexicon, contexts)

    def nonexplicit_labels(self, pairs: Sequence[tuple[ParsedText, int]]) -> list[str]:
        """6-way label of each adjacent pair (sentence i, sentence i + 1) of its text."""
        if self.tier == 0 or not pairs:
            return [nonexplicit.tier0_label(pt, i) for pt, i in pairs]
        items = [item for pt, indices in _by_text(pairs) for item in nonexplicit.pair_items(pt, indices)]
        preds = self.models["nonexplicit"].predict(items)
        return [str(p) for p in preds]

    # --- end to end ---------------------------------------------------------------------
    def parse_batch(self, pts: Sequence[ParsedText]) -> list[list[Relation]]:
        """Relations of each preprocessed text, explicit ones first, in text order; every
        stage runs once over the whole batch (a text's relations do not depend on the others)."""
        cands = [(k, c) for k, pt in enumerate(pts) for c in self.candidates(pt)]
        contexts = self.contexts([(pts[k], c) for k, c in cands])
        found = self.is_discourse([(pts[k], c) for k, c in cands], contexts)
        conns = [(k, c) for (k, c), ok in zip(cands, found) if ok]
        occurrences = [(pts[k], c) for k, c in conns]
        if contexts is not None:
            contexts = [f for f, ok in zip(contexts, found) if ok]
        relations: list[list[Relation]] = [[] for _ in pts]
        linked: list[set[int]] = [set() for _ in pts]
        for (k, cand), pos, sense in zip(conns, self.positions(occurrences, contexts),
                                         self.explicit_senses(occurrences, contexts)):
            pt = pts[k]
            a1, a2 = args.extract(pt, cand, pos, self.tier)
            if not a2:
                continue
            if pos == argpos.PS and cand.sentence > 0:
                linked[k].add(cand.sentence)
            relations[k].append(self._relation(pt, "Explicit", sense, a1, a2, list(cand.tokens)))
        pairs = [(k, i) for k, pt in enumerate(pts) for i in nonexplicit.candidate_pairs(pt, linked[k])]
        spans: dict[tuple[int, int], tuple[Span, ...]] = {}  # a sentence shared by two pairs is read once
        for (k, i), label in zip(pairs, self.nonexplicit_labels([(pts[k], i) for k, i in pairs])):
            pt = pts[k]
            s1, s2 = (spans.get((k, j)) or spans.setdefault((k, j), _sentence_spans(pt, j)) for j in (i, i + 1))
            if not s1 or not s2:
                continue
            rel_type = label if label in ("EntRel", "NoRel") else "Implicit"
            relations[k].append(Relation(rel_type=rel_type, sense=None if rel_type != "Implicit" else label,
                                         arg1=s1, arg2=s2, provider=self.provider, doc_id=pt.doc_id,
                                         arg1_sentences=(i,), arg2_sentences=(i + 1,)))
        return relations

    def parse_parsed(self, pt: ParsedText) -> list[Relation]:
        """Relations of one preprocessed text, explicit ones first, in text order."""
        return self.parse_batch([pt])[0]

    def _relation(self, pt: ParsedText, rel_type: str, sense: str | None, a1: list[int],
                  a2: list[int], conn: list[int]) -> Relation:
        return Relation(rel_type=rel_type, sense=sense, arg1=pt.spans_of(a1), arg2=pt.spans_of(a2),
                        connective=pt.spans_of(conn),
                        connective_text=" ".join(pt.words[t] for t in conn) or None,
                        provider=self.provider, doc_id=pt.doc_id,
                        arg1_sentences=tuple(sorted({pt.sent_of[t] for t in a1})),
                        arg2_sentences=tuple(sorted({pt.sent_of[t] for t in a2})))

    def parse(self, text: str, doc_id: str | None = None) -> list[Relation]:
        """Relations of one text; empty or sentence-less text gives an empty list."""
        if not isinstance(text, str):
            raise TypeError(f"{doc_id or 'text'}: expected str, got {type(text).__name__}")
        return self.parse_parsed(ParsedText(text, doc_id))

    def parse_many(self, texts: list[str], doc_ids: list[str | None] | None = None) -> list[list[Relation]]:
        """Relations of many texts, spaCy and the classifiers batched; one list per text, in order."""
        return self.parse_batch(parse_texts(texts, doc_ids))
