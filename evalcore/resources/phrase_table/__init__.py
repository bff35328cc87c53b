"""Building phrase tables from a sentence-aligned bitext: read and tokenise (:mod:`.bitext`),
word-align both ways with eflomal's seeded build (:mod:`.align`, :mod:`.seeded_eflomal`: the same
alignments on every machine), symmetrise (:mod:`.symmetrize`), extract
consistent phrase pairs (:mod:`.extract`), write the compact store (:mod:`.build`). Reading the
table back is :class:`evalcore.bpng.PhraseTableStore`."""

from evalcore.resources.phrase_table.build import build_phrase_table

__all__ = ["build_phrase_table"]
