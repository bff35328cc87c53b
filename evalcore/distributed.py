"""Deprecated path of :mod:`evalcore.run.distributed` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.run.distributed")
