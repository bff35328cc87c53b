"""Scorer API on real text through spaCy + the Tier 0 parser, bad input and the CLI."""

from __future__ import annotations

import json
import math
import sys

import joblib
import numpy as np
import pytest

from coherence.dicomer.analysis import AnalysisCache, permuted_parsed
from coherence.cli import main
from coherence.dicomer.model import LEGACY_NEUTRAL_SCORE, DicomerModel
from coherence.dicomer.scorer import DicomerScorer, load_bundle
from coherence.parser.document import ParsedText
from coherence.parser.pipeline import DiscourseParser

TEXTS = [
    "The company reported higher profits. But its shares fell because investors expected more. "
    "Analysts said the company would recover. The shares rose again in March.",
    "Shares rose again in March. Profits were higher. The company said so, and analysts agreed. "
    "But investors expected more.",
    "The council approved the budget after a long debate. However, the mayor vetoed it. "
    "The council then overrode the veto.",
]


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    parser = DiscourseParser(tier=0)
    analyses = AnalysisCache(parser).analyse(TEXTS)
    model = DicomerModel("DICOMER+EGRID", C=1.0).fit(analyses, [3.0, 1.0, 2.0], [0, 0, 0])
    info = {"variant": "DICOMER+EGRID", "mode": "listwise", "parser_tier": 0, "C": 1.0,
            "features": "test"}
    path = tmp_path_factory.mktemp("model") / "dicomer_model.joblib"
    joblib.dump({"model": model, "info": info}, path)
    return str(path)


def test_scores_and_log_scores_are_finite_and_ordered(model_file):
    scorer = DicomerScorer(model_file)
    records = scorer.score_texts(TEXTS)
    assert [r.error for r in records] == [None] * 3
    scores = [r.score for r in records]
    assert scores[0] > scores[1]
    assert np.argsort(scores).tolist() == np.argsort([r.log_score for r in records]).tolist()
    assert all(r.n_relations > 0 and r.n_sentences >= 3 for r in records)
    assert scorer.signature().startswith("dicomer|variant:DICOMER+EGRID|mode:listwise|parser:rules-v1-code")


def test_bad_input_never_crashes(model_file):
    records = DicomerScorer(model_file).score_texts(["", "   ", "Just one sentence here.",
                                                     "Dogs bark. Cats sleep.", None])
    empty, blank, one, norel, bad = records
    neutral = load_bundle(model_file)["model"].neutral_score_
    assert empty.flags == ("empty",) and empty.score == neutral and math.isfinite(empty.log_score)
    assert blank.flags == ("empty",)
    model = load_bundle(model_file)["model"]
    learned = model.decision_function(features=[{"text|one_sentence": 1.0}])[0]
    assert "one_sentence" in one.flags and one.score == learned and one.error is None  # the ranker's own value
    real = [r.score for r in DicomerScorer(model_file).score_texts(TEXTS)]
    assert min(real) < neutral < max(real)  # an empty text neither tops nor trails real ones
    assert norel.n_sentences == 2 and norel.error is None and math.isfinite(norel.score)
    assert bad.error and math.isnan(bad.score)


def test_no_relations_flag(model_file):
    scorer = DicomerScorer(model_file)
    analyses = scorer.cache.analyse(["Dogs bark loudly. Cats sleep quietly."])
    analyses = [type(analyses[0])(analyses[0].n_sentences, analyses[0].tokens, ())]
    (rec,) = scorer.score_analyses(analyses)
    assert rec.flags == ("no_relations",) and math.isfinite(rec.score)


def test_permuted_parse_reuses_spacy_analysis():
    pt = ParsedText(TEXTS[0])
    perm = permuted_parsed(pt, [3, 2, 1, 0])
    assert perm.text.startswith("The shares rose again in March.")
    assert len(perm.sentences) == 4 and sorted(perm.words) == sorted(pt.words)


def test_missing_model_is_a_clear_error(tmp_path):
    from evalcore.resources import ResourceError

    with pytest.raises(ResourceError, match="train dicomer"):
        load_bundle(str(tmp_path / "none.joblib"))


def test_cli_score_json(model_file, tmp_path, capsys):
    good = tmp_path / "a.txt"
    good.write_text(TEXTS[0], "utf-8")
    empty = tmp_path / "b.txt"
    empty.write_text("", "utf-8")
    status = main(["score", str(good), str(empty), str(tmp_path / "missing.txt"), "--format", "json",
                   "--model", model_file])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert rows[0]["error"] is None and rows[1]["flags"] == ["empty"]
    assert "missing.txt: cannot be read" in rows[2]["error"]


def test_model_fitted_before_the_neutral_score_keeps_zero_with_a_warning(model_file, tmp_path):
    bundle = joblib.load(model_file)
    del bundle["model"].neutral_score_
    old = tmp_path / "old.joblib"
    joblib.dump(bundle, old)
    with pytest.warns(UserWarning, match="predates the neutral score"):
        scorer = DicomerScorer(str(old))
    assert scorer.score_texts(["Just one sentence here."])[0].score == LEGACY_NEUTRAL_SCORE == 0.0


