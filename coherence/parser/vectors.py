"""Feature dicts to the sparse rows a fitted ``DictVectorizer`` makes, without its per-value type
checks: on a batch of short texts those checks cost more than the classifiers themselves. The
matrix is the one ``DictVectorizer.transform`` returns (same indices, order and values; a test
compares them), so every prediction is unchanged. Values must be numbers, which every feature
function of the parser makes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import scipy.sparse as sp


def rows(vectorizer, dicts: Sequence[Mapping[str, float]]) -> sp.csr_array:
    """``vectorizer.transform(dicts)`` for numeric values: features outside its vocabulary dropped,
    column indices sorted within each row."""
    vocabulary = vectorizer.vocabulary_
    indices: list[int] = []
    values: list[float] = []
    indptr = [0]
    for features in dicts:
        for name, value in features.items():
            column = vocabulary.get(name)
            if column is not None:
                indices.append(column)
                values.append(value)
        indptr.append(len(indices))
    matrix = sp.csr_array((np.array(values, dtype=vectorizer.dtype), np.array(indices, dtype=np.intc), indptr),
                          shape=(len(indptr) - 1, len(vocabulary)), dtype=vectorizer.dtype)
    matrix.sort_indices()
    return matrix


def predict(pipeline, dicts: Sequence[Mapping[str, float]]) -> np.ndarray:
    """``pipeline.predict(dicts)`` of a fitted DictVectorizer -> classifier pipeline."""
    if len(pipeline.steps) != 2:
        raise ValueError(f"expected a DictVectorizer -> classifier pipeline, got {len(pipeline.steps)} steps")
    (_, vectorizer), (_, classifier) = pipeline.steps
    return classifier.predict(rows(vectorizer, dicts))
