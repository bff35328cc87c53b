"""The names the statistics accept (levels, statistics, resampling designs, intervals, tests),
importable without numpy or scipy so that a command line can offer them cheaply."""

LEVELS = ("system", "item", "global")
COEFFICIENTS = ("pearson", "spearman", "kendall-b", "kendall-c")
STATISTICS = (*COEFFICIENTS, "acc-eq", "spa")
DESIGNS = ("inputs", "systems", "both")
CI_METHODS = ("percentile", "bca")
TESTS = ("perm-both", "perm-systems", "perm-inputs", "bootstrap", "williams")
