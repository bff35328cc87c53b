"""Meta-evaluation statistics: how well a metric agrees with human judgments, and whether one metric
agrees better than another (correlations, pairwise accuracy, resampled intervals, tests, clusters)."""
