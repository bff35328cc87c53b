"""Metric registry: names used on the command line -> configured scorer objects."""

from __future__ import annotations

from summeval.metrics.base import Metric, Score, check_item
from summeval.metrics.rouge import RougeN, RougeSU
from summeval.metrics.tesla_s import TeslaS, TeslaSScore

_FACTORIES = {
    "tesla-s": lambda o: TeslaS(multi_ref=o.get("multi_ref", "max"), stem=o.get("stem", False),
                                function_words=o.get("function_words", "list")),
    "tesla-s-pos": lambda o: _renamed(TeslaS(multi_ref=o.get("multi_ref", "max"), stem=o.get("stem", False),
                                             function_words="pos"), "tesla-s-pos"),
    "rouge-1": lambda o: RougeN("rouge-1"),
    "rouge-2": lambda o: RougeN("rouge-2"),
    "rouge-l": lambda o: RougeN("rouge-l"),
    "rouge-1-f": lambda o: RougeN("rouge-1", "f"),
    "rouge-2-f": lambda o: RougeN("rouge-2", "f"),
    "rouge-l-f": lambda o: RougeN("rouge-l", "f"),
    "rouge-su4": lambda o: RougeSU(4),
    "dicomer": lambda o: _discourse().Dicomer(),
    "cremer": lambda o: _discourse().Cremer("rbf", o.get("cremer_models")),
    "cremer-lf": lambda o: _discourse().Cremer("linear", o.get("cremer_models")),
    "cremer-pf": lambda o: _discourse().Cremer("poly", o.get("cremer_models")),
    "rouge-su4-f": lambda o: RougeSU(4, "f"),
}

DEFAULT_METRICS = ("tesla-s", "rouge-2", "rouge-su4")
# `--metric all`: the AESOP report in one pass (content, readability, responsiveness, baselines).
ALL_METRICS = ("tesla-s", "dicomer", "cremer", "cremer-lf", "cremer-pf", "rouge-1", "rouge-2", "rouge-l", "rouge-su4")


def _discourse():
    """Imported on demand: the discourse metrics pull in spaCy, the parser and trained models."""
    from summeval.metrics import discourse

    return discourse


def _renamed(metric: Metric, name: str) -> Metric:
    metric.name = name
    return metric


def available_metrics() -> list[str]:
    """Names accepted by :func:`get_metric` and the CLI's ``--metric``."""
    return sorted(_FACTORIES)


def get_metric(name: str, **options) -> Metric:
    """A scorer by name; ``options``: multi_ref, stem, function_words (TESLA-S), cremer_models
    (a folder of CREMER models from `summeval train cremer --out`)."""
    try:
        return _FACTORIES[name](options)
    except KeyError:
        raise ValueError(f"unknown metric {name!r}; available: {', '.join(available_metrics())}") from None


__all__ = ["ALL_METRICS", "DEFAULT_METRICS", "Metric", "RougeN", "RougeSU", "Score", "TeslaS", "TeslaSScore",
           "available_metrics", "check_item", "get_metric"]
