"""The TESLA-CELAB benchmark on newstest2021 en-zh (two segments), and its word-level baseline."""

from pathlib import Path

import numpy as np
import pytest

from benchmarks.mteval.celab_words import (
    WordTeslaM,
    ngram_similarities,
    unigram_similarities,
)
from evalcore.metric import Item


def test_bench_writes_rankings_agreement_and_speed(tmp_path):
    from benchmarks.mteval import celab as bench
    from evalcore.resources.registry import shared_data_dir

    root = shared_data_dir() / "mt" / "wmt21-en-zh"
    if not root.is_dir():
        pytest.skip("newstest2021 en-zh is not beside this checkout")
    report = bench.run(tmp_path, n_segments=2, n_boot=20, speed_sample=4, log=lambda _: None)
    assert len(report["systems"]) == 29 and len(report["ranking_rows"]) == 30
    assert set(report["corpus"]) == {*bench.STUDIED, *bench.BASELINES}
    assert all(s["errors"] == 0 and s["items"] == 60 for s in report["speed"].values())
    assert report["lp"]["pairs"] == 4 and all(r["variables"] > 0 for r in report["lp"]["rows"])
    assert "tesla-celab vs chrf" in (tmp_path / "celab.md").read_text()
    assert 1 <= report["reference_b_rank"]["tesla-celab"] <= 30


# ---- the word-level baseline (TESLA-M on jieba words with Cilin) -------------------------------

def test_word_level_similarities():
    ref, cand = [("买", "v"), ("雨伞", "n")], [("买", "v"), ("伞", "n"), ("了", "ul")]
    sim = unigram_similarities(ref, cand, "cilin=")
    assert sim.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]  # 雨伞~伞: synonym and same tag
    assert unigram_similarities(ref, cand, "none")[1, 1] == 0.5  # same tag only
    bigram = ngram_similarities(np.array([[1.0, 0.5], [0.0, 1.0], [0.5, 0.0]]), 2)
    assert bigram.tolist() == [[1.0], [0.0]]  # a zero position zeroes the n-gram


def test_word_level_baseline_scores():
    metric = WordTeslaM()
    assert metric.score(["我买了雨伞"], "我买了雨伞").value == pytest.approx(1.0)
    with_cilin = metric.score(["我买了雨伞"], "我买了伞").value
    without = WordTeslaM(synonyms="none").score(["我买了雨伞"], "我买了伞").value
    assert with_cilin > without
    assert "tok:jieba-posseg" in str(metric.signature())
    assert metric.score(["我买了雨伞"], "！！").notes[0].startswith("no-words")



def test_word_level_baseline_without_cilin_equals_tesla_m_on_chinese():
    """Two implementations of TESLA-M on jieba words agree where both apply (no synonyms)."""
    from mteval.tesla.metric import TeslaM

    demo = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt-zh"
    refs = (demo / "ref.A.zh").read_text("utf-8").splitlines()
    hyps = (demo / "system-a.zh").read_text("utf-8").splitlines()
    items = [Item(h, (r,)) for r, h in zip(refs, hyps)]
    ours = [s.value for s in WordTeslaM(synonyms="none").score_batch(items)]
    theirs = [s.value for s in TeslaM(language="zh").score_batch(items)]
    assert ours == pytest.approx(theirs, abs=1e-12)
    with_cilin = [s.value for s in WordTeslaM().score_batch(items)]
    assert sum(with_cilin) > sum(ours)  # system-a uses Cilin synonyms of the reference's words
