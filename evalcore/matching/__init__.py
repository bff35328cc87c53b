"""The LP matcher shared by every metric: maximise total similarity-weighted flow between two
weighted bags (TESLA's linear program), with fast exact paths chosen by the problem's shape.

Where is the LP?  Here: :func:`match` dispatches to
- :mod:`.closed_form`  binary transitive similarity (exact match): sum of per-class minima;
- :mod:`.assignment`   all weights 1: weighted bipartite assignment;
- :mod:`.transport`    general case: transportation problem by network simplex (POT) or HiGHS;
- :mod:`.reference`    PuLP/CBC, the slow reference the tests cross-check the others against.
"""

from evalcore.matching.closed_form import bag_overlap, class_overlap
from evalcore.matching.problem import MatchProblem
from evalcore.matching.solve import BACKENDS, f_measure, match

__all__ = ["BACKENDS", "MatchProblem", "bag_overlap", "class_overlap", "f_measure", "match"]
