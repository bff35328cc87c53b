"""Learners shared by the trained metrics: pairwise preference ranking (RankSVM), values standardised
within groups."""
