"""Corpus readers, gold alignment and the benchmark's metrics (small inputs only)."""

from __future__ import annotations

from coherence.corpora import is_blanked, load_gdtb, load_tedm
from coherence.gold import connective_examples, explicit_examples, pair_examples
from coherence.parser.document import ParsedText
from coherence.parser.lexicon import load_lexicon


def test_gdtb_counts_match_spec(gdtb_dir):
    docs, skipped = load_gdtb(gdtb_dir, "test")
    assert len(docs) == 30 and len(skipped) == 2 and all("reddit" in s for s in skipped)
    assert sum(len(d.relations) for d in docs) == 1708  # spec 2.4 [data]
    assert is_blanked("___ __ _") and not is_blanked("a _")


def test_tedm_reader(discourse_dir):
    docs = load_tedm(discourse_dir / "tedm", "dev")
    rels = [r for d in docs for r in d.relations]
    assert len(rels) == 178 and sum(len(d.connectives) for d in docs) > 50
    d = docs[0]
    for spans in d.connectives[:5]:
        assert d.text[slice(*spans[0])].strip()


def test_gold_alignment(test_doc):
    pt = ParsedText(test_doc.text, test_doc.doc_id)
    cands, labels = connective_examples(pt, test_doc, load_lexicon().tier1_keys)
    assert any(labels) and not all(labels)
    exs = explicit_examples(pt, test_doc)
    assert exs and {e.position for e in exs} <= {"SS", "PS"}
    pairs, plabels, annotated = pair_examples(pt, test_doc)
    assert len(pairs) == len(plabels) == len(annotated) and any(annotated)
    assert all(lab == "NoRel" for lab, a in zip(plabels, annotated) if not a)
    assert set(plabels) <= {"Temporal", "Contingency", "Comparison", "Expansion", "EntRel", "NoRel"}


