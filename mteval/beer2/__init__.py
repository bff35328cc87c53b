"""BEER 2.0 (Stanojevic & Sima'an; stanojevic/beer, Scala) with its published default model: the
upstream feature template (word n-grams, skip-bigrams, character n-grams, length disbalance)
re-implemented in Python, scored with the shipped weights and scalings (``mteval/models/beer2``).

- :mod:`.pieces`: upstream's tokenisation and the pieces (n-grams) each feature family counts;
- :mod:`.features`: the feature template and the feature values of many pairs at once;
- :mod:`.pairs`: the every-pair skip-bigram overlap counted from word positions (no pair list);
- :mod:`.model`: the model files (weights, name mapping, input and output scaling);
- :mod:`.metric`: the registered metric ``beer2``.

Written here because upstream is Scala on the JVM and no Python package implements it; the
feature counts use :class:`collections.Counter` (C hashing), the arithmetic runs on arrays.
"""
