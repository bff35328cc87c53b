"""The input rule's cache changes its cost, not its verdicts."""

import pytest

from evalcore.io.textfiles import InputError
from evalcore.metric.inputs import InputLimits, check_text


def test_a_second_check_of_the_same_text_gives_the_same_verdict():
    for text in ("The cat sat on the mat.", "Кошка сидела на коврике у двери дома.", "!!! ??? ### $$$",
                 "a\x00b is a text with a control character in it"):
        first = check_text(text, "reference 1")
        assert check_text(text, "reference 2") == first
        assert check_text(text, "candidate", english=False).notes == ()
    assert check_text("Кошка сидела на коврике у двери дома.", "r").notes  # still flagged when cached
    assert check_text("a\x00b is a text", "r").text == "ab is a text"


def test_cached_text_is_still_refused_when_over_a_smaller_cap():
    text = "The cat sat on the mat and the dog watched it."
    check_text(text, "reference 1")
    with pytest.raises(InputError, match="reference 1 is too long"):
        check_text(text, "reference 1", InputLimits(max_chars=10))


def test_failures_name_their_role_every_time():
    for role in ("item 1: reference 1", "item 2: candidate"):
        with pytest.raises(InputError, match=f"^{role} is empty"):
            check_text(" \x00 ", role)
