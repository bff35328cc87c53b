"""The peak-memory part of `python -m benchmarks scale`: the child's own peak, the table."""

from __future__ import annotations

import sys

import pytest

from benchmarks.summeval.memory import FACTORS, memory_markdown, peak_of


def test_peak_of_reads_the_childs_own_maximum_resident_set(tmp_path):
    small, code = peak_of([sys.executable, "-c", "pass"], tmp_path / "out")
    big, big_code = peak_of([sys.executable, "-c", "b = bytearray(300 * 2**20); b[::4096] = b'x' * len(b[::4096])"],
                            tmp_path / "out")
    assert (code, big_code) == (0, 0)
    assert big - small > 250  # 300 MiB touched, MiB measured; the small run's peak is not carried over


def test_peak_of_returns_the_exit_code_and_keeps_stdout(tmp_path):
    _, code = peak_of([sys.executable, "-c", "print('hi'); raise SystemExit(3)"], tmp_path / "out")
    assert code == 3 and (tmp_path / "out").read_text() == "hi\n"


def test_memory_table_shows_every_factor_and_the_growth():
    report = {"base_items": 2000, "rows": [{"command": "mteval score --format jsonl", "metrics": ["bleu"],
                                            "peak_mib": {"1": 100.0, "10": 110.0, "100": 121.0},
                                            "growth_10x_to_100x": 0.1}]}
    md = memory_markdown(report)
    assert FACTORS == (1, 10, 100)
    assert "1x (2,000 items)" in md and "100x (200,000 items)" in md
    assert "| 110 " in md and "+10.0%" in md


def test_only_words_choose_the_commands_holding_every_word():
    from benchmarks.summeval.memory import COMMANDS, chosen
    from evalcore.io.textfiles import InputError

    assert [c[0] for c in chosen(["summeval", "jsonl"])] == ["summeval score --format jsonl"]
    assert chosen() == list(COMMANDS)
    with pytest.raises(InputError, match="no command of the memory table holds every word"):
        chosen(["summeval", "--segments"])
