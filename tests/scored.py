"""The scores of a batch a test expects every item of to be scored."""

from collections.abc import Sequence

from evalcore.metric import Score
from evalcore.metric.base import Result


def scored(results: Sequence[Result]) -> list[Score]:
    """Every record of ``results`` as a :class:`Score`; an error record fails the test, naming its item."""
    errors = [str(r) for r in results if not r.ok]
    assert not errors, errors
    return [r for r in results if r.ok]
