"""ROUGE-1/2/L (rouge-score-rs) and ROUGE-SU4 as ROUGE-1.5.5 computes it: the baselines of every summary table."""
