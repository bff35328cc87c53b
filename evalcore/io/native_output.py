"""Keep native libraries off standard output: machine output (JSON, JSONL, TSV) owns stdout.

Some C/C++ libraries write to file descriptor 1 before any option can silence them: HiGHS
(highspy >= 1.12) prints its version and licence banner when a process constructs its first
solver, ahead of ``output_flag``. :func:`stdout_to_stderr` points descriptor 1 at descriptor 2
for the duration of such a call; :func:`once_per_process` runs a call under it the first time
only, so the redirect happens once, at the first solve, rather than around every call.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_done: set[str] = set()
_lock = threading.Lock()


def _flush_c_stdio() -> None:
    """Flush the C library's stdout buffer, so bytes written inside the redirect leave through it."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):  # no C runtime to flush (Windows' CDLL(None))
        pass


def _flush_python_stdout() -> None:
    if sys.stdout is not None:  # None when the process started with descriptor 1 closed
        sys.stdout.flush()


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Descriptor 1 points at descriptor 2 inside the block (Python's stdout buffer is flushed
    before, so what was printed earlier stays on stdout)."""
    _flush_python_stdout()
    try:
        saved = os.dup(1)
    except OSError:  # descriptor 1 is closed: nothing to protect
        yield
        return
    try:
        os.dup2(2, 1)
        try:
            yield
        finally:
            _flush_c_stdio()  # Python's own buffer is left alone: what it holds belongs on stdout
            os.dup2(saved, 1)
    finally:
        os.close(saved)


def once_per_process(key: str, call: Callable[[], object]) -> None:
    """Run ``call`` under :func:`stdout_to_stderr` the first time this process sees ``key``."""
    if key in _done:
        return
    with _lock:
        if key not in _done:
            with stdout_to_stderr():
                call()
            _done.add(key)
