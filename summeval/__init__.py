"""Summary evaluation: TESLA-S content scores with ROUGE baselines and CREMER responsiveness,
TAC/AESOP and JSONL inputs, per-system aggregation and ranking, meta-evaluation against human
scores, and the ``summeval`` command."""

from evalcore import __version__

__all__ = ["__version__"]
