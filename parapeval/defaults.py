"""Where parapeval's default resources live: phrase tables and LM built by `parapeval setup`
into the cache folder, the trained PEM model shipped in data/parapeval/."""

from __future__ import annotations

import os
from pathlib import Path

from evalcore.resources import data_dir

DEFAULT_PIVOTS = ("fr", "de", "es", "zh")
VERSION = "0.1.0"


def cache_dir() -> Path:
    """Built resources: $PARAPEVAL_CACHE or <checkout>/.cache/parapeval."""
    env = os.environ.get("PARAPEVAL_CACHE")
    return Path(env) if env else Path(__file__).resolve().parent.parent / ".cache" / "parapeval"


def phrase_table_path(pivot: str) -> Path:
    """The default phrase table of a pivot language."""
    return cache_dir() / "phrase_tables" / f"{pivot}.sqlite"


def lm_path() -> Path:
    """The default English language model."""
    return cache_dir() / "lm" / "default.klm"


def model_path() -> Path:
    """The shipped default PEM model."""
    return data_dir() / "parapeval" / "pem-default.pkl"
