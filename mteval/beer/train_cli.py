"""Deprecated path of :mod:`mteval.beer.cli` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "mteval.beer.cli")
