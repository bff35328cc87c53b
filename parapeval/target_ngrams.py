"""Deprecated path of :mod:`parapeval.pem.target_ngrams` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "parapeval.pem.target_ngrams")
