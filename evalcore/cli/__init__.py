"""The command lines: one convention (:mod:`evalcore.cli.convention`), the first import that keeps
Ctrl-C quiet (:mod:`evalcore.cli.console`), and the ``aesop-eval`` command (:mod:`evalcore.cli.aesop`).

This package stays import-free: ``console`` must load before anything heavy."""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``evalcore.cli`` (now :mod:`evalcore.cli.convention`), deprecated."""
    if name.startswith("__"):
        raise AttributeError(name)
    convention = importlib.import_module("evalcore.cli.convention")
    if not hasattr(convention, name):
        raise AttributeError(f"module 'evalcore.cli' has no attribute {name!r}")
    warnings.warn(f"evalcore.cli.{name} is deprecated; import it from evalcore.cli.convention",
                  DeprecationWarning, stacklevel=2)
    value = getattr(convention, name)
    globals()[name] = value
    return value
