"""Bags of pivot-language n-grams (BPNG), the adequacy representation of PEM and TESLA-B/F.

Where is BPNG built?  Here, in four steps:
- :mod:`.table`    the phrase-table interface (counts N(e) and t(f | e)) and an in-memory table;
- :mod:`.store`    the compact on-disk phrase table (SQLite), opened lazily and read-only;
- :mod:`.segment`  best segmentation of an English sentence into known phrases (DP);
- :mod:`.network`  the confusion network of pivot translations and its weighted n-gram bag.
:class:`BPNGBuilder` chains them for a preprocessed sentence; :func:`pivot_f1` compares two bags.
"""

from evalcore.bpng.builder import BPNGBuilder, pivot_f1
from evalcore.bpng.network import Arc, confusion_network, pivot_ngram_bag
from evalcore.bpng.segment import segment
from evalcore.bpng.store import PhraseTableStore, write_store
from evalcore.bpng.table import MemoryPhraseTable, PhraseEntry, PhraseTable

__all__ = [
    "Arc", "BPNGBuilder", "MemoryPhraseTable", "PhraseEntry", "PhraseTable", "PhraseTableStore",
    "confusion_network", "pivot_f1", "pivot_ngram_bag", "segment", "write_store",
]
