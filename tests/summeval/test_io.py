import json
from pathlib import Path

import pytest

from summeval.io import InputError, read_jsonl, read_summeval, read_tac

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "summeval"


def write(folder: Path, name: str, text: str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_demo_tac_layout():
    items = read_tac(DEMO / "models", DEMO / "peers")
    assert len(items) == 12
    assert {i.topic for i in items} == {"D0001-A", "D0002-A", "D0003-A"}
    assert {i.system for i in items} == {"1", "2", "3", "4"}
    assert all(len(i.references) == 3 for i in items)


def test_include_models_scores_each_model_against_the_others():
    items = read_tac(DEMO / "models", DEMO / "peers", include_models=True)
    models = [i for i in items if i.system.isalpha()]
    assert len(models) == 9 and all(len(i.references) == 2 for i in models)


def test_tac_errors_name_the_file(tmp_path):
    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "A model summary.")
    write(peers, "D1.M.100.A.1", "")
    with pytest.raises(InputError, match="D1.M.100.A.1: empty summary file"):
        read_tac(models, peers)
    write(peers, "D1.M.100.A.1", b"caf\xe9 au lait")
    with pytest.raises(InputError, match="D1.M.100.A.1: not valid UTF-8"):
        read_tac(models, peers)
    write(peers, "D1.M.100.A.1", "fine")
    write(peers, "D2.M.100.A.1", "orphan")
    with pytest.raises(InputError, match="D2.M.100.A.1: topic 'D2' has no model summaries"):
        read_tac(models, peers)
    (peers / "D2.M.100.A.1").unlink()
    write(peers, "D1.M.200.A.1", "same id again")
    with pytest.raises(InputError, match="duplicate summary for topic 'D1', system '1'"):
        read_tac(models, peers)
    with pytest.raises(InputError, match="models folder does not exist"):
        read_tac(tmp_path / "nowhere", peers)


def test_model_with_numeric_id_is_rejected(tmp_path):
    write(tmp_path / "m", "D1.M.100.A.7", "x")
    write(tmp_path / "p", "D1.M.100.A.1", "y")
    with pytest.raises(InputError, match="letter ids"):
        read_tac(tmp_path / "m", tmp_path / "p")


def test_tac_layout_mistakes_are_errors_not_skips(tmp_path):
    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "A model summary.")
    write(models, "D1.M.200.A.A", "The same model id again.")
    write(peers, "D1.M.100.A.1", "A peer.")
    with pytest.raises(InputError, match="duplicate model summary for topic 'D1', id 'A'"):
        read_tac(models, peers)
    (models / "D1.M.200.A.A").unlink()
    write(peers, "D1.M.100.A.B", "A model file among the peers.")
    with pytest.raises(InputError, match="D1.M.100.A.B: peer summaries have numeric ids"):
        read_tac(models, peers)
    (peers / "D1.M.100.A.B").unlink()
    (peers / "nested").mkdir()
    with pytest.raises(InputError, match="nested: not a summary file"):
        read_tac(models, peers)
    (peers / "nested").rmdir()
    write(peers, ".DS_Store", b"\x00")
    assert [i.system for i in read_tac(models, peers)] == ["1"]
    with pytest.raises(InputError, match="topic 'D1' has one model summary"):
        read_tac(models, peers, include_models=True)


def test_byte_order_mark_is_dropped(tmp_path):
    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "A model summary.")
    write(peers, "D1.M.100.A.1", "\ufeffA peer.".encode("utf-8"))
    assert read_tac(models, peers)[0].summary == "A peer."
    row = {"topic": "t", "system": "s", "summary": "hi", "references": ["hello"]}
    path = write(tmp_path, "bom.jsonl", ("\ufeff" + json.dumps(row) + "\n").encode("utf-8"))
    assert read_jsonl(path)[0].topic == "t"


def test_jsonl_reader_and_errors(tmp_path):
    good = {"topic": "t", "system": "s", "summary": "hi there", "references": ["hello there"], "human": {"rel": 3}}
    path = write(tmp_path, "in.jsonl", json.dumps(good) + "\n")
    (item,) = read_jsonl(path)
    assert item.references == ("hello there",) and item.human == {"rel": 3.0}
    write(tmp_path, "bad.jsonl", json.dumps(good) + "\n{not json\n")
    with pytest.raises(InputError, match="bad.jsonl:2: invalid JSON"):
        read_jsonl(tmp_path / "bad.jsonl")
    write(tmp_path, "missing.jsonl", json.dumps({"topic": "t", "summary": "x"}) + "\n")
    with pytest.raises(InputError, match="missing.jsonl:1: missing field\\(s\\) system, references"):
        read_jsonl(tmp_path / "missing.jsonl")
    for name, human in (("list", [1, 2]), ("text", {"rel": "high"})):
        write(tmp_path, f"{name}.jsonl", json.dumps({**good, "human": human}) + "\n")
        with pytest.raises(InputError, match=f"{name}.jsonl:1: .*human"):
            read_jsonl(tmp_path / f"{name}.jsonl")
    write(tmp_path, "null.jsonl", json.dumps({**good, "topic": None}) + "\n")
    with pytest.raises(InputError, match="null.jsonl:1: 'topic' must be"):
        read_jsonl(tmp_path / "null.jsonl")
    write(tmp_path, "empty.jsonl", "\n")
    with pytest.raises(InputError, match="no summaries"):
        read_jsonl(tmp_path / "empty.jsonl")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data/summeval not present")
def test_summeval_reader_both_releases():
    items = read_summeval(SHARED / "summeval_16sys_mean_expert.json", references="original")
    assert len(items) == 1600 and all(len(i.references) == 1 for i in items)
    assert set(items[0].human) == {"relevance", "coherence", "consistency", "fluency", "mean"}
    twelve = read_summeval(SHARED / "expert_turker_12sys")
    assert len(twelve) == 1200 and len(twelve[0].references) == 11


def test_human_scores_file(tmp_path):
    from summeval.correlate import read_human

    path = write(tmp_path, "h.tsv", "\ufefftopic\tsystem\trel\tcoh\nD1\t1\t3.5\t\nD1\t2\t4\t2\n".encode("utf-8"))
    assert read_human(path) == {("D1", "1"): {"rel": 3.5}, ("D1", "2"): {"rel": 4.0, "coh": 2.0}}
    write(tmp_path, "na.tsv", "topic\tsystem\trel\nD1\t1\tn/a\n")
    with pytest.raises(InputError, match="na.tsv:2: rel = 'n/a' is not a number"):
        read_human(tmp_path / "na.tsv")
