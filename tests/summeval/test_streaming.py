"""`summeval score` streams: a JSONL input is read a block at a time (checked through before any
scoring), each JSONL/TSV row is written as its window of summaries is scored, and the text caches
are bounded by what they hold, so peak memory stays flat in the number of summaries."""

from __future__ import annotations

import codecs
import json
import random
import tracemalloc
from dataclasses import replace

import pytest

import evalcore.metric.batch
from evalcore.data.jsonl import check_jsonl, iter_jsonl, read_jsonl
from evalcore.data.records import SummaryItem, UniqueKeys, check_unique
from evalcore.io.sources import InputFile
from evalcore.io.textfiles import (
    InputError,
    UnreadableText,
    decode_lines,
    jsonl_file_lines,
    jsonl_lines,
)
from evalcore.metric import Item, ReferenceMetric, Score, inputs
from evalcore.metric.registry import build_metrics
from summeval.cli import main
from summeval.pipeline import WINDOW_ITEMS, iter_results, score_items
from summeval.rouge import metric as rouge

WORDS = "the a cat sat on mat dog ran far away house tree market fell sharply".split()


def _rows(n: int, seed: int = 0, words: int = 12) -> list[dict]:
    """``n`` summaries of 7 topics by n/7 systems, topics interleaved (no two neighbours share one)."""
    rng = random.Random(seed)
    refs = {t: [" ".join(rng.choices(WORDS, k=words)) for _ in range(2)] for t in range(7)}
    return [{"topic": f"d{k % 7}", "system": f"S{k // 7}", "summary": " ".join(rng.choices(WORDS, k=words)),
             "references": refs[k % 7]} for k in range(n)]


def _write(path, rows) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


# ---- reading ---------------------------------------------------------------------------------------

HOSTILE = [b'{"topic": "t1", "system": "A", "summary": "caf\xe9", "references": ["cafe"]}',  # latin-1 byte
           '{"topic": "t2", "system": "A", "summary": "Кошка\u2028сидела", "references": ["猫坐在垫子上"]}'.encode(),
           b"", b'{"topic": "t3", "system": "A", "summary": "Cafe\\u0301 \\u0000", "references": ["x"]}']


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "utf-16", "utf-32"])
@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("final", [True, False])
def test_input_file_reads_what_decode_lines_reads(tmp_path, encoding, ending, final):
    data = ending.join(HOSTILE) + (ending if final else b"")
    if encoding != "utf-8":  # the others cannot hold the latin-1 byte: the line as a text
        data = data.decode("utf-8", "replace").encode(encoding)
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    assert [line.text for line in InputFile(path).lines()] == decode_lines(data, path)
    assert list(jsonl_file_lines(InputFile(path).lines(), path)) == list(jsonl_lines(data, path))


def test_a_utf16_file_that_does_not_decode_is_the_same_error_before_any_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(codecs.BOM_UTF16_LE + '{"no": "fields"}\n'.encode("utf-16-le") + b"\x00\xd8\x41")
    with pytest.raises(InputError) as whole:
        read_jsonl(path)
    with pytest.raises(InputError) as streamed:
        check_jsonl(path)
    assert str(streamed.value) == str(whole.value) and "not valid UTF-16LE" in str(whole.value)


@pytest.mark.parametrize("lines", [
    ["ok", "ok", '{"topic": "t", "system": "s", "summary": 3, "references": []}'],
    ["ok", "not json"],
    [],
])
def test_check_jsonl_raises_what_read_jsonl_raises(tmp_path, lines):
    ok = iter(_rows(10))
    path = tmp_path / "in.jsonl"
    path.write_text("".join((json.dumps(next(ok)) if line == "ok" else line) + "\n" for line in lines))
    with pytest.raises(InputError) as whole:
        read_jsonl(path)
    with pytest.raises(InputError) as streamed:
        check_jsonl(path)
    assert str(streamed.value) == str(whole.value)


