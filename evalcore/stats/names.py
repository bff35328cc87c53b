"""The names the statistics accept (levels, statistics, resampling designs, intervals, tests),
importable without numpy or scipy so that a command line can offer them cheaply."""

LEVELS = ("system", "item", "global")
COEFFICIENTS = ("pearson", "spearman", "kendall-b", "kendall-c")
STATISTICS = (*COEFFICIENTS, "acc-eq", "spa")
DESIGNS = ("inputs", "systems", "both")
CI_METHODS = ("percentile", "bca")
TESTS = ("perm-both", "perm-systems", "perm-inputs", "bootstrap", "williams")
#: the most resamples or permutations a command accepts (``-n``, ``--bootstrap``): a million
#: gives a p-value's third decimal many times over, and each costs memory and time
MAX_RESAMPLES = 1_000_000
