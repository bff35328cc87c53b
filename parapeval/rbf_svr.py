"""Deprecated path of :mod:`parapeval.pem.rbf_svr` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "parapeval.pem.rbf_svr")
