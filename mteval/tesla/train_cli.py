"""Deprecated path of :mod:`mteval.tesla.cli` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "mteval.tesla.cli")
