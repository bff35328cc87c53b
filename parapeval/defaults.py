"""Where parapeval's default resources live: phrase tables and LM built by `parapeval setup`
(run by ``scripts/setup_resources.sh``) below the suite's cache root, in ``<cache root>/parapeval``
(``AESOP_CACHE``, default ``~/.cache/aesop``); the trained PEM model shipped in data/parapeval/."""

from __future__ import annotations

from pathlib import Path

from evalcore.resources import cache_root, data_dir

DEFAULT_PIVOTS = ("fr", "de", "es", "zh")


def cache_dir() -> Path:
    """parapeval's built resources: ``<cache root>/parapeval``."""
    return cache_root() / "parapeval"


def phrase_table_path(pivot: str) -> Path:
    """The default phrase table of a pivot language."""
    return cache_dir() / "phrase_tables" / f"{pivot}.sqlite"


def lm_path() -> Path:
    """The default English language model."""
    return cache_dir() / "lm" / "default.klm"


def model_path() -> Path:
    """The shipped default PEM model (its sidecar ``pem-default.json`` beside it)."""
    return data_dir() / "parapeval" / "pem-default.pkl"
