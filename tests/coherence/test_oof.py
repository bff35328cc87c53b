"""DICOMER's out-of-fold values for CREMER: the benchmarks' fold rule, and no value from a model
that saw its document."""

import numpy as np

import coherence.dicomer.oof as oof
from coherence.dicomer.analysis import Analysis


def test_document_folds_follow_the_benchmark_rule():
    topics = ["b", "a", "c", "a", "f", "e", "d", "g"]
    # sorted ids a..g -> folds 0,1,2,3,4,0,1
    assert oof.document_folds(topics).tolist() == [1, 0, 2, 0, 0, 4, 3, 1]


def test_training_values_never_see_their_document(monkeypatch):
    topics = np.array(["d1", "d1", "d2", "d2", "d3", "d3", "d4", "d4", "d5"])
    within = np.array([True] * 8 + [False])
    seen = []

    def fake_fit_predict(analyses, coherence, topics_, train, test, seed=0):
        assert not set(topics_[train]) & set(topics_[test]) and not train[8]
        seen.append(np.flatnonzero(test))
        return np.flatnonzero(test).astype(float)

    monkeypatch.setattr(oof, "fit_predict", fake_fit_predict)
    values = oof.out_of_fold([Analysis(0, (), ())] * 9, np.zeros(9), topics, within, n_folds=4)
    assert values[:8].tolist() == list(range(8)) and np.isnan(values[8])
    assert sorted(np.concatenate(seen).tolist()) == list(range(8))


def test_fit_predict_ranks_held_out_texts_with_a_model_of_the_training_items(monkeypatch, tmp_path):
    from coherence.dicomer.model import DicomerModel

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    texts = ["The council met. However, it did not vote because members were absent.",
             "Members were absent. The council met. It did not vote.",
             "Rain fell all day. So the match was cancelled, and fans went home.",
             "Fans went home. Rain fell. The match was cancelled."]
    analyses = oof.summary_analyses(texts, tier=0)
    coherence = np.array([4.0, 2.0, 4.0, 2.0])
    topics = np.array(["a", "a", "b", "b"])
    train, test = topics == "a", topics == "b"
    values = oof.fit_predict(analyses, coherence, topics, train, test, seed=0)
    model = DicomerModel("DICOMER", seed=0).fit(analyses[:2], coherence[:2], topics[:2])
    expected = model.decision_function(analyses[2:])
    assert values.tolist() == expected.tolist()
    assert list(tmp_path.joinpath("dicomer").glob("analyses-rules-v1-*.sqlite"))  # parses kept for the next run
