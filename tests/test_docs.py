"""The documentation site builds with warnings as errors, every page is in its nav, the README
stays a front page, and the command reference matches the parsers."""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 300


def _nav_pages() -> set[str]:
    """Every page mkdocs.yml's nav names (``Title: path.md`` lines)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return set(re.findall(r":\s*([\w./-]+\.md)\s*$", text, flags=re.M))


def test_readme_is_a_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail into docs/"


def test_every_docs_page_is_in_the_nav():
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert pages - _nav_pages() == set()


def _shipped(path: str) -> bool:
    """Whether a package's non-code file is package data (pyproject's ``package-data``), so a
    wheel carries it."""
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    package, _, rest = path.partition("/")
    return any(fnmatch.fnmatchcase(rest, pattern) for pattern in data.get(package, [])) or \
        any("/" not in rest and fnmatch.fnmatchcase(rest, pattern) for pattern in data.get("*", []))


def test_docs_point_only_at_package_files_a_wheel_carries():
    """docs/metrics/pem.md sent readers to `parapeval/README.md`, which no wheel holds."""
    reference = re.compile(r"`((?:evalcore|summeval|coherence|parapeval|mteval)/[\w./-]+\.(?:md|txt|json|tsv))`")
    named = {(page.relative_to(ROOT).as_posix(), ref) for page in (ROOT / "docs").rglob("*.md")
             for ref in reference.findall(page.read_text(encoding="utf-8"))}
    assert _shipped("coherence/models/README.md") and not _shipped("parapeval/README.md")
    assert [(page, ref) for page, ref in sorted(named) if not _shipped(ref)] == []


def test_the_nav_reader_sees_nested_entries():
    assert {"index.md", "reference/cli.md", "metrics/tesla-s.md"} <= _nav_pages()


def test_cli_reference_is_current():
    done = subprocess.run([sys.executable, "scripts/gen_cli_reference.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_reference_check_sees_a_stale_page(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("gen_cli_reference", ROOT / "scripts" / "gen_cli_reference.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    stale = tmp_path / "cli.md"
    stale.write_text("# Command reference\n", encoding="utf-8")
    monkeypatch.setattr(gen, "PAGE", stale)
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    assert gen.main(["--check"]) == 1
    assert gen.main([]) == 0 and gen.main(["--check"]) == 0


def test_reference_reads_the_parsers_of_its_own_checkout(tmp_path):
    """Run from a worktree, the generator documents that worktree's parsers, not those of the
    checkout the interpreter has installed."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "gen_cli_reference.py", tmp_path / "scripts")
    for module in ("evalcore.cli.aesop", "summeval.cli", "coherence.cli", "parapeval.cli", "mteval.cli"):
        *packages, name = module.split(".")
        folder = tmp_path.joinpath(*packages)
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(1, len(packages) + 1):
            (tmp_path.joinpath(*packages[:k]) / "__init__.py").write_text("", encoding="utf-8")
        (folder / f"{name}.py").write_text(
            "import argparse\n\n\ndef build_parser():\n"
            f"    return argparse.ArgumentParser(description='the {module} of this checkout')\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "scripts/gen_cli_reference.py"], cwd=tmp_path, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "the parapeval.cli of this checkout" in (tmp_path / "docs" / "reference" / "cli.md").read_text("utf-8")


def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert not [line for line in output.splitlines() if "WARNING" in line], output
    assert (tmp_path / "site" / "index.html").exists()
