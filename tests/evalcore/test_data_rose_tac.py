"""Readers of RoSE records and TAC manual evaluation files, on small fixtures written here, and
`aesop-eval meta-evaluate` reading them."""

import json

import pytest

from evalcore.cli.aesop import main
from evalcore.data.cells import read_cells
from evalcore.data.rose import read_rose
from evalcore.data.tac_manual import read_tac_manual
from evalcore.io.textfiles import InputError

SYSTEMS = ("bart", "brio", "pegasus", "t0")
ACU = {"bart": [0.4, 0.3, 0.5], "brio": [0.6, 0.5, 0.4], "pegasus": [0.2, 0.25, 0.3], "t0": [0.1, 0.0, 0.2]}


def _rose(tmp_path):
    judged = [{"example_id": f"ex{k}", "source": "文档 Cafe\u0301", "annotations": {
        s: {"acu": ACU[s][k], "normalized_acu": ACU[s][k] / 2, "prior": k + 1, "acu_labels": [1, 0]}
        for s in SYSTEMS}} for k in range(3)]
    (tmp_path / "rose.json").write_text(json.dumps(judged, ensure_ascii=False), "utf-8")
    metric = [{"example_id": f"ex{k}", "metric_scores": {"rouge1r": {s: ACU[s][k] * 0.9 + 0.01 for s in SYSTEMS}}}
              for k in range(3)]
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in metric), "utf-8")


def test_rose_judgments_and_metric_records(tmp_path):
    _rose(tmp_path)
    human = read_rose(tmp_path / "rose.json")
    assert set(human) == {"acu", "normalized_acu", "prior"}
    assert human["acu"][("brio", "ex1")] == 0.5 and len(human["acu"]) == 12
    assert read_rose(tmp_path / "metrics.jsonl")["rouge1r"][("t0", "ex2")] == pytest.approx(0.19, abs=1e-12)
    assert read_cells(tmp_path / "rose.json").input_field == "example_id"


def test_rose_bad_values_and_repeated_inputs(tmp_path):
    (tmp_path / "bad.jsonl").write_text(json.dumps({"annotations": {"bart": {"acu": "high"}}}) + "\n", "utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl:1: bart acu = 'high' is not a finite number"):
        read_rose(tmp_path / "bad.jsonl")
    twice = [{"example_id": 1, "annotations": {"bart": {"acu": 0.1}}}] * 2
    (tmp_path / "twice.json").write_text(json.dumps(twice), "utf-8")
    with pytest.raises(InputError, match="record 2: input '1' appears twice"):
        read_rose(tmp_path / "twice.json")


def test_meta_evaluate_on_rose(tmp_path, capsys):
    _rose(tmp_path)
    code = main(["meta-evaluate", "--scores", str(tmp_path / "metrics.jsonl"), "--human", str(tmp_path / "rose.json"),
                 "--dimension", "acu", "--level", "system", "--statistic", "pearson", "-n", "50", "--format", "json"])
    row = json.loads(capsys.readouterr().out)["metrics"][0]
    assert code == 0 and row["metric"] == "rouge1r" and row["value"] == pytest.approx(1.0, abs=1e-12)


PEER = "D1001-A 1 0.35 5 0 0.3 0.3 0.33 3 2\nD1001-A 2 0.50 7 1 0.4 0.4 0.48 4 3\n" \
       "D1002-A 1 0.20 3 0 0.2 0.2 0.19 2 2\nD1002-A 2 0.60 8 0 0.5 0.5 0.58 3 4\n"


def test_tac_manual_peer_and_model_columns(tmp_path):
    (tmp_path / "manual.peer.A").write_text(PEER, "utf-8")
    cells = read_tac_manual(tmp_path / "manual.peer.A")
    assert cells["responsiveness"][("2", "D1002-A")] == 4.0 and cells["readability"][("1", "D1001-A")] == 3.0
    assert cells["modified_pyramid"][("2", "D1001-A")] == 0.5 and cells["modified_pyramid_jk"][("1", "D1002-A")] == 0.19
    (tmp_path / "manual.model.A").write_text("D1001-A A 6 0 0 0.61 5 5\n", "utf-8")
    model = read_tac_manual(tmp_path / "manual.model.A")
    assert model["responsiveness"] == {("A", "D1001-A"): 5.0} and "modified_pyramid" not in model
    assert read_cells(tmp_path / "manual.peer.A").input_field == "topic"


def test_tac_manual_bad_rows(tmp_path):
    (tmp_path / "manual.peer").write_text("D1001-A 1 0.35 5 0 0.3 0.3 0.33 3\n", "utf-8")
    with pytest.raises(InputError, match=r"manual\.peer:1: 9 fields; a peer row of a TAC manual file has 10"):
        read_tac_manual(tmp_path / "manual.peer")
    (tmp_path / "manual.peer").write_text(PEER + "D1003-A 1 0.35 5 0 0.3 0.3 0.33 3 x\n", "utf-8")
    with pytest.raises(InputError, match=r"manual\.peer:5: responsiveness = 'x' is not a number"):
        read_tac_manual(tmp_path / "manual.peer")
    (tmp_path / "manual.peer").write_text(PEER + PEER.splitlines()[0] + "\n", "utf-8")
    with pytest.raises(InputError, match=r"manual\.peer:5: a second row for topic 'D1001-A', summarizer '1'"):
        read_tac_manual(tmp_path / "manual.peer")
