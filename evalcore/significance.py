"""Deprecated path of :mod:`evalcore.stats.significance`."""

from evalcore._moved import moved

moved(__name__, "evalcore.stats.significance")
