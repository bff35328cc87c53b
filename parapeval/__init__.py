"""PEM (Liu, Dahlmeier, Ng 2010): paraphrase evaluation from adequacy (pivot-language F1 of bags
of pivot n-grams, built in :mod:`evalcore.bpng`), fluency (KenLM) and the target-language n-gram
F1 (similarity of wording), combined by an SVR.

    from parapeval import PEM
    pem = PEM()                    # default tables + LM from `aesop-eval setup pem`, shipped model
    pem.score("the original .", "a paraphrase .")   # -> Score(value, components, notes)

``PEM`` is imported on first use, so listing the package's metrics stays light.
"""

from evalcore import __version__

__all__ = ["PEM", "__version__"]


def __getattr__(name: str):
    if name == "PEM":
        from parapeval.pem.metric import PEM

        return PEM
    raise AttributeError(f"module 'parapeval' has no attribute {name!r}")
