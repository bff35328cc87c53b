"""`parapeval setup`: build the default phrase tables and LM (:mod:`evalcore.default_resources`,
shared with mteval's TESLA-B/F) into ``<cache root>/parapeval`` (``AESOP_CACHE``), skipping what
is already built."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from evalcore.default_resources import build_brown_lm, build_phrase_tables


def build_defaults(log: Callable[[str], None] = print) -> dict[str, Path]:
    """Build every missing default resource into ``<cache root>/parapeval``; returns their paths."""
    built = build_phrase_tables(log)
    built["lm"] = build_brown_lm(log)
    return built
