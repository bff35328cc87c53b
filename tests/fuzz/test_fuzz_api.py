"""``score_batch`` with hostile entries (short budget)."""

import unicodedata

from hypothesis import example, given

from evalcore.metric import Item
from tests.fuzz import api
from tests.fuzz.ci import ci, run


@ci(60)
@given(case=api.api_case())
@example(case={"metric": "bleu", "items": [Item("the cat sat", float("nan"))],  # type: ignore[arg-type]  # malformed
               "max_chars": None})
@example(case={"metric": "ter", "max_chars": 30,  # issue 31: refused in NFD, scored in NFC
               "items": [Item(unicodedata.normalize("NFD", "한국어 문장입니다 한국어"), ("한국어 문장입니다",))]})
@example(case={"metric": "bleu", "max_chars": 30,  # issue 31: refused with zero-width padding, its clean twin scored
               "items": [Item("the cat sat" + "\u200b" * 40, ("the cat sat",))]})
def test_score_batch(case):
    run("api-score-batch", case)
