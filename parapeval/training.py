"""Deprecated path of :mod:`parapeval.pem.train` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "parapeval.pem.train")
