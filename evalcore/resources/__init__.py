"""Everything the metrics read besides their input: the registry of shipped files and cache folders
(:mod:`.registry`), the default phrase tables and language models (:mod:`.defaults`) and their
named inputs (:mod:`.inputs`), the builds that need more than pip (:mod:`.system`, run by
``aesop-eval setup``, with :mod:`.progress`), KenLM (:mod:`.lm`), WordNet (:mod:`.wordnet`) and
the phrase-table builder (:mod:`.phrase_table`).

The names the former module ``evalcore.resources`` held (now in :mod:`.registry`) still resolve
here for one release, with a :class:`DeprecationWarning` naming their new home (once per name).
"""

from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``evalcore.resources`` (now :mod:`evalcore.resources.registry`), deprecated."""
    from evalcore._moved import moved_name

    return moved_name("evalcore.resources", "evalcore.resources.registry", name)
