"""Deprecated path of :mod:`summeval.cremer.metric` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "summeval.cremer.metric")
