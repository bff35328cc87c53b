"""DialSummEval reader: row alignment of upstream's metric files, the reference, human means."""

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from evalcore.data.dialsummeval import DIMENSIONS, LICENCE, dialogue_text, read_dialsummeval
from evalcore.io.textfiles import InputError

COLUMNS = ["rouge-1", "rouge-2", "rouge-l", "bertscore_f1", "moverscore", "bartscore_s_h"]
DIALOGUES = {"d1": "| Ann: hi | Bob: hello there", "d2": "| Cy: lunch? | Di: sure, at noon",
             "d3": "| Ed: did you call mum? | Fay: not yet"}
SUMMARIES = {  # model R is the reference; X copies it in d3
    ("d1", "R"): "Ann greets Bob.", ("d1", "X"): "Bob says hello.", ("d1", "Y"): "Ann and Bob talk.",
    ("d2", "R"): "Cy and Di will lunch at noon.", ("d2", "X"): "Lunch at noon.", ("d2", "Y"): "Di agrees.",
    ("d3", "R"): "Fay has not called mum.", ("d3", "X"): "Fay has not called mum.", ("d3", "Y"): "Ed asks Fay.",
}
UPSTREAM_ORDER = ["d3", "d1", "d2"]  # dials.txt is not in the order of human_judgment.jsonl


def _value(topic: str, model: str) -> float:
    """A distinct anchor value per summary, so a misaligned read is visible."""
    return int(topic[1]) * 10 + "RXY".index(model)


