"""Deprecated path of :mod:`summeval.rouge.metric` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "summeval.rouge.metric")
