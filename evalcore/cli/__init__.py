"""The command lines: one convention (:mod:`evalcore.cli.convention`), the first import that keeps
Ctrl-C quiet (:mod:`evalcore.cli.console`), and the ``aesop-eval`` command (:mod:`evalcore.cli.aesop`).

This package stays import-free: ``console`` must load before anything heavy."""

from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``evalcore.cli`` (now :mod:`evalcore.cli.convention`), deprecated."""
    from evalcore._moved import moved_name

    return moved_name("evalcore.cli", "evalcore.cli.convention", name)
