"""`mteval score --scheduler` on a Dask cluster prints what one process prints: segment values,
corpus scores (BLEU, chrF and TER from statistics summed over every chunk's segments), paired
tests, error records and signatures."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.metric.batch import CHUNK_ITEMS
from mteval.cli import main
from tests.dask_cluster import local_scheduler

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"
LINES = 150  # two systems: 300 segments, more than one chunk
scheduler = pytest.fixture(scope="module")(local_scheduler)


@pytest.fixture(scope="module")
def test_set(tmp_path_factory) -> list[str]:
    """The demo test set stretched to LINES lines (each line numbered, so references differ),
    with one undecodable output line (an error record)."""
    root = tmp_path_factory.mktemp("mt")
    for name in ("ref.A.en", "ref.B.en", "system-a.en", "system-b.en"):
        lines = (DEMO / name).read_text("utf-8").splitlines()
        text = "".join(f"{lines[k % len(lines)]} (item {k // len(lines)})\n" for k in range(LINES)).encode()
        if name == "system-b.en":
            text = text.replace(b"(item 3)", b"(item \xff)", 1)
        (root / name).write_bytes(text)
    assert 2 * LINES > CHUNK_ITEMS
    return ["-r", str(root / "ref.A.en"), "-r", str(root / "ref.B.en"),
            "-i", str(root / "system-a.en"), str(root / "system-b.en")]


def _run(capsys, argv):
    code = main(argv)
    return code, capsys.readouterr().out


def test_segment_and_corpus_scores_equal_one_process(scheduler, test_set, capsys):
    argv = ["score", *test_set, "-m", "bleu", "-m", "chrf", "-m", "ter", "-m", "tesla-m", "-m", "meteor",
            "--segments", "--paired-bs", "--paired-n", "100", "--format", "json"]
    code, local = _run(capsys, argv)
    assert code == 1 and '"error"' in local  # the undecodable line
    assert _run(capsys, [*argv, "--scheduler", scheduler]) == (code, local)


@pytest.mark.parametrize("fmt", ["jsonl", "tsv"])
def test_machine_formats_equal_one_process(scheduler, test_set, capsys, fmt):
    argv = ["score", *test_set, "-m", "chrf", "-m", "bleu", "--segments", "--format", fmt]
    assert _run(capsys, [*argv, "--scheduler", scheduler]) == _run(capsys, argv)


def test_local_starts_worker_processes_on_this_machine(test_set, capsys):
    pytest.importorskip("distributed")
    argv = ["score", *test_set, "-m", "chrf", "-m", "ter", "--segments", "--format", "json"]
    assert _run(capsys, [*argv, "--scheduler", "local", "--jobs", "2"]) == _run(capsys, argv)
