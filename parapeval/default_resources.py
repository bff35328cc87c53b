"""Deprecated (kept for one release): ``aesop-eval setup pem`` (:func:`evalcore.resources.system.ensure`)
builds the default phrase tables and LM."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

from evalcore.resources.defaults import DEFAULT_PIVOTS, lm_path, phrase_table_path

warnings.warn("parapeval.default_resources is deprecated; use evalcore.resources.system.ensure('pem') "
              "or `aesop-eval setup pem`", DeprecationWarning, stacklevel=2)


def build_defaults(log: Callable[[str], None] = print) -> dict[str, Path]:
    """Build the missing resources of the ``pem`` family; returns pivot -> table path and "lm" -> LM path."""
    from evalcore.resources.system import ensure

    ensure("pem")
    log(f"default resources of pem are built in {lm_path().parent.parent}")
    return {**{p: phrase_table_path(p) for p in DEFAULT_PIVOTS}, "lm": lm_path()}
