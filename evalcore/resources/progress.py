"""Progress of resource builds, and of a process waiting for one: a tqdm bar per build step on a
terminal, plain ``[aesop-eval setup]`` lines on a pipe (stderr in both cases, so machine output on
stdout stays pure).

The process holding the build lock writes its progress to a small status file beside the lock
(:data:`STATUS_NAME`, JSON, replaced atomically on every change); a process waiting for the lock
says at once what it waits for and then follows the holder's progress from that file.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import IO, Any

PREFIX = "[aesop-eval setup]"
STATUS_NAME = ".build.status"
#: seconds between two looks at the lock and the holder's status file while waiting
POLL = 0.25


def _terminal(stream: IO[str]) -> bool:
    return hasattr(stream, "isatty") and stream.isatty()


def _bar(total: int, desc: str, stream: IO[str]):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="part", file=stream, leave=True, dynamic_ncols=True)


class BuildProgress:
    """The progress of one build: its steps in order, one bar (terminal) or plain lines (pipe) per
    step, mirrored to the status file ``status`` for waiting processes."""

    def __init__(self, steps: list[str], status: Path | None, stream: IO[str] | None = None):
        self.steps = steps
        self.status = status
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = _terminal(self.stream)
        self.step = ""
        self.index = 0
        self.n = 0
        self.total = 1
        self.message = ""
        self._bar: Any = None

    def start(self, step: str, total: int = 1) -> None:
        """Begin ``step`` of ``total`` parts (a phrase table per pivot, or one part)."""
        self.close()
        self.step, self.index, self.n, self.total, self.message = step, self.steps.index(step) + 1, 0, total, ""
        if self.terminal:
            self._bar = _bar(total, f"{step} ({self.index}/{len(self.steps)})", self.stream)
        self._save()

    def log(self, message: str) -> None:
        """One line of what the step is doing (above the bar on a terminal)."""
        self.message = message
        line = f"{PREFIX} {message}"
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)
        self._save()

    def advance(self, parts: int = 1) -> None:
        """``parts`` more parts of the current step are done."""
        self.n = min(self.total, self.n + parts)
        if self._bar is not None:
            self._bar.update(parts)
        self._save()

    def close(self) -> None:
        """End the current step's bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _save(self) -> None:
        if self.status is None:
            return
        state = {"pid": os.getpid(), "steps": self.steps, "step": self.step, "index": self.index, "n": self.n,
                 "total": self.total, "message": self.message, "updated": time.time()}
        tmp = self.status.with_name(f"{self.status.name}.tmp-{os.getpid()}")
        try:
            tmp.write_text(json.dumps(state), "utf-8")
            os.replace(tmp, self.status)
        except OSError:  # progress for others is a courtesy: a cache that refuses it does not stop the build
            tmp.unlink(missing_ok=True)


def read_status(path: Path) -> dict | None:
    """The holder's last progress, or None when there is none (yet) or it cannot be read."""
    try:
        state = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def describe(state: dict | None) -> str:
    """One line about the holder's progress: ``step (i/k), n/total parts: last message``."""
    if not state or not state.get("step"):
        return "starting"
    text = (f"{state['step']} (step {state.get('index')}/{len(state.get('steps', []))}, "
            f"{state.get('n')}/{state.get('total')} parts)")
    return f"{text}: {state['message']}" if state.get("message") else text


class WaitReport:
    """What a process waiting for the build lock shows: one line at once naming the lock and the
    holder, then the holder's progress (a bar of its current step on a terminal, a line per change
    on a pipe)."""

    def __init__(self, lock: Path, status: Path, stream: IO[str] | None = None):
        self.lock, self.status = lock, status
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = _terminal(self.stream)
        self._seen: tuple | None = None
        self._bar: Any = None
        state = read_status(status)
        holder = f"process {state['pid']}" if state and "pid" in state else "another process"
        self._say(f"waiting for {holder}, which holds the build lock {lock} and is building: {describe(state)}")
        self._seen = self._key(state)

    @staticmethod
    def _key(state: dict | None) -> tuple | None:
        return None if state is None else (state.get("step"), state.get("n"), state.get("message"))

    def _say(self, text: str) -> None:
        line = f"{PREFIX} {text}"
        if self._bar is not None:
            self._bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def poll(self) -> None:
        """Show the holder's progress if it changed since the last look."""
        state = read_status(self.status)
        key = self._key(state)
        if state is None or key == self._seen:
            return
        self._seen = key
        if self.terminal:
            desc = f"{state.get('step')} (held by {state.get('pid')})"
            if self._bar is None or self._bar.desc != desc:
                self.close()
                self._bar = _bar(int(state.get("total") or 1), desc, self.stream)
            self._bar.n = int(state.get("n") or 0)
            self._bar.set_postfix_str(str(state.get("message", ""))[-60:], refresh=True)
        else:
            self._say(f"the other build: {describe(state)}")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
