"""The names ``evalcore.text`` held as a module still resolve from the package for one release,
with a warning naming ``evalcore.text.preprocess`` (the moved modules' shims: test_moved.py)."""

import pytest


def test_an_old_name_of_evalcore_text_resolves_with_a_warning():
    import evalcore.text
    from evalcore.text.preprocess import Preprocessor

    with pytest.warns(DeprecationWarning, match="evalcore.text.preprocess"):
        assert evalcore.text.Preprocessor is Preprocessor
    with pytest.raises(AttributeError):
        evalcore.text.no_such_name  # noqa: B018
