"""Benchmarks stay out of the installed packages: no module under a package is a benchmark, the
packages never import the checkout's benchmarks/, and packaging finds only the five packages."""

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")


def test_no_module_under_the_packages_is_a_benchmark():
    found = [str(p.relative_to(ROOT)) for pkg in PACKAGES for p in (ROOT / pkg).rglob("*")
             if "bench" in p.relative_to(ROOT).as_posix() and "__pycache__" not in p.parts]
    assert found == []


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_never_imports_the_benchmarks(package):
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            bad += [f"{path.relative_to(ROOT)}:{node.lineno}" for n in names if n.split(".")[0] == "benchmarks"]
    assert bad == []


def test_packaging_finds_only_the_five_packages():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted(include) == sorted(f"{p}*" for p in PACKAGES)
    assert not any(p.startswith("bench") for p in include)
