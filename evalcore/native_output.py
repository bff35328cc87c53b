"""Deprecated path of :mod:`evalcore.io.native_output` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.io.native_output")
