"""MT meta-evaluation on hand-computed cases: WMT12 Kendall (both variants), win ratios, system
level on corpus scores (summed statistics for BLEU), orientation of lower-is-better metrics."""

import numpy as np
import pytest
import sacrebleu

from evalcore.metric import Score
from mteval.baselines.metric import Bleu, Meteor, Ter
from mteval.data.wmt12 import Comparison
from mteval.metaeval import (
    corpus_statistics,
    kendall_counts,
    orientation,
    system_correlations,
    win_counts,
    wmt12_kendall,
)

# segment 1: A > B, A > C, B = C (human tie); segment 2: B > A, A > C
COMPARISONS = [Comparison(1, "A", "B", 1), Comparison(1, "A", "C", 1), Comparison(1, "B", "C", 0),
               Comparison(2, "A", "B", -1), Comparison(2, "A", "C", 1)]
SCORES = {(1, "A"): 0.9, (1, "B"): 0.5, (1, "C"): 0.5, (2, "A"): 0.4, (2, "B"): 0.4, (2, "C"): 0.1}


def test_wmt12_kendall_penalises_metric_ties_and_the_other_variant_drops_them():
    counts = kendall_counts(COMPARISONS, SCORES)
    # decided pairs: (1,A,B) concordant, (1,A,C) concordant, (2,A,B) metric tie, (2,A,C) concordant
    assert (counts.concordant.sum(), counts.discordant.sum(), counts.ties.sum()) == (3, 0, 1)
    assert wmt12_kendall(counts, "wmt12", n_boot=0).value == pytest.approx((3 - 1) / 4)
    assert wmt12_kendall(counts, "no-ties", n_boot=0).value == pytest.approx(1.0)


def test_lower_is_better_flips_agreement():
    counts = kendall_counts(COMPARISONS, SCORES, sign=-1.0)
    assert wmt12_kendall(counts, "wmt12", n_boot=0).value == pytest.approx(-1.0)
    assert orientation(Ter()) == -1.0 and orientation(Bleu()) == 1.0


def test_unscored_outputs_leave_their_comparisons_out():
    scores = {k: v for k, v in SCORES.items() if k != (2, "C")}
    counts = kendall_counts(COMPARISONS, scores)
    assert counts.unscored == 1 and counts.concordant.sum() == 2


def test_bootstrap_interval_is_seeded_and_holds_the_estimate():
    comps = [Comparison(s, "A", "B", 1 if s % 3 else -1) for s in range(1, 61)]
    scores = {(s, x): float((s * 7 + ord(x)) % 5) for s in range(1, 61) for x in "AB"}
    counts = kendall_counts(comps, scores)
    first, again = wmt12_kendall(counts, "no-ties", 500, seed=3), wmt12_kendall(counts, "no-ties", 500, seed=3)
    assert first == again and first.low <= first.value <= first.high and first.low < first.high


def test_win_ratio_excludes_ties():
    wins, decided = win_counts(COMPARISONS, [1, 2], ["A", "B", "C"])
    ratio = wins.sum(0) / decided.sum(0)
    assert ratio.tolist() == [0.75, 0.5, 0.0]


def test_system_level_on_means_and_on_sacrebleu_corpus_scores():
    wins, decided = win_counts(COMPARISONS, [1, 2], ["A", "B", "C"])
    values = [[Score(SCORES[(seg, sys)]) for seg in (1, 2)] for sys in "ABC"]
    stats = corpus_statistics(Meteor(), values)  # a metric whose corpus score is the mean
    corr, metric_sys, human_sys = system_correlations(stats, wins, decided, n_boot=0)
    assert metric_sys.tolist() == pytest.approx([0.65, 0.45, 0.3])
    assert human_sys.tolist() == pytest.approx([0.75, 0.5, 0.0])
    assert corr["spearman"].value == pytest.approx(1.0)
    assert corr["pearson"].value == pytest.approx(np.corrcoef([0.65, 0.45, 0.3], [0.75, 0.5, 0.0])[0, 1])


def test_corpus_statistics_of_bleu_give_corpus_bleu_and_handle_unscored_segments():
    hyps = [["the cat sat", "a dog ran far"], ["the cat sits down", "dog ran"]]
    refs = ["the cat sat down", "a dog ran far away"]
    bleu = Bleu()
    scores: list[list[Score | None]] = [[bleu.score(r, h) for r, h in zip(refs, row)] for row in hyps]
    scores[1][1] = None  # not scored: weighs nothing
    stats = corpus_statistics(bleu, scores)
    got = stats.corpus(np.ones((1, 2)))[0]
    assert got[0] == pytest.approx(sacrebleu.corpus_bleu(hyps[0], [refs]).score)
    assert got[1] == pytest.approx(sacrebleu.corpus_bleu(hyps[1][:1], [refs[:1]]).score)
    ter = corpus_statistics(Ter(), [[Ter().score(r, h) for r, h in zip(refs, hyps[0])]])
    assert ter.corpus(np.ones((1, 2)))[0, 0] == pytest.approx(-sacrebleu.corpus_ter(hyps[0], [refs]).score)
