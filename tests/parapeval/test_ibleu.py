"""self-BLEU and iBLEU: sacrebleu's BLEU against the original, the paper's formula, corpus from statistics."""

import pytest
import sacrebleu

from evalcore.metric import Item
from evalcore.metric.registry import get_metric

ORIG = ["The council approved the new budget on Monday.", "Heavy rain closed the mountain road for two days."]
PARA = ["On Monday the council passed the new budget.", "The mountain road was shut by heavy rain for two days."]
REFS = ["The new budget was approved by the council on Monday.",
        "Because of heavy rain the mountain road closed for two days."]


def test_copy_gets_self_bleu_100():
    assert get_metric("self-bleu").score(ORIG[0], ORIG[0]).value == pytest.approx(100)


def test_self_bleu_is_sacrebleu_with_the_original_as_reference():
    metric = get_metric("self-bleu")
    results = metric.score_batch(list(zip(ORIG, PARA)))
    for r, o, p in zip(results, ORIG, PARA):
        assert r.value == pytest.approx(sacrebleu.sentence_bleu(p, [o]).score)
    assert metric.aggregate(results).value == pytest.approx(sacrebleu.corpus_bleu(PARA, [ORIG]).score)


@pytest.mark.parametrize("alpha", [0.8, 0.9])
def test_ibleu_is_the_papers_formula_on_corpus_bleu(alpha):
    metric = get_metric("ibleu", alpha=alpha)
    results = metric.score_batch([Item(p, (r,), source=o) for o, p, r in zip(ORIG, PARA, REFS)])
    expected = (alpha * sacrebleu.corpus_bleu(PARA, [REFS]).score
                - (1 - alpha) * sacrebleu.corpus_bleu(PARA, [ORIG]).score)
    assert metric.aggregate(results).value == pytest.approx(expected)
    sentence = alpha * sacrebleu.sentence_bleu(PARA[0], [REFS[0]]).score - (1 - alpha) * sacrebleu.sentence_bleu(
        PARA[0], [ORIG[0]]).score
    assert results[0].value == pytest.approx(sentence)


def test_alpha_is_in_the_signature_and_checked():
    assert get_metric("ibleu").alpha == 0.8
    assert "alpha:0.9" in str(get_metric("ibleu", alpha=0.9).signature())
    with pytest.raises(ValueError, match="alpha"):
        get_metric("ibleu", alpha=1.5).validate()


def test_ibleu_without_references_is_an_error_record():
    result = get_metric("ibleu").score_batch([Item(PARA[0], (), source=ORIG[0], id="x")])[0]
    assert not result.ok and "no references" in result.message


def test_source_reference_items_need_all_three_parts():
    metric = get_metric("ibleu")
    triple, no_source, pair = metric.score_batch([(ORIG[0], REFS[0], PARA[0]), Item(PARA[0], (REFS[0],)),
                                                  (ORIG[0], PARA[0])])
    assert triple.ok and triple.value == pytest.approx(metric.score(ORIG[0], [REFS[0]], PARA[0]).value)
    assert not no_source.ok and "source" in no_source.message
    assert not pair.ok and "(source, references, candidate) triple" in pair.message
