"""The first thing every command does: a Ctrl-C during its imports (a few tenths of a second before
:func:`evalcore.cli.convention.guarded` takes over) is one line and exit 130, never a traceback."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def quiet_imports(prog: str) -> Iterator[None]:
    """While the block runs, Ctrl-C writes ``PROG: interrupted`` and ends the process with 130
    (nothing is written yet, so nothing is lost). An ignored SIGINT (a background job) stays
    ignored; the handler before the block is restored after it."""
    before = signal.getsignal(signal.SIGINT)
    if before is not signal.default_int_handler:
        yield
        return

    def interrupted(signum: int, frame: object) -> None:
        os.write(2, f"{prog}: interrupted\n".encode())
        os._exit(128 + signum)

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def run_command(prog: str, module: str) -> int:
    """The body of every ``__main__``: import ``module`` (its ``main``) with Ctrl-C quiet, then run it."""
    with quiet_imports(prog):
        command = __import__(module, fromlist=["main"]).main  # an import statement's hook sees it
    return command()
