"""Deprecated path of :mod:`evalcore.learn.ranking` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.learn.ranking")
