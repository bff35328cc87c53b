"""Deprecated path of :mod:`evalcore.stats.correlation`."""

from evalcore._moved import moved

moved(__name__, "evalcore.stats.correlation")
