"""The baselines of every MT table: BLEU, chrF, TER (sacrebleu) and METEOR (nltk)."""

from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``mteval.baselines`` (now :mod:`mteval.baselines.metric`), deprecated."""
    from evalcore._moved import moved_name

    return moved_name("mteval.baselines", "mteval.baselines.metric", name)
