"""SummEval's release files (the 16-system mean-expert JSON and the 12-system JSONL folder)."""

import json

import pytest

from evalcore.data.summeval import DIMENSIONS, read_summeval
from evalcore.io.textfiles import InputError


def test_summeval_reader_both_releases(summeval_expert):
    items = read_summeval(summeval_expert, references="original")
    assert len(items) == 1600 and all(len(i.references) == 1 for i in items)
    assert set(items[0].human) == {*DIMENSIONS, "mean"}
    assert items[0].human["mean"] == pytest.approx(sum(items[0].human[d] for d in DIMENSIONS) / 4)
    twelve = read_summeval(summeval_expert.parent / "expert_turker_12sys")
    assert len(twelve) == 1200 and len(twelve[0].references) == 11


def test_missing_or_bad_release_files_name_the_path(tmp_path):
    with pytest.raises(InputError, match="not found"):
        read_summeval(tmp_path / "nothing.json")
    (tmp_path / "bad.json").write_text("{not json", "utf-8")
    with pytest.raises(InputError, match="bad.json: not a SummEval JSON file"):
        read_summeval(tmp_path / "bad.json")
    with pytest.raises(InputError, match="no \\*_outputs_annotations.jsonl"):
        read_summeval(tmp_path)
    with pytest.raises(ValueError, match="references must be"):
        read_summeval(tmp_path / "bad.json", references="first")


def test_malformed_release_files_name_the_document_or_line(tmp_path):
    (tmp_path / "doc.json").write_text(json.dumps({"d1": {"ref_summs": ["r"], "sys_summs": {"M1": {"sys_summ": "s"}}}}),
                                       "utf-8")
    with pytest.raises(InputError, match="doc.json: document 'd1' is not in SummEval's format"):
        read_summeval(tmp_path / "doc.json")
    (tmp_path / "list.json").write_text("[1, 2]", "utf-8")
    with pytest.raises(InputError, match="expected an object of documents"):
        read_summeval(tmp_path / "list.json")
    folder = tmp_path / "twelve"
    folder.mkdir()
    good = {"id": "d1", "decoded": "s", "references": ["r"],
            "expert_annotations": [{d: 3 for d in DIMENSIONS}, {d: 4 for d in DIMENSIONS}]}
    (folder / "M1_outputs_annotations.jsonl").write_text(json.dumps(good) + "\n\n{broken\n", "utf-8")
    with pytest.raises(InputError, match=r"M1_outputs_annotations.jsonl:3: not a SummEval annotation line"):
        read_summeval(folder)
    (folder / "M1_outputs_annotations.jsonl").write_text(json.dumps(good) + "\n", "utf-8")
    [item] = read_summeval(folder)
    assert item.system == "M1" and item.human["coherence"] == 3.5 and item.origin.endswith(":1")
