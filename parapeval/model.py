"""Deprecated path of :mod:`parapeval.pem.model` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "parapeval.pem.model")
