"""Readers of mt-metrics-eval's evaluation-set layout and of MQM avg_seg_scores files, on small
fixtures written here, and `aesop-eval meta-evaluate` reading them."""

import json

import numpy as np
import pytest

from evalcore.cli.aesop import main
from evalcore.data.cells import read_cells
from evalcore.data.mtme import read_avg_seg_scores, read_evalset, read_seg_scores, read_sys_scores
from evalcore.io.textfiles import InputError
from evalcore.stats.levels import values

SYSTEMS = ("sysA", "sysB", "sysC", "sysD")
HUMAN = np.array([[-1.0, -2.0, 0.0, -0.5, -3.0], [-2.0, -1.0, -1.0, -4.0, -3.5], [0.0, -0.5, -2.0, -1.0, -1.0],
                  [-5.0, -4.0, -3.0, -2.5, -6.0]])
METRIC = np.array([[0.6, 0.4, 0.9, 0.7, 0.1], [0.3, 0.5, 0.5, 0.1, 0.2], [0.8, 0.8, 0.2, 0.6, 0.6],
                   [0.1, 0.2, 0.3, 0.4, 0.0]])


def _evalset(tmp_path, missing=(1, 2)):
    """wmt.test/en-de with 5 segments, 4 systems, reference A, MQM and a metric (Chinese and NFD
    text in the outputs: the reader keeps text as it is)."""
    root = tmp_path / "wmt.test"
    for sub in ("sources", "references", "system-outputs/en-de", "human-scores", "metric-scores/en-de"):
        (root / sub).mkdir(parents=True)
    lines = [f"Segment {k} 数据 Cafe\u0301" for k in range(1, 6)]
    (root / "sources" / "en-de.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (root / "references" / "en-de.refA.txt").write_text("\n".join(lines) + "\n", "utf-8")
    seg, metric = [], []
    for i, s in enumerate(SYSTEMS):
        (root / "system-outputs" / "en-de" / f"{s}.txt").write_text("\n".join(lines) + "\n", "utf-8")
        for j in range(5):
            seg.append(f"{s}\t{'None' if (i, j) == missing else HUMAN[i, j]}")
            metric.append(f"{s} {METRIC[i, j]}")
    (root / "human-scores" / "en-de.mqm.seg.score").write_text("\n".join(seg) + "\n", "utf-8")
    (root / "human-scores" / "en-de.mqm.sys.score").write_text(
        "".join(f"{s}\t{HUMAN[i].mean()}\n" for i, s in enumerate(SYSTEMS)), "utf-8")
    (root / "metric-scores" / "en-de" / "toy-refA.seg.score").write_text("\n".join(metric) + "\n", "utf-8")
    return root


def test_evalset_layout_is_read_with_positions_and_none(tmp_path):
    ev = read_evalset(_evalset(tmp_path), "en-de")
    assert ev.lp == "en-de" and len(ev.source) == 5 and set(ev.outputs) == set(SYSTEMS)
    assert list(ev.references) == ["refA"] and ev.outputs["sysA"][0].endswith("Cafe\u0301")
    mqm = ev.human_seg["mqm"]
    assert ("sysB", 3) not in mqm and mqm[("sysB", 4)] == HUMAN[1, 3] and len(mqm) == 19
    assert ev.human_sys["mqm"]["sysC"] == pytest.approx(HUMAN[2].mean(), abs=1e-12)
    assert ev.metric_seg["toy-refA"][("sysD", 5)] == METRIC[3, 4]


def test_bad_score_lines_name_file_and_line(tmp_path):
    bad = tmp_path / "x.seg.score"
    bad.write_text("sysA 1.0\nsysA nan\n", "utf-8")
    with pytest.raises(InputError, match="x.seg.score:2: score 'nan' is not finite"):
        read_seg_scores(bad)
    bad.write_text("sysA 1.0 2.0\n", "utf-8")
    with pytest.raises(InputError, match=":1: expected 2 whitespace-separated fields"):
        read_seg_scores(bad)
    sys_file = tmp_path / "x.sys.score"
    sys_file.write_text("sysA 1\nsysA 2\n", "utf-8")
    with pytest.raises(InputError, match=":2: a second score for system 'sysA'"):
        read_sys_scores(sys_file)


def test_short_output_and_out_of_range_segment_are_errors(tmp_path):
    root = _evalset(tmp_path)
    (root / "system-outputs" / "en-de" / "sysA.txt").write_text("one line\n", "utf-8")
    with pytest.raises(InputError, match="sysA.txt: 1 lines, the source has 5"):
        read_evalset(root, "en-de")
    root = _evalset(tmp_path / "again")
    with open(root / "human-scores" / "en-de.mqm.seg.score", "a", encoding="utf-8") as f:
        f.write("sysA 1.0\n")
    with pytest.raises(InputError, match="score for segment 6; the source has 5"):
        read_evalset(root, "en-de")


def test_avg_seg_scores_mixed_separators_none_and_duplicates(tmp_path):
    path = tmp_path / "mqm.avg_seg_scores.tsv"
    path.write_text("system mqm_avg_score seg_id\nsysA\t-1.5 1\nsysA\tNone 2\nsysB\t-0.000000 1\n", "utf-8")
    assert read_avg_seg_scores(path) == {("sysA", 1): -1.5, ("sysB", 1): 0.0}
    path.write_text("system mqm_avg_score seg_id\nsysA\t-1.5 1\nsysA -2 1\n", "utf-8")
    with pytest.raises(InputError, match=":3: a second score for system 'sysA', segment 1"):
        read_avg_seg_scores(path)


def test_cells_name_seg_score_columns_and_meta_evaluate_reads_the_layout(tmp_path, capsys):
    root = _evalset(tmp_path)
    human = root / "human-scores" / "en-de.mqm.seg.score"
    metric = root / "metric-scores" / "en-de" / "toy-refA.seg.score"
    assert read_cells(human).columns == ("mqm",) and read_cells(metric).columns == ("toy-refA",)
    code = main(["meta-evaluate", "--scores", str(metric), "--human", str(human), "--dimension", "mqm",
                 "--level", "item", "--statistic", "acc-eq", "--tie-calibration", "-n", "50", "--format", "json"])
    out = capsys.readouterr()
    row = json.loads(out.out)["metrics"][0]
    z = HUMAN.copy()
    z[1, 2] = np.nan
    value, eps = values(METRIC, z, "item", "acc-eq", None)
    assert code == 0 and row["value"] == pytest.approx(float(value), abs=1e-12) and row["epsilon"] == float(eps)
    assert "1 judged cells without a score" not in out.err and "1 scored cells without a judgment" in out.err
