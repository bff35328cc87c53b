"""`mteval score` streams: every line's JSONL/TSV row is written as its chunk is scored, each
system's lines in order, and only compact columns are kept for the corpus scores and paired tests."""

from __future__ import annotations

import json

import pytest

import mteval.scoring
from evalcore.io.textfiles import InputError
from evalcore.metric import Item
from evalcore.metric.registry import get_metric
from mteval.cli import main
from mteval.io import LineFile, check_aligned, iter_segments
from mteval.scoring import score_systems, significance

WORDS = "the a cat sat on mat dog ran far away house tree".split()


@pytest.fixture
def test_set(tmp_path):
    """600 lines, two systems; line 4's reference recurs at lines 401 and 551, so they share a chunk
    scored before lines 5-400; line 11's reference is empty (an error record)."""
    refs = [" ".join(WORDS[(k * 7 + j) % len(WORDS)] for j in range(3 + k % 9)) for k in range(600)]
    refs[400] = refs[550] = refs[3]
    refs[10] = ""
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", "utf-8")
    for s in range(2):
        hyps = [" ".join(reversed(r.split())) if (k + s) % 3 else r for k, r in enumerate(refs)]
        hyps[20 + s] = ""
        (tmp_path / f"hyp{s}.txt").write_text("\n".join(hyps) + "\n", "utf-8")
    return tmp_path


def _score(folder, metrics, **kwargs):
    refs = [LineFile(folder / "ref.txt")]
    hyps = [LineFile(folder / f"hyp{s}.txt", output=True) for s in range(2)]
    systems = [(f"hyp{s}.txt", str(folder / f"hyp{s}.txt")) for s in range(2)]
    return score_systems(systems, iter_segments(hyps, refs), len(refs[0]), metrics, progress=False, **kwargs)


def test_lines_are_handed_on_in_order_and_not_kept(test_set):
    metrics = [get_metric("bleu"), get_metric("chrf"), get_metric("ter"), get_metric("beer2")]
    seen: list[tuple[int, int]] = []
    streamed = _score(test_set, metrics, keep=None, on_line=lambda s, k, row: seen.append((s, k)))
    kept = _score(test_set, metrics, paired=True)
    assert [k for s, k in seen if s == 0] == list(range(600)) and [k for s, k in seen if s == 1] == list(range(600))
    assert all(r.segments is None and not r.failures for r in streamed)
    assert all(len(r.segments or ()) == 600 and len(r.failures) == 1 for r in kept)
    assert set(streamed[0].columns) == {"beer2"}  # BLEU, chrF and TER keep their summed statistics alone
    for a, b in zip(streamed, kept):
        assert a.corpus == b.corpus  # the same floats
        assert (a.failed, a.empty_lines(), a.scored("bleu")) == (b.failed, b.empty_lines(), b.scored("bleu"))
        assert a.failed == 1 and a.empty_lines() == [21 + streamed.index(a)]
    assert significance(metrics, kept, "bootstrap", 100, 1, incomplete=True)["bleu"]["segments"] == 599
    with pytest.raises(ValueError, match="paired=True"):
        significance(metrics, streamed, "bootstrap", 100, 1, incomplete=True)


def test_files_are_read_in_step_a_line_at_a_time(tmp_path):
    """Reading the first lines of three 4 MB files allocates kilobytes, not the files."""
    import tracemalloc

    line = "a line of a test set, long enough to count: " * 2
    for name in ("ref.txt", "hyp0.txt", "hyp1.txt"):
        (tmp_path / name).write_text((line + "\n") * 45_000, "utf-8")
    refs = [LineFile(tmp_path / "ref.txt")]
    hyps = [LineFile(tmp_path / f"hyp{s}.txt", output=True) for s in range(2)]
    assert [len(f) for f in (*refs, *hyps)] == [45_000] * 3
    lines = iter_segments(hyps, refs)
    tracemalloc.start()
    try:
        first = [next(lines) for _ in range(100)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # the three files hold 12 MB
    assert [seg.item and seg.item.candidate for seg in first[99]] == [line] * 2 and first[99][0].line == 100
    assert sum(1 for _ in lines) == 45_000 - 100


def test_a_file_that_changes_while_it_is_read_is_an_error_not_a_drop(tmp_path):
    for name in ("ref.txt", "hyp.txt"):
        (tmp_path / name).write_text("a b\n" * 10, "utf-8")
    refs, hyps = [LineFile(tmp_path / "ref.txt")], [LineFile(tmp_path / "hyp.txt", output=True)]
    assert check_aligned([*refs, *hyps]) == 10
    (tmp_path / "hyp.txt").write_text("a b\n" * 12, "utf-8")
    with pytest.raises(InputError, match="hyp.txt: the file changed while it was read"):
        list(iter_segments(hyps, refs))


@pytest.mark.parametrize("fmt", ["jsonl", "tsv"])
def test_rows_are_written_while_later_chunks_are_still_to_score(test_set, capsys, monkeypatch, fmt):
    argv = ["score", "-i", str(test_set / "hyp0.txt"), str(test_set / "hyp1.txt"), "-r", str(test_set / "ref.txt"),
            "-m", "bleu", "--segments", "--format", fmt]
    assert main(argv) == 1
    whole = capsys.readouterr().out
    iter_batches = mteval.scoring.iter_batches
    before_last: list[str] = []

    def watched(*args, **kwargs):
        chunks = list(iter_batches(*args, **kwargs))
        for n, chunk in enumerate(chunks):
            if n == len(chunks) - 1:
                before_last.append(capsys.readouterr().out)
            yield chunk

    monkeypatch.setattr(mteval.scoring, "iter_batches", watched)
    assert main(argv) == 1
    written = before_last[0]
    assert written and whole.startswith(written)
    assert written + capsys.readouterr().out == whole  # the same bytes as the run not watched
    first = written.splitlines()[1 if fmt == "tsv" else 0]
    assert (json.loads(first)["line"] if fmt == "jsonl" else int(first.split("\t")[1])) == 1


@pytest.mark.parametrize("name", ["bleu", "ter"])
def test_sacrebleu_tokenizer_caches_stay_bounded(name):
    from mteval.baselines.metric import TOKENIZER_CACHE

    metric = get_metric(name)
    items = [Item(f"word{k} and more", (f"word{k} and less",), id=str(k)) for k in range(TOKENIZER_CACHE)]
    scores = metric.score_batch(items)  # 2 x TOKENIZER_CACHE texts tokenized
    tokenizer = metric.corpus_metric.tokenizer
    for obj in (tokenizer, getattr(tokenizer, "_post_tokenizer", None)):
        cached = vars(type(obj)).get("__call__")
        assert cached is None or cached.cache_info().currsize <= TOKENIZER_CACHE
    assert scores == metric.score_batch(items)  # emptied caches give the same values
