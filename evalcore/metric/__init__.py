"""The metric contract every package follows: typed inputs, score records, signatures, the
registry, input rules and batch scoring with per-metric error records.

A newcomer adds a metric by subclassing one of the four typed bases in :mod:`.base`, implementing
``_score_items`` and registering it: one line in its package's ``registry.py``, or one
``aesop_eval.metrics`` entry point in a third-party package's ``pyproject.toml``
(docs/adding-a-metric.md walks through both).
"""

from evalcore.metric.base import (
    Item,
    Metric,
    ReferenceFreeMetric,
    ReferenceMetric,
    SourceMetric,
    SourceReferenceMetric,
)
from evalcore.metric.inputs import InputLimits, TextCheck, check_text
from evalcore.metric.records import ErrorRecord, Score
from evalcore.metric.signature import Signature
from evalcore.metric.statistics import SufficientStatistics

__all__ = ["ErrorRecord", "InputLimits", "Item", "Metric", "ReferenceFreeMetric", "ReferenceMetric", "Score",
           "Signature", "SourceMetric", "SourceReferenceMetric", "SufficientStatistics", "TextCheck", "check_text"]
