"""The benchmarks' one runner and harness: every benchmark listed and runnable by name, each run
recorded (machine, package versions, commit, arguments, timing policy), unknown names refused."""

import json

from benchmarks.__main__ import main
from benchmarks.catalog import BENCHMARKS
from benchmarks.harness import TIMING, machine, record, started, timed


def test_list_names_every_benchmark(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert all(f"\n{name} " in out for name in BENCHMARKS)


def test_an_unknown_benchmark_is_a_usage_error(capsys):
    assert main(["no-such-bench", "--out", "x"]) == 2
    assert "python -m benchmarks --list" in capsys.readouterr().err


def test_a_bad_option_value_is_one_line_and_exit_code_2(tmp_path, capsys):
    assert main(["aso", "--out", str(tmp_path), "--folds", "1"]) == 2
    err = capsys.readouterr().err
    assert "python -m benchmarks aso: error: --folds must be at least 2" in err and "Traceback" not in err
    assert not (tmp_path / "run-aso.json").exists()


def test_ctrl_c_is_one_line_and_exit_code_130(tmp_path, capsys, monkeypatch):
    from benchmarks.summeval import scale

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(scale, "run", interrupted)
    assert main(["scale", "--out", str(tmp_path)]) == 130
    assert capsys.readouterr().err == "python -m benchmarks: interrupted\n"


def test_each_benchmark_states_its_options(capsys):
    for name in BENCHMARKS:
        try:
            BENCHMARKS[name][1](["--help"])
        except SystemExit as exc:
            assert exc.code == 0, name
        assert "--out" in capsys.readouterr().out, name


def test_a_run_record_names_machine_commit_arguments_and_timing(tmp_path):
    md, js = record(tmp_path, "demo", ["--out", str(tmp_path), "--seed", "3"], 1.25, started())
    info = json.loads(js.read_text())
    assert info["command"][:4] == ["python", "-m", "benchmarks", "demo"] and info["command"][-1] == "3"
    assert info["timing"] == TIMING and info["wall_seconds"] == 1.25 and info["commit"]
    assert {"cpu", "cores", "memory_gib", "python", "packages"} <= set(info["machine"])
    assert info["machine"]["packages"]["numpy"] != "absent"
    assert "perf_counter" in md.read_text() and "Machine:" in md.read_text()


def test_timed_warms_up_then_repeats():
    calls = []
    result = timed(lambda: calls.append(1), warmup=2, repeats=3)
    seconds = result["seconds"]
    assert isinstance(seconds, list)
    assert len(calls) == 5 and len(seconds) == 3 and result["best"] == min(seconds)
    assert machine()["cores"] >= 1


def test_a_run_records_the_commit_it_started_on(tmp_path, monkeypatch):
    import benchmarks.__main__ as runner
    from benchmarks import harness

    commits = iter(["abc1234", "def5678"])  # a commit lands while the benchmark runs
    monkeypatch.setattr(harness, "source_commit", lambda: next(commits))
    monkeypatch.setitem(BENCHMARKS, "scale", ("a stand-in", lambda argv: harness.source_commit() and 0))
    assert runner.main(["scale", "--out", str(tmp_path)]) == 0
    info = json.loads((tmp_path / "run-scale.json").read_text())
    assert info["commit"] == "abc1234" and info["date"].endswith("Z")
