"""Old module paths kept for one release: an old module becomes its new module, with a warning."""

from __future__ import annotations

import importlib
import sys
import warnings


def moved(old_name: str, new_name: str) -> None:
    """Make ``old_name`` the module ``new_name`` and warn (DeprecationWarning) that it moved."""
    module = importlib.import_module(new_name)
    warnings.warn(f"{old_name} is deprecated; import {new_name}", DeprecationWarning, stacklevel=3)
    sys.modules[old_name] = module
