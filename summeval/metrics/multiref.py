"""Deprecated path of :mod:`summeval.multiref` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "summeval.multiref")
