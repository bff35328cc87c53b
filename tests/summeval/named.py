"""Metrics that only name (and orient) the values of hand-made summary results: the system
level of :func:`summeval.pipeline.aggregate_systems` asks each metric for its aggregate."""

from evalcore.metric import Metric


class Named(Metric):
    """The metric ``m``; it aggregates as every metric without its own corpus rule (the mean)."""

    name = "m"

    def _score_items(self, items):
        raise AssertionError("hand-made results are never scored")


class LowerNamed(Named):
    """``m`` where lower is better."""

    lower_is_better = True
