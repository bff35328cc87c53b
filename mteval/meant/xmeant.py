"""Deprecated path of :mod:`mteval.meant.metric` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "mteval.meant.metric")
