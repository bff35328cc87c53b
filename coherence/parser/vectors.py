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
    get = vectorizer.vocabulary_.get
    columns = np.array([get(name, -1) for features in dicts for name in features], dtype=np.intc)
    values = np.array([value for features in dicts for value in features.values()], dtype=vectorizer.dtype)
    known = columns >= 0
    row = np.repeat(np.arange(len(dicts)), [len(features) for features in dicts])
    indptr = np.concatenate([[0], np.cumsum(np.bincount(row[known], minlength=len(dicts)))])
    matrix = sp.csr_array((values[known], columns[known], indptr),
                          shape=(len(dicts), len(vectorizer.vocabulary_)), dtype=vectorizer.dtype)
    matrix.sort_indices()
    return matrix


def predict(pipeline, dicts: Sequence[Mapping[str, float]]) -> np.ndarray:
    """``pipeline.predict(dicts)`` of a fitted DictVectorizer -> classifier pipeline."""
    if len(pipeline.steps) != 2:
        raise ValueError(f"expected a DictVectorizer -> classifier pipeline, got {len(pipeline.steps)} steps")
    (_, vectorizer), (_, classifier) = pipeline.steps
    return classifier.predict(rows(vectorizer, dicts))
