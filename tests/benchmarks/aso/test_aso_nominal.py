"""The noun-predicate experiment: Table 2 features on a gold dependency tree, document statistics
and their measures, and the whole bench (cross-validation, bootstrap, report) on a tiny UP file."""

import json

import numpy as np
import pytest

from benchmarks.__main__ import main
from benchmarks.mteval.aso import unlabelled
from benchmarks.mteval.aso.nominal import (
    accuracy,
    argument_features,
    document_statistics,
    gold_parse,
    instances,
    macro_f1,
    run,
)
from benchmarks.mteval.aso.unlabelled import Pair
from mteval.srl.up import parse_up

NOUNS = ["decision", "plan", "report", "attack", "sale", "purchase"]
NAMES = ["Mary", "John", "Kim", "Lee", "Ann", "Bob"]


def sentence(doc: int, k: int) -> str:
    """'NAME 's NOUN of the THING': a nominal predicate with ARG0 (possessor) and ARG1 (of-phrase)."""
    name, noun, thing = NAMES[(doc + k) % 6], NOUNS[(doc * 2 + k) % 6], NOUNS[(doc + 3 * k + 1) % 6]
    rows = [
        (name, name, "PROPN", "NNP", 3, "nmod:poss", "_", "ARG0"),
        ("'s", "'s", "PART", "POS", 1, "case", "_", "_"),
        (noun, noun, "NOUN", "NN", 0, "root", f"{noun}.01", "V"),
        ("of", "of", "ADP", "IN", 6, "case", "_", "_"),
        ("the", "the", "DET", "DT", 6, "det", "_", "_"),
        (thing, thing, "NOUN", "NN", 3, "nmod", "_", "ARG1"),
    ]
    lines = [f"# sent_id = doc{doc}-{k:04d}", f"# text = {' '.join(r[0] for r in rows)}"]
    lines += [f"{i}\t{w}\t{lem}\t{u}\t{x}\t_\t{h}\t{d}\t_\t_\t{p}\t{a}"
              for i, (w, lem, u, x, h, d, p, a) in enumerate(rows, 1)]
    return "\n".join(lines) + "\n"


def verbal_sentence(doc: int) -> str:
    """'NAME left': a verbal predicate with an ARG0 (for the aso+verbal row)."""
    name = NAMES[doc % 6]
    return (f"# sent_id = doc{doc}-0099\n# text = {name} left\n"
            f"1\t{name}\t{name}\tPROPN\tNNP\t_\t2\tnsubj\t_\t_\t_\tARG0\n"
            "2\tleft\tleave\tVERB\tVBD\t_\t0\troot\t_\t_\tleave.01\tV\n")


def up_text(docs: int = 6, per_doc: int = 3) -> str:
    return "".join(f"# newdoc id = doc{d}\n" + "\n".join([*(sentence(d, k) for k in range(per_doc)),
                                                          verbal_sentence(d)])
                   + "\n" for d in range(docs))


def test_table2_features_on_a_dependency_tree():
    s = parse_up(up_text(1, 1).splitlines(keepends=True))[0]
    owner = argument_features(gold_parse(s), pred=2, arg=0)
    noun = s.lemmas[2]
    for name in ("position=left", "ptype=PROPN|nmod:poss", "firstword=mary", "lastword='s", "rsis.ptype=NOUN",
                 "nomtype=root", f"pred&position={noun}|left", f"pred&hw={noun}|mary", "path=nmod:poss|"):
        assert name in owner, (name, sorted(owner))
    theme = argument_features(gold_parse(s), pred=2, arg=5)
    assert {"position=right", "firstword=of", f"lastword={s.words[5]}", "path=nmod|", "rsis.ptype=-"} <= set(theme)
    found = instances([s], "nominal")
    assert [(x.doc_id, x.label) for x in found] == [("doc0", "ARG0"), ("doc0", "ARG1")]
    assert instances([s], "verbal") == []
    verbal = parse_up(verbal_sentence(0).splitlines(keepends=True))[0]
    assert [x.label for x in instances([verbal], "verbal")] == ["ARG0"]


