"""Everything the metrics read besides their input: the registry of shipped files and cache folders
(:mod:`.registry`), the default phrase tables and language models (:mod:`.defaults`), the builds
that need more than pip (:mod:`.system`, run by ``aesop-eval setup``), KenLM (:mod:`.lm`),
WordNet (:mod:`.wordnet`) and the phrase-table builder (:mod:`.phrase_table`).

The names the former module ``evalcore.resources`` held (now in :mod:`.registry`) still resolve
here for one release, with a :class:`DeprecationWarning` naming their new home (once per name).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

#: names of the former module evalcore.resources, now in evalcore.resources.registry
_REGISTRY_NAMES = frozenset({
    "SPACY_MODELS", "ResourceError", "package_path", "shipped_file", "checkout_root", "shared_data_dir",
    "spacy_pipeline", "cache_root", "cache_dir", "cache_warning", "cache_folder", "usable_cache_dir",
})


def __getattr__(name: str) -> Any:
    if name not in _REGISTRY_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"evalcore.resources.{name} is deprecated; import evalcore.resources.registry.{name}",
                  DeprecationWarning, stacklevel=2)
    value = getattr(importlib.import_module("evalcore.resources.registry"), name)
    globals()[name] = value  # one warning per name: `from ... import` looks a name up twice
    return value
