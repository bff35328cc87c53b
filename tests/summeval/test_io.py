import json
import os
import re
from pathlib import Path

import pytest

from evalcore.data.jsonl import read_jsonl
from evalcore.data.tac import read_tac
from evalcore.io.textfiles import InputError, UnreadableText
from evalcore.metric.inputs import EMPTY_NOTE

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"


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


def test_a_latin1_peer_is_an_error_record_not_an_abort(tmp_path):
    """On the old main one latin-1 peer stopped the whole run (exit 2)."""
    from summeval.metrics import TeslaS
    from summeval.pipeline import score_items

    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "The council met on Monday.")
    write(peers, "D1.M.100.A.1", b"Le caf\xe9 \xe9tait ferm\xe9. The council met.")
    write(peers, "D1.M.100.A.2", "The council met.")
    results = score_items(read_tac(models, peers), [TeslaS()])
    assert results[1].ok and not results[0].ok
    assert results[0].errors["tesla-s"].endswith(
        "D1.M.100.A.1: candidate: not valid UTF-8 (byte 0xe9 at byte 6; it looks like latin-1 / Windows-1252); "
        "convert it to UTF-8, e.g. `iconv -f WINDOWS-1252 -t UTF-8`")


@pytest.mark.parametrize("content,message", [
    (b"\x00\x00\x00\n", "binary data"),
    ("\u200b\u202e\n", "empty summary file (only control or invisible characters)"),
    (b"caf\xe9", "not valid UTF-8"),
    ("word " * 30, "too long (150 characters > 100)"),
], ids=["nul-only", "invisible-only", "latin-1", "oversized"])
def test_a_model_no_peer_can_be_scored_against_stops_the_run_naming_topic_and_file(tmp_path, content, message):
    """On the old main a NUL-only or oversized model made every peer of its topic an error record
    and the topic left the ranking basis without a word."""
    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", content)
    write(models, "D2.M.100.A.A", "A model summary.")
    write(peers, "D1.M.100.A.1", "A peer.")
    with pytest.raises(InputError, match=f"topic 'D1': .*D1.M.100.A.A: {re.escape(message)}"):
        read_tac(models, peers, max_chars=100)


def test_tac_errors_name_the_file(tmp_path):
    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "")
    write(peers, "D1.M.100.A.1", "A peer.")
    with pytest.raises(InputError, match="D1.M.100.A.A: empty summary file"):
        read_tac(models, peers)
    write(models, "D1.M.100.A.A", "A model summary.")
    write(peers, "D1.M.100.A.1", bytes(range(256)) * 4)  # a binary peer is one unreadable summary
    (item,) = read_tac(models, peers)
    assert isinstance(item.summary, UnreadableText)
    assert item.summary == "" and "binary data" in item.summary.reason
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


def test_an_empty_peer_file_is_an_empty_summary_as_in_jsonl(tmp_path):
    # defect: one empty peer file stopped a TAC run; from either reader it is an empty summary, scored
    from evalcore.data.records import SummaryItem
    from summeval.metrics import TeslaS
    from summeval.pipeline import score_items

    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "Cats chase mice in the garden.")
    write(peers, "D1.M.100.A.1", "Cats chase mice.")
    write(peers, "D1.M.100.A.2", "  \n")
    tac = score_items(read_tac(models, peers), [TeslaS()])
    jsonl = score_items([SummaryItem("D1", "1", "Cats chase mice.", ("Cats chase mice in the garden.",), "in.jsonl:1"),
                         SummaryItem("D1", "2", "  \n", ("Cats chase mice in the garden.",), "in.jsonl:2")], [TeslaS()])
    assert [r.ok for r in tac] == [r.ok for r in jsonl] == [True, True]
    assert tac[1].scores["tesla-s"] == jsonl[1].scores["tesla-s"] == 0
    assert EMPTY_NOTE in tac[1].notes["tesla-s"] and EMPTY_NOTE in jsonl[1].notes["tesla-s"]


def test_jsonl_from_standard_input(monkeypatch):
    import io

    row = {"topic": "t", "system": "s", "summary": "hi", "references": ["hello"]}
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((json.dumps(row) + "\n").encode())))
    (item,) = read_jsonl("-")
    assert item.summary == "hi" and item.origin == "<stdin>:1"


