"""Benchmarks' tests reuse the packages' test fixtures (toy phrase tables, LMs, PEM models): the
package conftests are loaded here by path, as tests/ is not a package."""

import importlib.util
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent


def load_test_module(relative: str):
    """A module of tests/ by its path relative to tests/ (its fixtures and constants)."""
    path = TESTS / relative
    spec = importlib.util.spec_from_file_location(f"_tests_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None, f"{path} is not a module"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


for _conftest in ("parapeval/conftest.py", "mteval/conftest.py", "coherence/conftest.py"):
    globals().update({k: v for k, v in vars(load_test_module(_conftest)).items() if not k.startswith("_")})


@pytest.fixture(scope="session")
def test_module():
    """:func:`load_test_module` for tests that reuse another test file's constants."""
    return load_test_module