def _write(root: Path, scores=None) -> Path:
    rows = []
    for topic in sorted(DIALOGUES):
        for model in "RXY":
            ann = [{d: (scores or {}).get((topic, model), [3, 4, 5])[k] for d in DIMENSIONS} for k in range(3)]
            rows.append({"id": topic, "dialogue": DIALOGUES[topic], "summary": SUMMARIES[(topic, model)],
                         "annotations": ann, "model_id": model})
    (root / "human_judgment.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    up = root / "models_eval_new"
    up.mkdir()
    (up / "dials.txt").write_text("".join(DIALOGUES[t] + "\n" for t in UPSTREAM_ORDER), "utf-8")
    for model in "RXY":
        (up / model).mkdir()
        (up / model / "summs.txt").write_text("".join(SUMMARIES[(t, model)] + "\n" for t in UPSTREAM_ORDER), "utf-8")
        lines = [",".join(COLUMNS)]
        for t in UPSTREAM_ORDER:
            same = SUMMARIES[(t, model)] == SUMMARIES[(t, "R")]
            overlap = "1.0" if same else "0.25"
            lines.append(",".join([overlap, overlap, overlap, overlap if same else str(_value(t, model)),
                                   "0.5", str(-_value(t, model))]))
        (up / model / "metrics.csv").write_text("\n".join(lines) + "\n", "utf-8")
    return root


def test_reference_identified_and_excluded_even_when_a_system_copies_it(tmp_path):
    data = read_dialsummeval(_write(tmp_path))
    assert data.reference_system == "R"
    assert data.systems == ("X", "Y")
    assert [i.key for i in data.items] == [(t, m) for t in ("d1", "d2", "d3") for m in "XY"]
    for item in data.items:
        assert item.references == (SUMMARIES[(item.topic, "R")],)
    assert [i.system for i in data.reference_items] == ["R"] * 3
    assert data.licence == LICENCE and "NC-ND" in LICENCE


def test_anchors_follow_the_dialogue_not_the_file_order(tmp_path):
    data = read_dialsummeval(_write(tmp_path))
    want_bart = [-_value(i.topic, i.system) for i in data.items]
    assert data.anchors["bartscore"].tolist() == want_bart
    # X copied the reference in d3: BERTScore F1 1.0 there, its own value elsewhere
    bert = dict(zip((i.key for i in data.items), data.anchors["bertscore"]))
    assert bert[("d3", "X")] == 1.0 and bert[("d1", "X")] == _value("d1", "X")


def test_human_scores_are_annotator_means_plus_their_mean(tmp_path):
    data = read_dialsummeval(_write(tmp_path, {("d2", "Y"): [1, 2, 4]}))
    item = next(i for i in data.items if i.key == ("d2", "Y"))
    assert item.human == pytest.approx({**{d: 7 / 3 for d in DIMENSIONS}, "mean": 7 / 3})
    other = next(i for i in data.items if i.key == ("d1", "X"))
    assert other.human["coherence"] == 4.0


def test_swapped_summary_rows_are_an_error(tmp_path):
    root = _write(tmp_path)
    path = root / "models_eval_new" / "Y" / "summs.txt"
    lines = path.read_text("utf-8").splitlines()
    path.write_text("\n".join([lines[1], lines[0], lines[2]]) + "\n", "utf-8")
    with pytest.raises(InputError, match=r"Y/summs.txt:\d: does not hold the summary.*misaligned"):
        read_dialsummeval(root)


def test_metric_file_with_a_missing_row_is_an_error(tmp_path):
    root = _write(tmp_path)
    path = root / "models_eval_new" / "X" / "metrics.csv"
    path.write_text("\n".join(path.read_text("utf-8").splitlines()[:-1]) + "\n", "utf-8")
    with pytest.raises(InputError, match="X/metrics.csv: 2 rows for 3 summaries"):
        read_dialsummeval(root)


def test_no_reference_is_an_error(tmp_path):
    root = _write(tmp_path)
    path = root / "models_eval_new" / "R" / "metrics.csv"
    lines = path.read_text("utf-8").splitlines()
    lines[2] = lines[2].replace("1.0", "0.9")
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(InputError, match="cannot identify the reference"):
        read_dialsummeval(root)


def test_non_finite_annotation_names_the_line(tmp_path):
    root = _write(tmp_path)
    path = root / "human_judgment.jsonl"
    lines = path.read_text("utf-8").splitlines()
    lines[4] = lines[4].replace('"coherence": 3', '"coherence": NaN', 1)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(InputError, match=r"human_judgment.jsonl:5: non-finite coherence"):
        read_dialsummeval(root)


def test_unknown_anchor_column_is_an_error(tmp_path):
    with pytest.raises(InputError, match="no column 'bleu'"):
        read_dialsummeval(_write(tmp_path), anchors={"bleu": "bleu"})


def test_dialogue_text_puts_one_turn_per_line():
    assert dialogue_text("| Ann: hi | Bob: hello there") == "Ann: hi\nBob: hello there"


def _shared() -> Path | None:
    from evalcore.resources.registry import ResourceError, shared_data_dir

    try:
        path = shared_data_dir() / "dialsummeval"
    except ResourceError:
        return None
    return path if path.is_dir() else None


@pytest.mark.skipif(_shared() is None, reason="needs ../shared/data/dialsummeval")
def test_shared_release():
    root = _shared()
    assert root is not None  # the test is skipped without it
    data = read_dialsummeval(root)
    assert data.reference_system == "A"
    assert len(data.items) == 1300 and len(data.systems) == 13 and len(data.topics) == 100
    assert all(np.isfinite(v).all() and len(v) == 1300 for v in data.anchors.values())
    # alignment on real rows: upstream's ROUGE-1 F is 1.0 exactly where the summary has the
    # reference's bag of lowercased words (ROUGE's tokenisation), and only there
    rouge1 = read_dialsummeval(root, anchors={"rouge-1": "rouge-1"}).anchors["rouge-1"]

    def bag(text):
        return Counter(re.findall(r"[a-z0-9]+", text.lower()))

    same = np.array([bag(i.summary) == bag(i.references[0]) for i in data.items])
    assert same.sum() >= 2
    assert np.array_equal(np.isclose(rouge1, 1.0), same)
