"""Parser components (candidates, filters, position, arguments, senses, non-explicit pairs),
the end-to-end API and bad input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from coherence.parser import argpos, args, nonexplicit
from coherence.parser.connectives import Candidate, find_candidates, tier0_is_discourse
from coherence.parser.document import ParsedText
from coherence.parser.lexicon import category, load_lexicon, most_frequent, normalise, parse_pdtb2_table
from coherence.parser.pipeline import DiscourseParser

TEXT = ("The market fell sharply. However, investors stayed calm because rates were low. "
        "When prices rose, they sold their shares.")


@pytest.fixture(scope="module")
def pt() -> ParsedText:
    return ParsedText(TEXT, "demo")


@pytest.fixture(scope="module")
def lexicon():
    return load_lexicon()


def by_key(pt, lexicon, key) -> Candidate:
    return next(c for c in find_candidates(pt, lexicon.tier0_keys) if c.key == key)


def test_lexicon(lexicon):
    assert len(lexicon.pdtb2) == 100
    assert lexicon.mfs_pdtb2("while") == "Comparison" and lexicon.mfs_pdtb2("because") == "Contingency"
    assert lexicon.mfs_pdtb2("no-such-connective") == "Expansion"
    assert "if..then" in lexicon.tier0_keys and lexicon.tier1_keys >= lexicon.tier0_keys
    assert most_frequent({"Temporal": 2, "Expansion": 2}) == "Expansion"  # documented tie rule
    assert normalise("If..Then") == "if..then"
    assert category("because") == "subordinator" and category("and") == "coordinator"
    assert category("for example") == "adverbial"


def test_document(pt):
    assert len(pt.sentences) == 3
    assert pt.text[slice(*pt.offsets[5])] == "However"
    assert pt.spans_of([5, 6, 7]) == ((pt.offsets[5][0], pt.offsets[7][1]),)
    assert pt.sentence_of_offset(pt.offsets[-1][0]) == 2


def test_candidates_longest_and_paired(lexicon):
    doc = ParsedText("If it rains, then we stay. As soon as he came, we left.")
    keys = [c.key for c in find_candidates(doc, lexicon.tier0_keys)]
    assert keys == ["if..then", "as soon as"]


def test_tier0_filters(lexicon):
    doc = ParsedText("I like tea and coffee. For example, tea is good. He waited for days.")
    cands = {(c.key, c.sentence): c for c in find_candidates(doc, lexicon.tier0_keys)}
    assert not tier0_is_discourse(doc, cands[("and", 0)])     # no finite clause follows
    assert tier0_is_discourse(doc, cands[("for example", 1)])
    assert not tier0_is_discourse(doc, cands[("for", 2)])     # "for" only sentence-initially


def test_argument_position_and_spans(pt, lexicon):
    however, because = by_key(pt, lexicon, "however"), by_key(pt, lexicon, "because")
    assert argpos.tier0_position(pt, however) == argpos.PS
    assert argpos.tier0_position(pt, because) == argpos.SS
    a1, a2 = args.extract(pt, however, argpos.PS, tier=0)
    assert " ".join(pt.words[t] for t in a1) == "The market fell sharply"
    assert pt.words[a2[0]] == "investors"
    for tier in (0, 1):
        a1, a2 = args.extract(pt, because, argpos.SS, tier=tier)
        assert " ".join(pt.words[t] for t in a2) == "rates were low"
        assert "calm" in {pt.words[t] for t in a1} and "because" not in {pt.words[t] for t in a1 + a2}
    when = by_key(pt, lexicon, "when")
    assert argpos.tier0_position(pt, when) == argpos.SS
    a1, a2 = args.extract(pt, when, argpos.SS, tier=0)
    assert " ".join(pt.words[t] for t in a2) == "prices rose"


def test_nonexplicit_tier0_and_features(pt):
    assert nonexplicit.tier0_label(pt, 1) == "Expansion"
    shared = ParsedText("John bought a car. The car is red. We left early.")
    assert nonexplicit.tier0_label(shared, 0) == "EntRel"    # shared noun "car"
    assert nonexplicit.tier0_label(shared, 1) == "EntRel"    # pronoun opens the second sentence
    item = nonexplicit.pair_item(pt, 0)
    assert "first2=however" in item.base
    assert any(r.endswith(":12") or r.endswith(":1") for r in item.dep_rules)
    assert nonexplicit.candidate_pairs(pt, {1}) == [1]
    mi = nonexplicit.mutual_information([frozenset("a"), frozenset("a"), frozenset("b")] * 2,
                                        ["x", "x", "y"] * 2, min_count=1)
    assert mi["b"] > 0 and mi["a"] > 0


@pytest.mark.parametrize("tier", [0, 1])
def test_end_to_end(tier):
    rels = DiscourseParser(tier=tier).parse(TEXT, "demo")
    explicit = [r for r in rels if r.explicit]
    assert {r.connective_text for r in explicit} >= {"However", "because"}
    however = next(r for r in explicit if r.connective_text == "However")
    assert however.l1 == "Comparison" and however.arg1_sentences == (0,) and however.arg2_sentences == (1,)
    assert all(r.provider == ("rules-v1" if tier == 0 else "gdtb-clf-v1") for r in rels)
    # sentence 0-1 is linked by the PS explicit "However": no non-explicit relation there
    assert not any(not r.explicit and r.arg2_sentences == (1,) for r in rels)


@pytest.mark.parametrize("text", ["", "   \n\t", "Hello.", "@@@ ### !!! ???", "%%%%%%%%%%%%",
                                  "Der Hund bellt laut. Die Katze schläft aber ruhig.",
                                  "犬が吠える。猫は寝ている。", "\x00\x01 and \u200b but"])
@pytest.mark.parametrize("tier", [0, 1])
def test_bad_input_never_crashes(text, tier):
    rels = DiscourseParser(tier=tier).parse(text, "bad")
    assert isinstance(rels, list)
    for r in rels:
        for s, e in r.arg1 + r.arg2 + r.connective:
            assert 0 <= s < e <= len(text)


def test_empty_text_has_no_relations_and_one_sentence_only_explicit_ones():
    parser = DiscourseParser(tier=1)
    assert parser.parse("") == []
    rels = parser.parse("It rained because it was cold.")  # non-explicit relations need two sentences
    assert [(r.rel_type, r.connective_text) for r in rels] == [("Explicit", "because")]


def test_pdtb2_most_frequent_sense_accuracy(pdtb2_table):
    """Spec golden test 4: level-1 most-frequent-sense accuracy over the PDTB-2 table."""
    counts = parse_pdtb2_table(pdtb2_table)
    def majority(c: dict[str, int]) -> int:
        """The count of the most frequent class (every row of the table has one)."""
        sense = most_frequent(c)
        assert sense is not None
        return c[sense]

    hits = sum(majority(c) for c in counts.values())
    assert round(hits / sum(sum(c.values()) for c in counts.values()), 4) == 0.9319


def test_api_rejects_non_text() -> None:
    import coherence

    with pytest.raises(TypeError, match="expected str"):
        coherence.parse(b"bytes")  # type: ignore[arg-type]  # the wrong type on purpose
    assert coherence.parse("", tier=0) == []


def test_parse_many_keeps_order_and_empties():
    out = DiscourseParser(tier=0).parse_many(["", TEXT, "Hi."], ["a", "b", "c"])
    assert len(out) == 3 and out[0] == [] and out[1] and all(r.doc_id == "b" for r in out[1])


def test_a_batch_calls_each_classifier_once_and_parses_as_text_by_text(monkeypatch):
    """Tier 1's four classifiers run once per batch of texts, not once per text, and
    each text gets the relations it gets parsed alone."""
    from coherence.parser.document import parse_texts

    texts = [TEXT, "", "It rained because it was cold. Then the sun came out.",
             "Prices rose. But demand stayed strong, and sellers were happy. Analysts agreed."]
    parser = DiscourseParser(tier=1)
    alone = [parser.parse(t) for t in texts]
    calls: list[str] = []

    def counted_predict(classifier: Any, stage: str) -> Callable[[Any], Any]:
        def predict(X: Any) -> Any:
            calls.append(stage)
            return type(classifier).predict(classifier, X)
        return predict

    for stage, model in parser.models.items():
        classifier = model.steps[-1][1]
        monkeypatch.setattr(classifier, "predict", counted_predict(classifier, stage))
    assert parser.parse_batch(parse_texts(texts)) == alone
    assert sorted(calls) == ["argpos", "connective", "explicit_sense", "nonexplicit"]


def test_fast_rows_are_the_dict_vectorizers_matrix():
    """The parser's own vectorisation gives DictVectorizer.transform's matrix exactly, for each
    Tier 1 classifier's features of real text (unknown features dropped, indices sorted)."""
    from coherence.parser import explicit_sense, vectors
    from coherence.parser.connectives import context_features
    from coherence.parser.document import parse_texts

    parser = DiscourseParser(tier=1)
    pts = parse_texts([TEXT, "Prices rose. But demand stayed strong, and sellers were happy. Analysts agreed."])
    occurrences = [(pt, c) for pt in pts for c in parser.candidates(pt)]
    pairs = [(pt, i) for pt in pts for i in range(len(pt.sentences) - 1)]
    featurizer = parser.models["nonexplicit"].steps[0][1]
    cases = {"connective": [context_features(pt, c) for pt, c in occurrences],
             "argpos": [argpos.features(pt, c) for pt, c in occurrences],
             "explicit_sense": [explicit_sense.features(pt, c, parser.lexicon) for pt, c in occurrences],
             "nonexplicit": featurizer._dicts([nonexplicit.pair_item(pt, i) for pt, i in pairs])}
    for stage, dicts in cases.items():
        vectorizer = featurizer.vectorizer_ if stage == "nonexplicit" else parser.models[stage].steps[0][1]
        unseen = dicts + [{"never seen": 1}]
        fast, slow = vectors.rows(vectorizer, unseen), vectorizer.transform(unseen)
        assert fast.dtype == slow.dtype and fast.shape == slow.shape and fast.nnz == slow.nnz > 0, stage
        for part in ("data", "indices", "indptr"):
            assert np.array_equal(getattr(fast, part), getattr(slow, part)), (stage, part)
