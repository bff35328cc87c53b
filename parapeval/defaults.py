"""Where parapeval's default resources live: phrase tables and LM built by `parapeval setup`
(run by ``scripts/setup_resources.sh``) below the suite's cache root, in ``<cache root>/parapeval``
(``AESOP_CACHE``, default ``~/.cache/aesop``); the trained PEM model shipped in data/parapeval/."""

from __future__ import annotations

from pathlib import Path

from evalcore.default_resources import DEFAULT_PIVOTS, lm_path, phrase_table_path, resource_dir
from evalcore.resources import package_path

__all__ = ["DEFAULT_PIVOTS", "cache_dir", "lm_path", "model_path", "phrase_table_path"]


def cache_dir() -> Path:
    """parapeval's built resources: ``<cache root>/parapeval`` (paths in :mod:`evalcore.default_resources`)."""
    return resource_dir()


def model_path() -> Path:
    """The shipped default PEM model (a model file, :mod:`evalcore.io.models`)."""
    return package_path("parapeval", "models", "pem-default.npz")
