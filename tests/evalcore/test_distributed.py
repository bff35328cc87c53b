"""Scoring over a Dask scheduler gives what one process gives: the same values, order and error
records; a lost task or a worker with another signature costs its chunk's items, named; each
worker keeps its metrics for later chunks; a missing ``dask`` extra is one line and exit 2."""

from __future__ import annotations

import argparse

import pytest

from evalcore import extras
from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.batch import score_chunk, score_with
from evalcore.metric.cluster import run_chunk
from evalcore.run.distributed import add_scheduler_arg
from tests.dask_cluster import local_scheduler

scheduler = pytest.fixture(scope="module")(local_scheduler)
LOADS: list[str] = []


class Overlap(ReferenceMetric):
    """Share of candidate words found in the first reference."""

    name = "overlap"

    def _score_items(self, items):
        return [Score(sum(w in it.references[0].split() for w in it.candidate.split()) / len(it.candidate.split()))
                for it in items]


class BatchCentred(ReferenceMetric):
    """Candidate length minus the batch's mean length: a value that depends on the chunk."""

    name = "batch-centred"
    scope = "topic"

    def __init__(self, shift: float = 0.0):
        self.shift = shift

    def _score_items(self, items):
        lengths = [len(it.candidate) for it in items]
        mean = sum(lengths) / len(lengths)
        return [Score(n - mean + self.shift, {"length": n}) for n in lengths]


class Loading(ReferenceMetric):
    """Loads a 'model' on first use and keeps it on the instance, counting loads."""

    name = "loading"

    def _score_items(self, items):
        if "_model" not in self.__dict__:
            LOADS.append(repr(self))
            self.__dict__["_model"] = 2.0
        return [Score(self.__dict__["_model"] * len(it.candidate)) for it in items]


class Unshippable(Overlap):
    """A metric that cannot be rebuilt on a worker (as when its module is missing there)."""

    name = "unshippable"

    def __setstate__(self, state):
        raise ImportError("no module named 'private_metrics' on this worker")


def _items(n: int = 23) -> list[Item]:
    """Items in groups of three sharing a reference; past 12, an empty reference and a bytes
    candidate among them (error records)."""
    out = []
    for k in range(n):
        ref = f"the cat sat on mat number {k // 3}"
        cand = " ".join(["the", "cat", "dog", "sat", "mat"][: 1 + k % 5]) + f" {k}"
        out.append(Item(cand, (ref,), id=f"line {k + 1}"))
    if n > 12:
        out[7] = Item("a cat", ("",), id="line 8")
        out[12] = Item(b"bytes", ("a",), id="line 13")  # type: ignore[arg-type]  # malformed on purpose
    return out


def test_values_order_and_error_records_equal_one_process(scheduler):
    items, metrics = _items(), [Overlap(), BatchCentred(0.5)]
    for key in (None, lambda it: it.references):
        local = score_with(metrics, items, chunk_size=4, key=key)
        assert score_with(metrics, items, chunk_size=4, key=key, scheduler=scheduler) == local
    assert not local[7]["overlap"].ok and local[7]["overlap"].item == "line 8"
    assert not local[12]["batch-centred"].ok and local[12]["batch-centred"].item == "line 13"


def test_each_worker_keeps_its_metrics_for_later_chunks_and_runs(scheduler):
    items = _items(40)
    LOADS.clear()
    local = score_with([Loading()], items, chunk_size=5)
    assert len(LOADS) == 1
    LOADS.clear()
    for _ in range(2):
        assert score_with([Loading()], items, chunk_size=5, scheduler=scheduler) == local
    assert len(LOADS) == 1  # both in-process workers share this process's copy


def test_a_task_that_fails_on_the_worker_costs_its_items_named(scheduler):
    items = _items(6)
    results = score_with([Unshippable()], items, chunk_size=4, scheduler=scheduler)
    assert [r["unshippable"].item for r in results] == [it.id for it in items]
    assert all(not r["unshippable"].ok and "Dask task failed" in r["unshippable"].message
               and "private_metrics" in r["unshippable"].message for r in results)


def test_a_worker_with_another_signature_scores_nothing():
    items, metric = _items(3), BatchCentred(1.0)
    theirs = str(metric.signature()).replace("v:", "v:9")
    results = run_chunk(score_chunk, [metric], [theirs], items, None)
    assert [r["batch-centred"].item for r in results] == ["line 1", "line 2", "line 3"]
    assert all(not r["batch-centred"].ok and "signature differs" in r["batch-centred"].message
               and theirs in r["batch-centred"].message for r in results)
    assert run_chunk(score_chunk, [metric], [str(metric.signature())], items, None) == score_chunk([metric], items)


