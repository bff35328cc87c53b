"""PEM (Liu, Dahlmeier, Ng 2010): paraphrase evaluation from adequacy (pivot-language F1 of bags
of pivot n-grams, built in :mod:`evalcore.bpng`), fluency (KenLM) and lexical dissimilarity
(target n-gram F1), combined by an SVR.

    from parapeval import PEM
    pem = PEM.default()            # default tables + LM from `make setup`, shipped model
    pem.score("the original .", "a paraphrase .")   # -> PEMScore(pem, adequacy, fluency, ...)
"""

from parapeval.defaults import VERSION as __version__
from parapeval.scoring import PEM, PEMError, PEMFeatures, PEMScore

__all__ = ["PEM", "PEMError", "PEMFeatures", "PEMScore", "__version__"]
