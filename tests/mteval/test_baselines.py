"""BLEU, chrF and TER equal sacrebleu's own functions, sentence and corpus, with one and two
references; METEOR equals nltk's meteor_score on the same tokens and WordNet."""

from collections.abc import Callable

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics.base import Score as SacreScore

from evalcore.metric import Item, ReferenceMetric
from mteval.baselines.metric import Bleu, Chrf, Meteor, Ter
from tests.scored import scored

HYPS = ["The cat sat on the mat .", "A dog barked loudly at night", "Nothing here at all", "Rain fell ."]
REFS = [["The cat is on the mat.", "A dog barked at night.", "Something there", "It rained."],
        ["There is a cat on the mat.", "The dog barked loudly at night.", "Nothing is here", "Rain fell hard."]]
# each metric class: sacrebleu's sentence and corpus functions
SACRE: dict[type[ReferenceMetric], tuple[Callable[..., SacreScore], Callable[..., SacreScore]]] = {
    Bleu: (sacrebleu.sentence_bleu, sacrebleu.corpus_bleu),
    Chrf: (sacrebleu.sentence_chrf, sacrebleu.corpus_chrf),
    Ter: (sacrebleu.sentence_ter, sacrebleu.corpus_ter)}


def _items(n_refs):
    return [Item(h, tuple(r[k] for r in REFS[:n_refs])) for k, h in enumerate(HYPS)]


@pytest.mark.parametrize("n_refs", [1, 2])
@pytest.mark.parametrize("cls", list(SACRE))
def test_sentence_and_corpus_scores_are_sacrebleus(cls, n_refs):
    sentence, corpus = SACRE[cls]
    metric = cls()
    scores = metric.score_batch(_items(n_refs))
    expected = [sentence(h, [r[k] for r in REFS[:n_refs]]).score for k, h in enumerate(HYPS)]
    assert [s.value for s in scores] == pytest.approx(expected, abs=1e-9)
    assert metric.aggregate(scores).value == pytest.approx(corpus(HYPS, REFS[:n_refs]).score, abs=1e-9)
    assert metric.corpus_score(_items(n_refs)).value == pytest.approx(corpus(HYPS, REFS[:n_refs]).score, abs=1e-9)


def test_corpus_bleu_is_not_the_mean_of_sentence_bleu():
    scores = Bleu().score_batch(_items(1))
    assert Bleu().aggregate(scores).value != pytest.approx(np.mean([s.value for s in scores]), abs=0.1)


def test_statistics_rescore_resamples_like_sacrebleu():
    metric = Bleu()
    stats = metric.statistics(scored(metric.score_batch(_items(2))))
    rows = np.array([stats[[0, 0, 1, 3]].sum(0), stats[[2, 3]].sum(0)])
    expected = [sacrebleu.corpus_bleu([HYPS[k] for k in idx], [[r[k] for k in idx] for r in REFS]).score
                for idx in ([0, 0, 1, 3], [2, 3])]
    assert metric.corpus_from_statistics(rows) == pytest.approx(expected, abs=1e-9)


def test_zh_tokenizer_and_parameters_reach_sacrebleu():
    hyp, ref = "我们今天去公园散步。", "我们今天在公园散步。"
    assert Bleu(tokenize="zh").score(ref, hyp).value == pytest.approx(
        sacrebleu.sentence_bleu(hyp, [ref], tokenize="zh").score)
    assert Chrf(word_order=2).score(ref, hyp).value == pytest.approx(
        sacrebleu.sentence_chrf(hyp, [ref], word_order=2).score)
    with pytest.raises(ValueError, match="unknown tokenizer"):
        Bleu(tokenize="nope").validate()


def test_set_params_rebuilds_the_sacrebleu_object():
    metric = Bleu()
    before = metric.score("the cat sat", "The cat sat").value
    metric.set_params(lowercase=True)
    assert metric.score("the cat sat", "The cat sat").value > before


def test_ter_is_lower_is_better():
    assert Ter.lower_is_better and not Bleu.lower_is_better


def test_meteor_is_nltks_meteor_on_13a_tokens():
    from nltk.translate.meteor_score import meteor_score
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from evalcore.resources.wordnet import wordnet

    tok = Tokenizer13a()
    scores = Meteor().score_batch(_items(2))
    for k, s in enumerate(scores):
        refs = [tok(r[k]).lower().split() for r in REFS]
        assert s.value == pytest.approx(meteor_score(refs, tok(HYPS[k]).lower().split(), wordnet=wordnet()))
    # a WordNet synonym counts (nltk looks synonyms up after Porter stemming, so only words the
    # stemmer leaves alone, such as "quick", find theirs)
    assert Meteor().score("the car is fast", "the car is quick").value > \
        Meteor().score("the car is fast", "the car is green").value
