"""The old paths of evalcore's text modules still work for one release, with a warning naming the new one."""

import importlib
import sys

import pytest


@pytest.mark.parametrize("old, new", [("evalcore.ngrams", "evalcore.text.ngrams"),
                                      ("evalcore.ngram_kernels", "evalcore.text.ngram_kernels")])
def test_an_old_module_path_is_the_new_module_with_a_warning(old, new, monkeypatch):
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated; import {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_an_old_name_of_evalcore_text_resolves_with_a_warning():
    import evalcore.text
    from evalcore.text.preprocess import Preprocessor

    with pytest.warns(DeprecationWarning, match="evalcore.text.preprocess"):
        assert evalcore.text.Preprocessor is Preprocessor
    with pytest.raises(AttributeError):
        evalcore.text.no_such_name  # noqa: B018
