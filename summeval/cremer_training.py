"""Deprecated path of :mod:`summeval.cremer.train` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "summeval.cremer.train")
