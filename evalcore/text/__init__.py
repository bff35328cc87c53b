"""Text processing: preprocessing to a :class:`~evalcore.text.preprocess.Doc` (``preprocess``),
weighted bags of n-grams (``ngrams``, compiled kernels in ``ngram_kernels``).

The names ``evalcore.text`` held as a module (``tokenize``, ``Preprocessor``, ``Doc``, ...) still
resolve here for one release, with a DeprecationWarning naming ``evalcore.text.preprocess``.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_OLD_MODULE = "evalcore.text.preprocess"


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    module = importlib.import_module(_OLD_MODULE)
    if not hasattr(module, name):
        raise AttributeError(f"module 'evalcore.text' has no attribute {name!r}")
    warnings.warn(f"evalcore.text.{name} is deprecated; import it from {_OLD_MODULE}", DeprecationWarning,
                  stacklevel=2)
    return getattr(module, name)
