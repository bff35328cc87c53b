"""Every command's main wears one guard (evalcore.cli.convention.guarded): Ctrl-C is one line and exit 130, a
full disk one line and exit 2, never a traceback."""

import errno
import importlib
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo" / "mt"
CLIS = {"summeval.cli": "summeval", "coherence.cli": "coherence", "mteval.cli": "mteval", "parapeval.cli": "parapeval"}


class _Raising:
    def __init__(self, exc):
        self.exc = exc

    def parse_args(self, argv=None):
        raise self.exc


@pytest.mark.parametrize("module", CLIS)
def test_ctrl_c_is_one_line_and_exit_130(module, monkeypatch, capsys):
    """On the old main Ctrl-C printed a traceback in every CLI."""
    cli = importlib.import_module(module)
    monkeypatch.setattr(cli, "build_parser", lambda: _Raising(KeyboardInterrupt()))
    assert cli.main([]) == 130
    assert capsys.readouterr().err == f"{CLIS[module]}: interrupted\n"


@pytest.mark.parametrize("module", CLIS)
def test_a_full_disk_is_one_line_and_exit_2(module, monkeypatch, capsys):
    cli = importlib.import_module(module)
    monkeypatch.setattr(cli, "build_parser", lambda: _Raising(OSError(errno.ENOSPC, "No space left on device")))
    assert cli.main([]) == 2
    assert capsys.readouterr().err == f"{CLIS[module]}: error: cannot write output: No space left on device\n"


def test_other_os_errors_are_not_taken_for_a_full_disk(monkeypatch):
    cli = importlib.import_module("mteval.cli")
    monkeypatch.setattr(cli, "build_parser", lambda: _Raising(PermissionError(errno.EACCES, "denied")))
    with pytest.raises(PermissionError):
        cli.main([])


def _run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "mteval.cli", "score", "-r", str(DEMO / "ref.A.en"),
                           "-i", str(DEMO / "system-a.en"), "-m", "bleu", *args],
                          cwd=ROOT, capture_output="stdout" not in kwargs, text=True, **kwargs)


def test_output_to_dev_full_is_a_clear_error_exit_2():
    """On the old main `-o /dev/full` gave a traceback and exit 1 (the code of failed items)."""
    proc = _run("-o", "/dev/full")
    assert proc.returncode == 2 and proc.stderr == "mteval: error: cannot write /dev/full: No space left on device\n"
    with open("/dev/full", "w") as full:
        proc = _run(stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 2
    assert proc.stderr == "mteval: error: cannot write standard output: No space left on device\n"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _sleep_ticks(pid: int) -> int | None:
    """The process's CPU ticks while it sleeps (state S: blocked, e.g. reading a pipe); None while
    it runs or waits for a core (state R), so a starved start-up on a loaded machine is not idle."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12]) if fields[0] == "S" else None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the command wait for input")
def test_a_real_ctrl_c_while_reading_input_is_one_line():
    # a shell starts background jobs with SIGINT ignored, and Python keeps an ignored SIGINT ignored:
    # the command gets the disposition a terminal's foreground job has
    proc = subprocess.Popen([sys.executable, "-m", "mteval.cli", "score", "-r", str(DEMO / "ref.A.en"), "-i", "-"],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_default_sigint)
    try:
        deadline, idle = time.monotonic() + 60, 0
        last: int | None = -1
        while time.monotonic() < deadline and idle < 5:  # idle for 0.5 s: blocked reading standard input
            time.sleep(0.1)
            ticks = _sleep_ticks(proc.pid)
            idle, last = (idle + 1 if ticks is not None and ticks == last else 0), ticks
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, "", "mteval: interrupted\n")


COMMANDS = {"summeval": "summeval.cli", "coherence": "coherence.cli", "parapeval": "parapeval.cli",
            "mteval": "mteval.cli", "aesop-eval": "evalcore.cli.aesop"}
# runs a console script's code, sending SIGINT to itself as the command's module starts importing:
# a Ctrl-C in the first tenths of a second, without a race
_INTERRUPTED_IMPORT = """
import builtins, os, signal, sys
real_import = builtins.__import__
def importing(name, *args, **kwargs):
    if name == sys.argv[2]:
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)
builtins.__import__ = importing
from importlib import import_module
sys.exit(import_module(sys.argv[1]).main())
"""


@pytest.mark.parametrize("prog", COMMANDS)
def test_a_ctrl_c_during_the_imports_is_one_line(prog):
    entry = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"][prog]
    proc = subprocess.run([sys.executable, "-c", _INTERRUPTED_IMPORT, entry.removesuffix(":main"), COMMANDS[prog]],
                          cwd=ROOT, capture_output=True, text=True, preexec_fn=_default_sigint, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", f"{prog}: interrupted\n")


@pytest.mark.parametrize("prog", COMMANDS)
def test_python_m_runs_the_command(prog):
    package = COMMANDS[prog].split(".")[0]
    proc = subprocess.run([sys.executable, "-m", package, "--version"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith(prog), proc.stderr


def test_a_full_disk_keeps_the_old_output_file_whole(tmp_path):
    """``-o FILE`` is written to a temporary file in FILE's folder and renamed: a write that fails
    half-way (ENOSPC) leaves the old content, its permissions and no temporary file behind."""
    from evalcore.cli.convention import OutputError, stream_output, write_output

    out = tmp_path / "scores.json"
    out.write_text("old content\n", "utf-8")
    out.chmod(0o640)

    def half_then_full(handle) -> None:
        handle.write("new content that")
        handle.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OutputError, match=f"cannot write {out}: No space left on device"):
        stream_output(out, half_then_full)
    assert out.read_text("utf-8") == "old content\n" and [p.name for p in tmp_path.iterdir()] == ["scores.json"]
    write_output("new\n", out)
    assert out.read_text("utf-8") == "new\n" and out.stat().st_mode & 0o777 == 0o640