def test_document_statistics_accuracy_and_macro_f1():
    docs = ["a", "a", "b", "b", "b"]
    gold = ["ARG0", "ARG1", "ARG1", "ARG1", "ARG0"]
    pred = ["ARG0", "ARG0", "ARG1", "ARG1", "ARGM-TMP"]
    stats = document_statistics(docs, gold, pred, ["ARG0", "ARG1"])
    assert stats.shape == (2, 8)
    total = stats.sum(axis=0, keepdims=True)
    assert accuracy(total)[0] == pytest.approx(3 / 5)
    # ARG0: tp 1, fp 1, fn 1 -> F1 0.5; ARG1: tp 2, fp 0, fn 1 -> F1 0.8
    assert macro_f1(total)[0] == pytest.approx((0.5 + 0.8) / 2)
    assert accuracy(stats).tolist() == [0.5, pytest.approx(2 / 3)]


def test_bench_on_a_tiny_up_file(tmp_path, capsys, monkeypatch):
    # unlabelled pairs stand in for the parsed Brown corpus: possessors are "poss", of-objects "prep:of"
    pairs = [Pair(NOUNS[i % 6], NAMES[i % 6].lower(), "'s", "poss") for i in range(12)]
    pairs += [Pair(NOUNS[i % 6], "thing", "thing", "prep:of") for i in range(12)]
    monkeypatch.setattr(unlabelled, "brown_pairs", lambda log=None: pairs)
    data = tmp_path / "data"
    (data / "srl" / "up").mkdir(parents=True)
    (data / "srl" / "up" / "en_ewt-up-dev.conllu").write_text(up_text(), "utf-8")
    result = run(tmp_path / "out", data=data, folds=3, n_boot=50, seed=1, brown=20, brown_cv=True, lambda_cv=True)
    assert result["data"]["instances"] == 36 and result["data"]["documents"] == 6
    for name in ("linear", "maxent", "aso", "aso-cv", "aso+brown", "aso+brown-cv", "linear-cv-lambda", "aso-cv-lambda"):
        # the relation alone decides
        assert result["evaluation"]["scores"][name]["accuracy"]["value"] == 1.0
    for pair in ("aso-cv-lambda - linear-cv-lambda", "linear-cv-lambda - linear", "aso-cv-lambda - aso"):
        assert result["evaluation"]["differences"][pair]["accuracy"]["difference"] == 0.0
    for name in ("linear-cv-lambda", "aso-cv-lambda"):  # inner ties go to the largest lambda
        assert [c["lambda"] for c in result["chosen"][name]] == [0.1, 0.1, 0.1]
        assert all(set(c["inner_accuracy"]) == {"0.0001", "0.001", "0.01", "0.1"} for c in result["chosen"][name])
    for name in ("aso", "aso-cv", "aso+brown", "aso+brown-cv"):
        assert result["evaluation"]["differences"][f"{name} - linear"]["accuracy"]["difference"] == 0.0
    assert result["brown"] == {"pairs": 20, "problems": ["poss", "prep:of"]}
    # 2 roles: one binary target problem (+ 2 Brown problems), so h from {1} and {2, 3 = all}
    assert [c["h"] for c in result["chosen"]["aso-cv"]] == [1, 1, 1]
    assert all(c["h"] in (2, 3) and set(c["inner_accuracy"]) == {"2", "3"} for c in result["chosen"]["aso+brown-cv"])
    saved = json.loads((tmp_path / "out" / "aso.json").read_text())
    assert saved["evaluation"]["labels"] == ["ARG0", "ARG1"]
    assert main(["aso", "--out", str(tmp_path / "cli"), "--data", str(data), "--folds", "2",
                 "--bootstrap", "20", "--alpha", "0.01", "--verbal", "3", "--brown", "0", "--lambda-cv"]) == 0
    report = capsys.readouterr().out
    assert "| aso " in report and "aso - linear" in report and "lambda = 0.01 " in report
    assert "| aso+verbal " in report and "at most 3 verbal-predicate arguments" in report
    assert "| aso-cv " in report and "aso-cv: h chosen per outer fold" in report and "aso+brown" not in report
    assert "| aso-cv-lambda " in report and "linear-cv-lambda: lambda chosen per outer fold" in report
    assert "aso-cv-lambda - linear-cv-lambda" in report and "lambda from {0.0001, 0.001, 0.01, 0.1}" in report
    assert np.isfinite(json.loads((tmp_path / "cli" / "aso.json").read_text())["seconds"]["aso"])
