"""Shared checks of the summary readers: reference files that must not be empty, unique (topic, system)."""

from __future__ import annotations

from pathlib import Path

from evalcore.data.records import SummaryItem
from evalcore.textio import InputError, read_utf8

__all__ = ["InputError", "check_unique", "read_text_file"]


def read_text_file(path: Path) -> str:
    """A reference (model) summary file's text; empty or undecodable files are errors naming the
    file, since every peer of its topic is scored against it."""
    text = read_utf8(path)
    if not text.strip():
        raise InputError(f"{path}: empty summary file")
    return text


def check_unique(items: list[SummaryItem]) -> None:
    """Two summaries for the same (topic, system) is an error naming both origins."""
    seen: dict[tuple[str, str], str] = {}
    for item in items:
        if item.key in seen:
            raise InputError(f"duplicate summary for topic {item.topic!r}, system {item.system!r}: "
                             f"{seen[item.key]} and {item.origin}")
        seen[item.key] = item.origin
