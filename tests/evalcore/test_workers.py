import argparse
import os

import pytest

from evalcore.run.workers import jobs_arg


def test_jobs_zero_means_every_core_and_counts_pass_through():
    assert jobs_arg("3") == 3
    assert jobs_arg("0") == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("bad", ["-1", "two", "1.5"])
def test_bad_jobs_values_are_argparse_errors(bad):
    with pytest.raises(argparse.ArgumentTypeError, match="--jobs"):
        jobs_arg(bad)


def test_every_cli_rejects_negative_jobs(capsys):
    from coherence.cli import build_parser as coherence_parser
    from summeval.cli import build_parser as summeval_parser

    for parser, argv in ((summeval_parser(), ["score", "--input", "x.jsonl", "--jobs", "-2"]),
                         (coherence_parser(), ["parse", "a.txt", "--jobs", "-2"])):
        with pytest.raises(SystemExit):
            parser.parse_args(argv)
        assert "--jobs must be 0 (all cores)" in capsys.readouterr().err


def test_stop_workers_drops_queued_work_and_ends_the_workers_now():
    """On the old main Ctrl-C in the parent waited for every submitted chunk to finish."""
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    from evalcore.run.workers import stop_workers

    before = set(multiprocessing.active_children())
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(time.sleep, 5) for _ in range(6)]
        time.sleep(0.5)
        stop_workers(pool)
    assert time.monotonic() - start < 4
    assert all(f.cancelled() or f.exception() is not None for f in futures)
    while set(multiprocessing.active_children()) - before and time.monotonic() - start < 4:
        time.sleep(0.05)
    assert not set(multiprocessing.active_children()) - before
