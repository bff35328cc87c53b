"""DICOMER (Lin, Liu, Ng & Kan 2012): discourse role matrix features of Lin, Ng & Kan (2011)
plus E/N typed roles and intra-cell bigrams, ranked by a pairwise RankSVM; the Barzilay &
Lapata entity grid as baseline and extra feature source.

Data flow: text -> :mod:`analysis` (spaCy + discourse parse, once, cached) -> :mod:`matrix`
-> :mod:`features` -> :mod:`model` (RankSVM score) -> :mod:`metric` (the suite's metric
contract; its meta-evaluation is ``python -m benchmarks dicomer-variants`` in a checkout);
:mod:`oof` fits it out of fold for CREMER.
"""

from __future__ import annotations

from coherence.dicomer.config import VARIANTS, DicomerConfig, variant_config
from coherence.dicomer.metric import Dicomer

__all__ = ["VARIANTS", "Dicomer", "DicomerConfig", "variant_config"]
