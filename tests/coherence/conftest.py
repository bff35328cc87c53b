"""Shared fixtures: the public discourse data (skipped with a reason when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def discourse_dir(shared_data: Path) -> Path:
    path = shared_data / "discourse"
    if not (path / "gdtb" / "splits.md").exists():
        pytest.skip(f"GDTB not found under {path}")
    return path


@pytest.fixture(scope="session")
def pdtb2_table(shared_data: Path) -> Path:
    """The PDTB-2 connective sense table (counts only)."""
    path = shared_data / "discourse" / "pdtb2_connective_senses.md"
    if not path.exists():
        pytest.skip(f"PDTB-2 connective sense table not found: {path}")
    return path


@pytest.fixture(scope="session")
def gdtb_dir(discourse_dir: Path) -> Path:
    return discourse_dir / "gdtb"


@pytest.fixture(scope="session")
def test_doc(gdtb_dir: Path):
    """One small GDTB test document with its text."""
    from coherence.corpora import load_gdtb

    docs, _ = load_gdtb(gdtb_dir, "test")
    return min(docs, key=lambda d: len(d.text))
