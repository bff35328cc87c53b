"""Deprecated path of :mod:`evalcore.cli.aesop` (kept for one release)."""

from evalcore._moved import moved

moved(__name__, "evalcore.cli.aesop")