def test_a_latin1_jsonl_line_is_an_error_record_naming_file_and_line(tmp_path):
    """On the old main one latin-1 byte anywhere in the file stopped the whole run."""
    from summeval.metrics import TeslaS
    from summeval.pipeline import score_items

    good = json.dumps({"topic": "t", "system": "a", "summary": "The council met.", "references": ["The council met."]})
    bad = '{"topic": "t", "system": "b", "summary": "Le caf\xe9 ferm\xe9.", "references": ["The council met."]}'
    path = tmp_path / "in.jsonl"
    path.write_bytes(good.encode() + b"\n" + bad.encode("latin-1") + b"\n")
    items = read_jsonl(path)
    assert [(i.topic, i.system) for i in items] == [("t", "a"), ("t", "b")]
    results = score_items(items, [TeslaS()])
    assert results[0].ok and not results[1].ok
    assert results[1].errors["tesla-s"] == (f"{path}:2: candidate: not valid UTF-8 (byte 0xe9 at byte 48; it looks "
                                            "like latin-1 / Windows-1252); convert it to UTF-8, e.g. `iconv -f "
                                            "WINDOWS-1252 -t UTF-8`")


def _escaped(tmp_path: Path, name: bytes) -> Path:
    """``tmp_path / name`` for a name whose bytes are not UTF-8 (Python holds them as surrogates)."""
    return Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), name)))


def test_a_file_name_that_is_not_utf8_is_shown_with_backslash_escapes(tmp_path, capsys):
    """A peer named ``D2\\xe9-A...`` was printed as ``D2\\udce9-A``, and ids holding the byte could
    not be written as UTF-8 JSON."""
    from summeval.cli import main

    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", "The council met on Monday.")
    _escaped(models, b"D1.M.100.A.B\xe9").write_text("The council met.")
    write(peers, "D1.M.100.A.1", "The council met.")
    items = read_tac(models, peers, include_models=True)
    assert sorted(i.system for i in items) == ["1", "A", "B\\xe9"]
    assert any(i.origin.endswith("D1.M.100.A.B\\xe9") for i in items)
    json.dumps([i.system for i in items], ensure_ascii=False).encode("utf-8")  # UTF-8 all through
    _escaped(peers, b"D2\xe9-A.M.100.A.2").write_text("The budget.")
    with pytest.raises(InputError) as refused:
        read_tac(models, peers)
    message = f"{peers}/D2\\xe9-A.M.100.A.2: topic 'D2\\xe9-A' has no model summaries in {models}"
    assert str(refused.value) == message
    assert main(["score", "--models", str(models), "--peers", str(peers), "-m", "rouge-2"]) == 2
    assert capsys.readouterr().err == f"summeval: error: {message}\n"


def test_jsonl_ids_are_strings_and_references_a_list_or_one_string(tmp_path):
    """docs/input-rule.md: ``1`` and ``"1"`` were merged into one system; a number is refused."""
    rows = ['{"topic": "D1", "system": "1", "summary": "a cat", "references": "the cat"}',
            '{"topic": "D1", "system": "2", "summary": "a dog", "references": ["the dog", "a dog"]}']
    items = read_jsonl(write(tmp_path, "ok.jsonl", "\n".join(rows) + "\n"))
    assert [(i.system, i.references) for i in items] == [("1", ("the cat",)), ("2", ("the dog", "a dog"))]
    for field, value in (("system", "1"), ("topic", "7"), ("system", "2.5")):
        bad = json.dumps({**json.loads(rows[0]), field: json.loads(value)})
        with pytest.raises(InputError, match=rf"bad\.jsonl:2: '{field}' is the number {re.escape(value)}; ids are "
                                             rf"text in JSON: write \"{field}\": \"{re.escape(value)}\""):
            read_jsonl(write(tmp_path, "bad.jsonl", rows[1] + "\n" + bad + "\n"))


def test_a_model_summary_is_capped_as_metrics_read_it(tmp_path):
    """A model summary in NFD stopped the run where its NFC twin was read."""
    import unicodedata

    text = "한국어 문장입니다. " * 4  # 44 characters in NFC, 100 in NFD
    models, peers = tmp_path / "models", tmp_path / "peers"
    write(models, "D1.M.100.A.A", unicodedata.normalize("NFD", text))
    write(peers, "D1.M.100.A.1", "The council met.")
    assert read_tac(models, peers, max_chars=44)[0].references[0] == unicodedata.normalize("NFD", text)
    with pytest.raises(InputError, match=r"too long \(44 characters > 43\)"):
        read_tac(models, peers, max_chars=43)
