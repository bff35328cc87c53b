"""mteval: machine-translation evaluation on the suite's shared core.

TESLA-M, TESLA-B and TESLA-F (Liu, Dahlmeier, Ng 2010; TESLA at WMT 2011) beside sacrebleu's
BLEU, chrF and TER and nltk's METEOR, with sacrebleu's ergonomics (plain text, one segment a
line; corpus and segment scores; signatures; paired significance) and meta-evaluation on WMT
human judgments. Depends only on :mod:`evalcore`.
"""

from evalcore import __version__

__all__ = ["__version__"]
