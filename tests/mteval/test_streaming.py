"""`mteval score` streams: every line's JSONL/TSV row is written as its chunk is scored, each
system's lines in order, and only compact columns are kept for the corpus scores and paired tests."""

from __future__ import annotations

import json

import pytest

import mteval.scoring
from evalcore.metric.registry import get_metric
from mteval.cli import main
from mteval.io import read_segments, segments_of
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


def _systems(folder):
    refs = [read_segments(folder / "ref.txt")]
    return {(f"hyp{s}.txt", str(folder / f"hyp{s}.txt")): segments_of(read_segments(folder / f"hyp{s}.txt", True), refs)
            for s in range(2)}


def test_lines_are_handed_on_in_order_and_not_kept(test_set):
    metrics = [get_metric("bleu"), get_metric("chrf"), get_metric("beer2")]
    seen: list[tuple[int, int]] = []
    streamed = score_systems(_systems(test_set), metrics, progress=False, keep_segments=False,
                             on_line=lambda s, k, row: seen.append((s, k)))
    kept = score_systems(_systems(test_set), metrics, progress=False)
    assert [k for s, k in seen if s == 0] == list(range(600)) and [k for s, k in seen if s == 1] == list(range(600))
    assert all(r.segments is None for r in streamed) and all(len(r.segments or ()) == 600 for r in kept)
    for a, b in zip(streamed, kept):
        assert a.corpus == b.corpus  # the same floats
        assert (a.failed, a.empty_lines(), a.scored("bleu")) == (b.failed, b.empty_lines(), b.scored("bleu"))
        assert a.failed == 1 and a.empty_lines() == [21 + streamed.index(a)]
    assert (significance(metrics, streamed, "bootstrap", 100, 1) == significance(metrics, kept, "bootstrap", 100, 1))


@pytest.mark.parametrize("fmt", ["jsonl", "tsv"])
def test_rows_are_written_while_later_chunks_are_still_to_score(test_set, capsys, monkeypatch, fmt):
    argv = ["score", "-i", str(test_set / "hyp0.txt"), str(test_set / "hyp1.txt"), "-r", str(test_set / "ref.txt"),
            "-m", "bleu", "--segments", "--format", fmt]
    assert main(argv) == 1
    whole = capsys.readouterr().out
    iter_scored = mteval.scoring.iter_scored
    before_last: list[str] = []

    def watched(*args, **kwargs):
        chunks = list(iter_scored(*args, **kwargs))
        for n, chunk in enumerate(chunks):
            if n == len(chunks) - 1:
                before_last.append(capsys.readouterr().out)
            yield chunk

    monkeypatch.setattr(mteval.scoring, "iter_scored", watched)
    assert main(argv) == 1
    written = before_last[0]
    assert written and whole.startswith(written)
    assert written + capsys.readouterr().out == whole  # the same bytes as the run not watched
    first = written.splitlines()[1 if fmt == "tsv" else 0]
    assert (json.loads(first)["line"] if fmt == "jsonl" else int(first.split("\t")[1])) == 1
