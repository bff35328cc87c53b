"""Old import paths of modules that moved: each old module calls :func:`moved`, which warns once
and makes the old name the new module, so ``import evalcore.textio`` still works for one release."""

from __future__ import annotations

import importlib
import sys
import warnings
from types import FrameType, ModuleType
from typing import Any


def moved(old_name: str, new_name: str) -> ModuleType:
    """Import ``new_name``, warn that ``old_name`` is deprecated, and alias the old name to it."""
    module = importlib.import_module(new_name)
    warnings.warn(f"{old_name} is deprecated; import {new_name}", DeprecationWarning, stacklevel=_importer_level())
    sys.modules[old_name] = module
    return module


def _importer_level() -> int:
    """The stack level of the code that imported the old module, past importlib's frames and the shim."""
    frame: FrameType | None = sys._getframe(2)  # the shim's body; its importer lies beyond importlib
    level = 2
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                 or frame.f_globals.get("__name__") == "importlib"):
        frame = frame.f_back
        level += 1
    return level + 1


def moved_name(package: str, module: str, name: str) -> Any:
    """Attribute ``name`` of a package that replaced a module of the same name: the old module's
    names now live in ``module``; warn and return it (AttributeError for anything else)."""
    if name.startswith("__"):
        raise AttributeError(name)
    target = importlib.import_module(module)
    if not hasattr(target, name):
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    warnings.warn(f"{package}.{name} is deprecated; import it from {module}", DeprecationWarning, stacklevel=3)
    value = getattr(target, name)
    setattr(sys.modules[package], name, value)
    return value
