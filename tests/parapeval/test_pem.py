"""PEM regressor, controls, scoring API and the score CLI on bad input (toy resources)."""

import json

import numpy as np
import pytest
from sklearn.base import clone

from evalcore.bpng import write_store
from parapeval.cli import main
from parapeval.data import ScoredPair, source_folds
from parapeval.io import read_pairs
from parapeval.model import PEMRegressor, control_pairs, load_model, save_model
from parapeval.scoring import PEM, PEMError, PEMFeatures, PEMScore, system_summary
from parapeval.training import controls_for, feature_matrix, fit_pem

GOOD = ("the cat sleeps .", "the feline dozes .")
PAIRS = [
    ScoredPair("the cat sleeps .", "the feline dozes .", 1.0),
    ScoredPair("the cat sleeps .", "the cat dozes .", 0.8),
    ScoredPair("the cat sleeps .", "sleeps the . cat", 0.1),
    ScoredPair("the cat sleeps .", "a dog eats meat .", 0.0),
    ScoredPair("the dog sleeps .", "the dog dozes .", 0.9),
    ScoredPair("the dog sleeps .", "the hound dozes .", 0.9),
    ScoredPair("the dog sleeps .", "dog . the sleeps", 0.1),
    ScoredPair("the dog sleeps .", "she opens the window .", 0.0),
    ScoredPair("the cat is on the mat .", "the feline is on the mat .", 0.9),
    ScoredPair("the cat is on the mat .", "mat the on is cat the .", 0.0),
    ScoredPair("a cat eats fish .", "a feline eats fish .", 0.9),
    ScoredPair("a cat eats fish .", "he closes the door .", 0.0),
]


@pytest.fixture(scope="module")
def trained(toy_table, toy_lm):
    features = PEMFeatures({"fr": toy_table}, toy_lm)
    pairs = PAIRS + controls_for(PAIRS, 0.0, 1.0, seed=1)
    X, _ = feature_matrix(features, [(p.original, p.paraphrase) for p in pairs])
    model = fit_pem(X, np.array([p.score for p in pairs]), [p.original for p in pairs], PEMRegressor(cv=2))
    return PEM(features, model, "toy")


def test_regressor_follows_sklearn_conventions():
    est = PEMRegressor(C_grid=(1.0,), gamma_grid=("scale",), cv=2)
    assert "C_grid" in est.get_params() and not hasattr(est, "pipeline_")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = X[:, 0] - X[:, 2]
    assert est.fit(X, y) is est
    assert np.corrcoef(est.predict(X), y)[0, 1] > 0.9
    assert not hasattr(clone(est), "pipeline_")


def test_controls_are_rescaled_and_seeded():
    ctl = control_pairs(["a b c"], ["x y", "z w v", "a b"], 0.0, 1.0, seed=3)
    assert [s for _, _, s in ctl] == [0.25, 0.0, 0.0]
    assert ctl[0][1] == "a b c"
    assert ctl == control_pairs(["a b c"], ["x y", "z w v", "a b"], 0.0, 1.0, seed=3)


def test_copy_scores_below_genuine_rewording(trained):
    copy = trained.score(GOOD[0], GOOD[0])
    good = trained.score(*GOOD)
    assert copy.dissimilarity == pytest.approx(1.0) and copy.adequacy == pytest.approx(1.0)
    assert "identical" in copy.note
    assert good.pem > copy.pem
    assert good.pem > trained.score(GOOD[0], "she opens the window .").pem


def test_bad_inputs_get_defined_scores_or_errors(trained):
    empty = trained.score("the cat sleeps .", "")
    assert isinstance(empty, PEMScore) and empty.adequacy == 0 and "empty paraphrase" in empty.note
    both = trained.score("", "")
    assert np.isfinite(both.pem)
    out = trained.score_batch([("a", "the cat", "x " * 5000), ("b", 3, "cat"), ("c", *GOOD), ("d", "!" * 30000, "x")])
    assert isinstance(out[0], PEMError) and "paraphrase is too long (5000 words" in out[0].error
    assert isinstance(out[1], PEMError) and "must be a string" in out[1].error
    assert isinstance(out[2], PEMScore)
    assert isinstance(out[3], PEMError) and "original is too long (30000 characters" in out[3].error
    assert len(out) == 4
    assert trained.signature().startswith("pem|pivots:fr|fw:none|lm:toy:4g:")


def test_system_summary_ranks(trained):
    res = trained.score_batch([("1", *GOOD), ("2", GOOD[0], GOOD[0]), ("3", "x", 5)])
    rows = system_summary(["good", "copy", "copy"], res)
    assert [r["system"] for r in rows] == ["good", "copy"] and rows[1]["errors"] == 1


def test_source_folds():
    pairs = [ScoredPair(s, "p", 0) for s in ["b", "a", "c", "a", "f", "e", "d"]]
    assert source_folds(pairs) == [1, 0, 2, 0, 0, 4, 3]


def test_model_roundtrip(trained, tmp_path):
    path = save_model(trained.model, tmp_path / "m.pkl", {"pivots": ["fr"]})
    model, meta = load_model(path)
    assert meta == {"pivots": ["fr"]}
    x = np.array([[0.5, -2.0, 0.3]])
    assert model.predict(x) == pytest.approx(trained.model.predict(x))


