"""Deprecated path of :mod:`evalcore.io.models` (kept for one release). DICOMER's discourse parser
still imports it: the parser's source is hashed into DICOMER's signature, so its import moves with
the next change to the parser."""

from typing import TYPE_CHECKING

from evalcore._moved import moved

if TYPE_CHECKING:
    from evalcore.io.models import *  # noqa: F403

moved(__name__, "evalcore.io.models")
