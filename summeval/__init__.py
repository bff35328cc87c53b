"""Summary evaluation: TESLA-S content scores with ROUGE baselines, TAC/AESOP and JSONL inputs,
per-system aggregation and ranking, meta-evaluation against human scores, and the CLI."""

from summeval.metrics import available_metrics, get_metric

__all__ = ["available_metrics", "get_metric"]
