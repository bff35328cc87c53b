"""The package graph stays acyclic: evalcore <- coherence <- summeval, evalcore <- parapeval,
evalcore <- mteval. Every import statement (top-level or inside a function) is checked."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# package -> the suite packages it may import (besides itself)
ALLOWED = {
    "evalcore": set(),
    "coherence": {"evalcore"},
    "summeval": {"evalcore", "coherence"},
    "parapeval": {"evalcore"},
    "mteval": {"evalcore"},
}


def _imports(path: Path):
    tree = ast.parse(path.read_text("utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module.split(".")[0]


def _violations(package: str, root: Path = ROOT) -> list[str]:
    bad = []
    for path in sorted((root / package).rglob("*.py")):
        for line, top in _imports(path):
            if top in ALLOWED and top != package and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(root)}:{line} imports {top}")
    return bad


@pytest.mark.parametrize("package", [p for p in ALLOWED if (ROOT / p).is_dir()])
def test_no_import_against_the_package_order(package):
    assert _violations(package) == []


def test_the_checker_sees_a_violation(tmp_path):
    pkg = tmp_path / "evalcore"
    pkg.mkdir()
    (pkg / "x.py").write_text("def f():\n    from summeval.metrics import get_metric\n")
    assert _violations("evalcore", tmp_path) == ["evalcore/x.py:2 imports summeval"]
