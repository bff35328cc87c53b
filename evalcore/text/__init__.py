"""Text processing: preprocessing to a :class:`~evalcore.text.preprocess.Doc` (``preprocess``),
weighted bags of n-grams (``ngrams``, compiled kernels in ``ngram_kernels``).

The names ``evalcore.text`` held as a module (``tokenize``, ``Preprocessor``, ``Doc``, ...) still
resolve here for one release, with a DeprecationWarning naming ``evalcore.text.preprocess``
(once per name).
"""

from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``evalcore.text`` (now :mod:`evalcore.text.preprocess`), deprecated."""
    from evalcore._moved import moved_name

    return moved_name("evalcore.text", "evalcore.text.preprocess", name)