def test_python_api_without_a_client_uses_dasks_default_scheduler():
    pytest.importorskip("dask")
    from evalcore.run.distributed import CONTEXT

    items, metrics = _items(), [Overlap(), BatchCentred()]
    assert score_with(metrics, items, chunk_size=4, scheduler=CONTEXT) == score_with(metrics, items, chunk_size=4)


def _without_dask(monkeypatch) -> None:
    real = extras.importlib.util.find_spec
    monkeypatch.setattr(extras.importlib.util, "find_spec",
                        lambda name, *a: None if name in ("dask", "distributed") else real(name, *a))


def test_missing_dask_extra_is_one_line_and_exit_2(monkeypatch, capsys):
    _without_dask(monkeypatch)
    parser = argparse.ArgumentParser(prog="tool score")
    add_scheduler_arg(parser)
    assert parser.parse_args([]).scheduler is None
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["--scheduler", "local"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1
    assert err == ("tool score: error: --scheduler needs the optional dependencies of 'dask' "
                   "(missing: dask, distributed): pip install 'aesop-eval[dask]'\n")


def test_an_unreachable_scheduler_is_a_resource_error():
    dask = pytest.importorskip("dask")
    from evalcore.run.distributed import SchedulerError

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(SchedulerError, match="cannot reach the Dask scheduler"):
        score_with([Overlap()], _items(2), scheduler="tcp://127.0.0.1:9")
    with pytest.raises(SchedulerError, match="no such scheduler file"):
        score_with([Overlap()], _items(2), scheduler="/nonexistent/scheduler.json")


@pytest.mark.parametrize("command", ["summeval", "mteval", "parapeval", "coherence"])
def test_every_score_command_takes_the_option(command, monkeypatch, capsys):
    import importlib

    main = importlib.import_module(f"{command}.cli").main
    _without_dask(monkeypatch)
    with pytest.raises(SystemExit) as exit_:
        main(["score", "--scheduler", "tcp://cluster:8786", "-i", "in.txt"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err == (f"{command} score: error: --scheduler needs the optional dependencies "
                                             "of 'dask' (missing: dask, distributed): pip install 'aesop-eval[dask]'\n")


def test_a_malformed_scheduler_address_is_one_line_and_exit_2_at_once(tmp_path):
    """``--scheduler bogus`` printed its line, then hung 60 s in a half-made client's clean-up and
    printed a traceback. A scheduler file holding a bad address, or no JSON, is refused alike."""
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("distributed")
    demo = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"
    bad_file = tmp_path / "scheduler.json"
    bad_file.write_text('{"address": "bogus"}')
    for value, why in (("bogus", "missing port number in address 'bogus'"), (str(bad_file), "missing port number"),
                       ("foo://x:1", "unknown address scheme 'foo'")):
        done = subprocess.run([sys.executable, "-m", "mteval", "score", "-r", str(demo / "ref.A.en"), "-i",
                               str(demo / "system-a.en"), "-m", "bleu", "--scheduler", value],
                              capture_output=True, text=True, timeout=45)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"mteval score: error: --scheduler {value}: cannot reach the Dask scheduler (")
        assert why in done.stderr and done.stderr.count("\n") == 1


def test_a_scheduler_that_dies_mid_run_is_one_line_without_dask_tracebacks(tmp_path, capfd):
    from evalcore.run.distributed import SchedulerError
    from tests.dask_cluster import scheduler_process, slow_chunk

    items = _items(40)
    done: list[int] = []
    with scheduler_process(tmp_path) as (address, process):
        with pytest.raises(SchedulerError) as lost:
            from evalcore.metric.cluster import iter_chunks

            batches = ((k, items[k:k + 4]) for k in range(0, 40, 4))
            for index, _ in iter_chunks(slow_chunk, [Overlap()], batches, None, address, 1, 2):
                done.append(index)
                process.kill()  # the scheduler dies after the first chunk
    assert str(lost.value).startswith(f"--scheduler {address}: lost the connection to the Dask scheduler "
                                      "after 1 chunk;")
    assert done == [0]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "distributed" not in err
