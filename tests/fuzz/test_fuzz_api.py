"""``score_batch`` with hostile entries (short budget)."""

from hypothesis import example, given

from evalcore.metric import Item
from tests.fuzz import api
from tests.fuzz.ci import ci, run


@ci(60)
@given(case=api.api_case())
@example(case={"metric": "bleu", "items": [Item("the cat sat", float("nan"))],  # type: ignore[arg-type]  # malformed
               "max_chars": None})
def test_score_batch(case):
    run("api-score-batch", case)
