"""The LP matcher shared by every metric: maximise total similarity-weighted flow between two
weighted bags (TESLA's linear program), with fast exact paths chosen by the problem's shape.

Where is the LP?  Here: :func:`match` reduces a problem to its core (the rows and columns that
can carry flow) and :func:`choose` picks the path by the core's shape and size:
- :mod:`.closed_form`  vertex-disjoint edges, a star (one row or column), binary transitive
                       similarity (exact match: sum of per-class minima);
- :mod:`.assignment`   equal weights: weighted bipartite assignment;
- :mod:`.transport`    general case: transportation problem by POT's network simplex, dense or
                       sparse by size (or HiGHS as a backend);
- :mod:`.covered`      TESLA-CELAB's covered matching: n-grams of several orders, coverage
                       variables, a general LP by HiGHS (PuLP as its reference);
- :mod:`.reference`    PuLP/CBC, the slow reference the tests cross-check the others against;
- :mod:`.highs`        HiGHS solvers that print nothing on stdout (its banner goes to stderr);
- the speed benchmark (`python -m benchmarks matching`, a checkout's benchmarks/) against the matcher at b9955f2 and
POT's ``ot.emd``.

Importing this package loads numpy only: scipy and POT are imported by the paths that use them.
"""

from evalcore.matching.closed_form import bag_overlap, class_overlap
from evalcore.matching.covered import CoveredProblem, solve_covered
from evalcore.matching.problem import Core, MatchProblem
from evalcore.matching.solve import BACKENDS, PATHS, choose, f_measure, match

__all__ = ["BACKENDS", "PATHS", "Core", "CoveredProblem", "MatchProblem", "bag_overlap", "choose", "class_overlap",
           "f_measure", "match", "solve_covered"]
