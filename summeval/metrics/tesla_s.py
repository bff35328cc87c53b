"""Deprecated path of :mod:`summeval.tesla_s.metric` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "summeval.tesla_s.metric")