def test_cli_score_with_precomputed_and_external_relations(model_file, tmp_path, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(TEXTS[2], "utf-8")
    b.write_text(TEXTS[0], "utf-8")
    pre = tmp_path / "pre"
    assert main(["parse", str(a), "--tier", "0", "--out", str(pre)]) == 0  # the model's parser; none for b
    capsys.readouterr()
    status = main(["score", str(a), str(b), "--format", "json", "--model", model_file, "--precomputed", str(pre)])
    out, err = capsys.readouterr()
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and "|parser:precomputed|" in err
    assert rows[0]["error"] is None and rows[0]["score"] == DicomerScorer(model_file).score_texts([TEXTS[2]])[0].score
    assert "b.txt: no precomputed parse" in rows[1]["error"]  # the other file was still scored
    script = tmp_path / "ext.py"
    script.write_text(f"import sys\nsys.stdout.write(open({str(pre / 'a.txt.pipe')!r}).read())\n", "utf-8")
    assert main(["score", str(a), "--model", model_file, "--external", f"{sys.executable} {script} {{input}}"]) == 0
    assert f"{rows[0]['score']:.6f}" in capsys.readouterr().out


def test_external_relations_bypass_the_analysis_cache(model_file, tmp_path):
    from coherence.adapters import PrecomputedParses

    scorer = DicomerScorer(model_file, cache_dir=tmp_path, relations=PrecomputedParses(tmp_path))
    assert scorer.cache is None and scorer.parser_id == "precomputed"
    assert "no precomputed parse" in scorer.score_texts([TEXTS[0]], ["x.txt"])[0].error
    assert list(tmp_path.iterdir()) == []


def test_summeval_dicomer_notes_degenerate_summaries(model_file, monkeypatch):
    import summeval.metrics.discourse as discourse
    from summeval.io import SummaryItem
    from summeval.report import to_json
    from summeval.scoring import score_items

    monkeypatch.setattr(discourse, "_dicomer_scorer", lambda: DicomerScorer(model_file))
    items = [SummaryItem("t", "one", "Just one sentence here.", ("A reference.",)),
             SummaryItem("t", "real", TEXTS[0], ("A reference.",))]
    results = score_items(items, ["dicomer"])
    doc = json.loads(to_json({"dicomer": "sig"}, results, []))
    one, real = doc["summaries"]
    assert "one_sentence" in one["notes"]["dicomer"] and set(one) == {"topic", "system", "scores", "notes"}
    assert set(real) == {"topic", "system", "scores"}


def test_train_dicomer_says_which_model_it_replaces(tmp_path, monkeypatch, capsys):
    import coherence.dicomer.train as train

    monkeypatch.setattr(train, "train", lambda *args: {})
    (tmp_path / "dicomer_model.joblib").write_bytes(b"old")
    assert main(["train", "dicomer", "--out", str(tmp_path)]) == 0
    assert f"overwriting {tmp_path / 'dicomer_model.joblib'}" in capsys.readouterr().err
    assert "CC BY-NC-SA" in train.LICENCE_NOTE and "CC BY 4.0" in train.LICENCE_NOTE


def test_permutation_analyses_cached_and_seeded():
    cache = AnalysisCache(DiscourseParser(tier=0))
    (perms,) = cache.analyse_permutations([TEXTS[0]], k=20, seed=0)
    assert len(perms) == 20
    original = cache.analyse([TEXTS[0]])[0]
    terms = sorted(t.term for t in original.tokens if t.term)
    assert all(p.n_sentences == 4 and sorted(t.term for t in p.tokens if t.term) == terms for p in perms)
    size = len(cache.store)
    again = cache.analyse_permutations([TEXTS[0]], k=20, seed=0)[0]
    assert len(cache.store) == size and again == perms


def test_training_data_modes():
    from coherence.dicomer.train import training_data

    cache = AnalysisCache(DiscourseParser(tier=0))
    summaries = cache.analyse(TEXTS)
    perms = cache.analyse_permutations(TEXTS[:1], k=3)
    texts, y, groups = training_data("combined", summaries, np.array([3.0, 1.0, 2.0]), ["d", "d", "d"],
                                     summaries[:1], perms)
    assert len(texts) == 3 + 4 and list(y[3:]) == [1.0, 0.0, 0.0, 0.0]
    assert set(groups) == {"doc:d", "perm:0"}
    assert len(training_data("listwise", summaries, np.ones(3), ["d"] * 3, [], [])[0]) == 3
    with pytest.raises(ValueError):
        training_data("pointwise", summaries, np.ones(3), ["d"] * 3, [], [])


def test_dicomer_commands_are_on_the_coherence_cli():
    from coherence.cli import build_parser
    from coherence.dicomer.cli import cmd_bench_readability, cmd_score, cmd_train_dicomer

    ap = build_parser()
    assert ap.parse_args(["score", "a.txt", "--format", "json"]).func is cmd_score
    args = ap.parse_args(["train", "dicomer", "--mode", "listwise", "--tier", "0"])
    assert args.func is cmd_train_dicomer and args.variant == "DICOMER"
    assert ap.parse_args(["bench", "readability", "--data", "d", "--out", "o"]).func is cmd_bench_readability


def test_disk_cache_is_incremental_and_read_lazily(tmp_path, monkeypatch):
    import coherence.dicomer.analysis as analysis

    parser = DiscourseParser(tier=0)
    first = AnalysisCache(parser, tmp_path)
    made = first.analyse(TEXTS[:2])
    first.save()
    first.analyse(TEXTS[2:3])
    first.save()  # adds the third text without rewriting the others
    monkeypatch.setattr(analysis, "parse_texts", lambda texts: pytest.fail(f"re-parsed {len(texts)} texts"))
    second = AnalysisCache(parser, tmp_path)
    assert second.store == {}  # nothing is read before it is asked for
    assert second.analyse(TEXTS[:2]) == made and len(second.store) == 2
    assert len(second.analyse(TEXTS[:3])) == 3
