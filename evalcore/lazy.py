"""Deprecated path of :mod:`evalcore.metric.lazy` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.metric.lazy")
