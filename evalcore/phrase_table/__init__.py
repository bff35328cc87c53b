"""Deprecated location of :mod:`evalcore.resources.phrase_table` (kept for one release). The old
package stays a package of its own so that its submodules (each a shim) still import."""

import warnings

from evalcore.resources.phrase_table import build_phrase_table

__all__ = ["build_phrase_table"]

warnings.warn("evalcore.phrase_table is deprecated; import evalcore.resources.phrase_table",
              DeprecationWarning, stacklevel=2)
