"""Deprecated path of :mod:`evalcore.run.workers` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.run.workers")
