"""Summary metrics on the :mod:`evalcore.metric` contract: TESLA-S, the ROUGE baselines and
CREMER (imported on first use: it loads scikit-learn and, through ``coherence``, DICOMER).
Choose them by name with :func:`evalcore.metric.registry.get_metric` (names in
:mod:`summeval.registry`)."""

from summeval.rouge.metric import Rouge, RougeSU
from summeval.tesla_s.metric import TeslaS


def __getattr__(name: str):
    if name in ("Cremer", "CremerSVR"):
        from summeval.cremer import metric

        return getattr(metric, name)
    raise AttributeError(f"module 'summeval.metrics' has no attribute {name!r}")


__all__ = ["Cremer", "CremerSVR", "Rouge", "RougeSU", "TeslaS"]
