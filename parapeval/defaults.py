"""Deprecated (kept for one release): the default resources' paths are in
:mod:`evalcore.resources.defaults`, the shipped PEM model is :func:`parapeval.pem.metric.default_model_path`."""

from __future__ import annotations

import warnings
from pathlib import Path

from evalcore.resources.defaults import DEFAULT_PIVOTS, lm_path, phrase_table_path, resource_dir
from evalcore.resources.registry import package_path

__all__ = ["DEFAULT_PIVOTS", "cache_dir", "lm_path", "model_path", "phrase_table_path"]

warnings.warn("parapeval.defaults is deprecated; import evalcore.resources.defaults "
              "(and parapeval.pem.metric.default_model_path)", DeprecationWarning, stacklevel=2)


def cache_dir() -> Path:
    """The shared resources' cache folder, :func:`evalcore.resources.registry.resource_dir`."""
    return resource_dir()


def model_path() -> Path:
    """The shipped default PEM model, as :func:`parapeval.pem.metric.default_model_path` gives it (a
    shared module imports no family, so the path is spelled here)."""
    return package_path("parapeval", "models", "pem-default.npz")