@pytest.fixture(scope="module")
def resource_args(trained, toy_table, toy_lm, tmp_path_factory):
    """CLI options naming the toy phrase table (as a store), the toy LM and the trained model."""
    tmp = tmp_path_factory.mktemp("cli")
    table = write_store(tmp / "fr.sqlite",
                        [(e, entry.count, entry.translations) for e, entry in toy_table._entries.items()],
                        {"signature": "pt:toy", "stem": "False"})
    model = save_model(trained.model, tmp / "m.pkl", {"pivots": ["fr"]})
    return ["--table", f"fr={table}", "--lm", str(toy_lm.lm_path), "--model", str(model)]


def test_score_cli_with_bad_lines(resource_args, tmp_path, capsys):
    pairs = tmp_path / "pairs.jsonl"
    lines = [json.dumps({"original": GOOD[0], "paraphrase": GOOD[1], "system": "A"}).encode(),
             json.dumps({"original": GOOD[0], "paraphrase": GOOD[0], "system": "B"}).encode(),
             b'{"original": "the cat \xff\xfe", "paraphrase": "x", "system": "B"}',
             b'{"original": "missing paraphrase"}',
             b"not json",
             json.dumps({"original": "", "paraphrase": "", "system": "B"}).encode()]
    pairs.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    rc = main(["score", "--input", str(pairs), "--system-field", "system", "--out", str(out), *resource_args])
    assert rc == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 6
    assert "not valid UTF-8" in rows[2]["error"] and "pairs.jsonl:3" == rows[2]["item"]
    assert "paraphrase" in rows[3]["error"] and "unreadable" in rows[4]["error"]
    assert rows[0]["pem"] > rows[1]["pem"]
    printed = capsys.readouterr().out
    assert "pem|pivots:fr|fw:none|lm:toy:4g:" in printed and "model:m|v:0.1.0" in printed
    table = [line.split() for line in printed.splitlines()[-3:]]
    assert [row[:2] for row in table] == [["1", "A"], ["2", "B"], ["-", "all"]]  # unreadable lines: no system
    assert table[1][2:4] == ["2", "0"] and table[2][2:4] == ["0", "3"]  # scored and errors per system


def test_tsv_reader(tmp_path):
    path = tmp_path / "p.tsv"
    path.write_text("original\tparaphrase\tgen\nthe cat\ta cat\tg1\nonly one column\n", "utf-8")
    recs = read_pairs(path, "gen")
    assert (recs[0].original, recs[0].paraphrase, recs[0].system) == ("the cat", "a cat", "g1")
    assert recs[1].error and "2 tab-separated columns" in recs[1].error


def test_missing_model_is_a_clear_error(tmp_path, capsys):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("a\tb\n", "utf-8")
    assert main(["score", "--input", str(pairs), "--model", str(tmp_path / "none.pkl")]) == 2
    assert "parapeval train" in capsys.readouterr().err


def test_parallel_batch_matches_serial(trained):
    batch = [(str(i), GOOD[0], p) for i, p in enumerate([GOOD[1], GOOD[0], "", "a dog eats meat ."])] + [("x", 5, "a")]
    serial = trained.score_batch(batch)
    assert trained.score_batch(batch, jobs=2) == serial
    assert isinstance(serial[-1], PEMError) and len(serial) == 5


def test_score_cli_is_deterministic_and_jobs_agree(resource_args, tmp_path, capsys):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("original\tparaphrase\tsystem\n" + "".join(
        f"{p.original}\t{p.paraphrase}\tg{i % 3}\n" for i, p in enumerate(PAIRS)), "utf-8")
    outputs = []
    for i, jobs in enumerate(["1", "1", "2"]):
        out = tmp_path / f"r{i}.tsv"
        assert main(["score", "--input", str(pairs), "--system-field", "system", "--jobs", jobs,
                     "--out", str(out), *resource_args]) == 0
        outputs.append((out.read_text("utf-8"), capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0][0].splitlines()) == len(PAIRS) + 1


def test_score_cli_empty_input_is_a_clear_error(resource_args, tmp_path, capsys):
    pairs = tmp_path / "empty.jsonl"
    pairs.write_bytes(b"")
    assert main(["score", "--input", str(pairs), *resource_args]) == 2
    assert "empty.jsonl: no pairs to score" in capsys.readouterr().err


def _twitter_para(path, sources):
    path.write_text("".join(json.dumps({"source": p.original, "candidates": [{"text": p.paraphrase, "score": p.score}]}) + "\n"
                            for p in PAIRS if p.original in sources), "utf-8")
    return path


def test_train_cli_on_tiny_data(resource_args, tmp_path, capsys):
    data = _twitter_para(tmp_path / "tp.jsonl", {p.original for p in PAIRS})
    out = tmp_path / "new.pkl"
    assert main(["train", "--data", str(data), "--out", str(out), "--controls", *resource_args[:4]]) == 0
    model, meta = load_model(out)
    assert meta["controls"] and meta["pivots"] == ["fr"] and meta["pairs"] == len(PAIRS) + 3 * 4
    assert np.isfinite(model.predict(np.array([[0.5, -2.0, 0.3]]))).all()
    one = _twitter_para(tmp_path / "one.jsonl", {"the cat sleeps ."})
    assert main(["train", "--data", str(one), "--out", str(out), *resource_args[:4]]) == 2
    assert "at least 3 distinct originals" in capsys.readouterr().err
