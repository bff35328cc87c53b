"""ruff and mypy pass on the checkout with pyproject.toml's configuration, run as the venv's own
executables so that `make test` checks with the versions constraints.txt pins."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    """The executable beside this Python (installed by the test extra)."""
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed in {BIN}: pip install -c constraints.txt -e '.[test]'")
    return str(path)


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=900)


def test_ruff_finds_nothing():
    got = _run(_tool("ruff"), "check", "--no-cache", ".")
    assert got.returncode == 0, f"ruff check found problems:\n{got.stdout}{got.stderr}"


def test_mypy_finds_nothing():
    got = _run(_tool("mypy"))  # the files and settings of [tool.mypy]
    assert got.returncode == 0, f"mypy found problems:\n{got.stdout}{got.stderr}"


def test_both_report_a_planted_finding(tmp_path):
    """The configuration reaches the tools: an unused import and a wrong type are found."""
    bad = tmp_path / "bad.py"
    bad.write_text('import os\n\nx: int = "one"\n', encoding="utf-8")
    config = str(ROOT / "pyproject.toml")
    ruff = _run(_tool("ruff"), "check", "--no-cache", "--config", config, str(bad), cwd=tmp_path)
    assert ruff.returncode == 1 and "F401" in ruff.stdout
    mypy = _run(_tool("mypy"), "--config-file", config, "--cache-dir", str(tmp_path / "cache"), str(bad),
                cwd=tmp_path)
    assert mypy.returncode == 1 and "[assignment]" in mypy.stdout
