"""Deprecated path of :mod:`mteval.red.train` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "mteval.red.train")