def test_check_jsonl_names_the_first_duplicate_as_read_jsonl_does(tmp_path):
    rows = _rows(40)
    rows.insert(30, dict(rows[12], summary="again"))  # the first key to come twice (in file order) ...
    rows.insert(35, dict(rows[3], summary="again"))   # ... not the first key that has a twin
    path = tmp_path / "dup.jsonl"
    _write(path, rows)
    with pytest.raises(InputError) as whole:
        read_jsonl(path)
    with pytest.raises(InputError) as streamed:
        check_jsonl(path)
    assert str(streamed.value) == str(whole.value) == (
        f"duplicate summary for topic 'd5', system 'S1': {path}:13 and {path}:31")


def test_the_command_names_lines_by_the_path_as_read_jsonl_does(tmp_path, capsys):
    """`--input DIR//dup.jsonl` names `DIR/dup.jsonl:13` (the path as pathlib spells it), before any output."""
    rows = _rows(40)
    rows.insert(30, dict(rows[12], summary="again"))
    _write(tmp_path / "dup.jsonl", rows)
    assert main(["score", "--input", f"{tmp_path}//dup.jsonl", "-m", "rouge-1", "--format", "jsonl"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f" {tmp_path / 'dup.jsonl'}:13 and " in err


def test_unique_keys_find_the_duplicate_check_unique_names():
    rng = random.Random(3)
    for _ in range(200):
        pairs = [(f"t{rng.randrange(4)}", f"s{rng.randrange(6)}") for _ in range(rng.randrange(1, 12))]
        keys = UniqueKeys()
        for topic, system in pairs:
            keys.add(topic, system)
        items = [SummaryItem(t, s, "x", ("y",), f"line {k}") for k, (t, s) in enumerate(pairs)]
        duplicate = keys.first_duplicate()
        if duplicate is None:
            check_unique(items)
        else:
            with pytest.raises(InputError, match=f": line {duplicate[0]} and line {duplicate[1]}$"):
                check_unique(items)


def test_reading_a_long_file_holds_a_line_not_the_file(tmp_path):
    """24 MB of JSONL: checked and read through holding well under 8 MiB (the keys, 8 bytes a summary,
    and a line), where reading it whole holds the file several times over."""
    path = tmp_path / "long.jsonl"
    _write(path, _rows(8000, words=500))
    assert path.stat().st_size > 20e6
    tracemalloc.start()
    try:
        assert check_jsonl(path).n_items == 8000
        assert sum(1 for _ in iter_jsonl(path)) == 8000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20


# ---- scoring -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("window, chunk, jobs", [(1, 1, 1), (5, 2, 1), (64, 256, 1), (9, 4, 2)])
def test_iter_results_gives_score_items_values_whatever_the_window(window, chunk, jobs):
    """Windows and chunks that split topics (interleaved input), in one process and in a pool: every
    result equal to the whole-input run's, values to the last bit, in input order."""
    rows = _rows(60, seed=1)
    rows[7]["references"] = [""]  # an error record
    rows[8]["summary"] = ""  # scored as empty, with a note
    rows[20]["summary"] = "Кошка сидела на ковре"  # another script
    items = [SummaryItem(r["topic"], r["system"], r["summary"], tuple(r["references"]), f"in:{k + 1}")
             for k, r in enumerate(rows)]
    items[9] = replace(items[9], summary=UnreadableText("byte 0xe9"))  # an error record
    metrics = build_metrics(["rouge-2", "tesla-s", "rouge-l"])
    whole = score_items(items, metrics)
    assert list(iter_results(iter(items), metrics, jobs=jobs, chunk_size=chunk, window=window)) == whole
    assert not whole[7].ok and whole[8].ok and not whole[9].ok and whole[10].ok


class TopicSize(ReferenceMetric):
    """How many summaries of its topic the batch holds: a value of topic scope, as CREMER's."""

    name = "topic-size"
    scope = "topic"

    def _score_items(self, items):
        refs = [item.references for item in items]
        return [Score(float(refs.count(r))) for r in refs]


def test_a_metric_of_topic_scope_sees_every_summary_of_a_topic_whatever_the_window():
    """Windows split topics of an interleaved input; a topic-scope metric's items are gathered."""
    rows = _rows(60, seed=2)
    items = [SummaryItem(r["topic"], r["system"], r["summary"], (r["topic"],), f"in:{k + 1}")
             for k, r in enumerate(rows)]
    metrics = [TopicSize(), *build_metrics(["rouge-2"])]
    whole = score_items(items, metrics)
    streamed = list(iter_results(iter(items), metrics, chunk_size=4, window=5))
    assert streamed == whole
    assert {r.scores["topic-size"] for r in streamed} == {60 / 7 // 1, 60 / 7 // 1 + 1}


def test_rows_are_written_before_the_input_is_scored_whole(tmp_path, monkeypatch, capsys):
    """The first JSONL row is on stdout while later windows are still to be scored."""
    path = tmp_path / "in.jsonl"
    _write(path, _rows(3 * WINDOW_ITEMS, words=4))
    scored: list[int] = []
    score_chunk = evalcore.metric.batch.score_chunk

    def counted(metrics, items, limits=None):
        scored.append(len(items))
        return score_chunk(metrics, items, limits)

    monkeypatch.setattr(evalcore.metric.batch, "score_chunk", counted)
    written_after: list[int] = []

    class Out:
        def write(self, text: str) -> None:
            written_after.append(sum(scored))

        def flush(self) -> None:
            pass

    monkeypatch.setattr("sys.stdout", Out())
    assert main(["score", "--input", str(path), "-m", "rouge-1", "--format", "jsonl"]) == 0
    assert sum(scored) == 3 * WINDOW_ITEMS
    assert written_after[0] <= WINDOW_ITEMS and len(written_after) == 3 * WINDOW_ITEMS


def test_jsonl_and_tsv_stream_the_same_bytes_as_the_whole_run(tmp_path, capsys):
    rows = _rows(70, seed=2)
    rows[5]["references"] = [""]
    path = tmp_path / "in.jsonl"
    _write(path, rows)
    from summeval.report import to_jsonl, to_tsv

    metrics = build_metrics(["rouge-2", "tesla-s"])
    whole = score_items(read_jsonl(path), metrics)
    for fmt, expected in (("jsonl", to_jsonl(whole)), ("tsv", to_tsv([m.name for m in metrics], whole))):
        code = main(["score", "--input", str(path), "-m", "rouge-2", "-m", "tesla-s", "--format", fmt])
        out, err = capsys.readouterr()
        assert (code, out) == (1, expected)
        assert "1 of 70 summaries could not be scored" in err


# ---- caches --------------------------------------------------------------------------------------------

def test_the_text_caches_are_bounded_by_what_they_hold_and_never_change_a_value():
    rng = random.Random(5)
    texts = [" ".join(rng.choices(WORDS, k=400)) + f" {k}" for k in range(1200)]  # 480,000 tokens
    metric = build_metrics(["rouge-2"])[0]
    items = [Item(t, (texts[(k + 1) % len(texts)],)) for k, t in enumerate(texts)]
    first = metric.score_batch(items)
    assert rouge._TOKENS.currsize <= rouge.TOKEN_CACHE
    assert inputs._accepted.currsize <= inputs._ACCEPTED_CHARS
    rouge._TOKENS.clear()
    inputs._accepted.clear()
    assert metric.score_batch(items) == first
    long = "word " * (inputs._ACCEPTED_CHARS // 4)  # longer than the whole cache: checked, not kept
    assert inputs.check_text(long, "candidate", inputs.InputLimits(10 * len(long))).text == long
    assert rouge.tokens(long, False)[:2] == ("word", "word")
