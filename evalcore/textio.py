"""Deprecated path of :mod:`evalcore.io.textfiles` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.io.textfiles")
