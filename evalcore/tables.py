"""Deprecated path of :mod:`evalcore.io.tables` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.io.tables")
