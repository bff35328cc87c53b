"""Discourse layer of the suite: PDTB relation records, readers/writers, a shallow discourse
parser (Tier 0 rules, Tier 1 GDTB classifiers), adapters for external parsers, and the DICOMER
readability metric (:mod:`coherence.dicomer`)."""

from __future__ import annotations

from coherence.relations import Relation, RelationError, level1
from evalcore import __version__

__all__ = ["Relation", "RelationError", "__version__", "level1", "parse"]


def parse(text: str, tier: int = 1, doc_id: str | None = None) -> list[Relation]:
    """Discourse relations of ``text`` with the built-in parser (Tier 1 unless ``tier=0``)."""
    from coherence.parser.pipeline import DiscourseParser

    return DiscourseParser(tier=tier).parse(text, doc_id)
