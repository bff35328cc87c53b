"""The metric contract every package follows: typed inputs, score records, signatures, the
registry, input rules and batch scoring with per-metric error records.

A newcomer adds a metric by subclassing one of the three typed bases in :mod:`.base`, implementing
``_score_items`` and listing it in its package's ``registry.py`` (see the README, "Adding a metric").
"""

from evalcore.metric.base import (
    Item,
    Metric,
    ReferenceFreeMetric,
    ReferenceMetric,
    SourceMetric,
)
from evalcore.metric.inputs import InputLimits, TextCheck, check_text
from evalcore.metric.records import ErrorRecord, Score
from evalcore.metric.signature import Signature
from evalcore.metric.statistics import SufficientStatistics

__all__ = ["ErrorRecord", "InputLimits", "Item", "Metric", "ReferenceFreeMetric", "ReferenceMetric", "Score",
           "Signature", "SourceMetric", "SufficientStatistics", "TextCheck", "check_text"]
