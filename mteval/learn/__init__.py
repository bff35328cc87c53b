"""Learning metrics from human judgments: folds, pairwise data, learners and the feature cache
the trained metrics (TESLA-F, BEER) share."""
