"""Losing lines of a system never makes its mteval corpus score better (short budget)."""

from hypothesis import example, given

from tests.fuzz import mt
from tests.fuzz.ci import ci, run

REFS = [["the council approved the budget on Monday .", "the cat sat on the mat ."]]


@ci(40)
@given(case=mt.monotone_case())
@example(case={"refs": REFS, "base": [REFS[0][0], "zzz qux blorp wug"], "lost": [1], "how": "empty",
               "metrics": ["bleu", "chrf", "ter"]})
@example(case={"refs": REFS, "base": [REFS[0][0], "the cat"], "lost": [1], "how": "latin-1",
               "metrics": ["bleu", "chrf", "ter", "tesla-m"]})
def test_losing_lines_never_raises_a_corpus_score(case):
    run("mteval-monotone", case)
