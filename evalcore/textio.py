"""Reading users' text files once, the same way in every CLI: UTF-8 with an optional byte-order
mark (Excel and Notepad write one), and errors that name the file."""

from __future__ import annotations

from pathlib import Path


class InputError(ValueError):
    """Bad input; the message names the file (and line or id) at fault."""


def decode_utf8(data: bytes, name: str | Path) -> str:
    """``data`` as text without a leading BOM; non-UTF-8 bytes are an :class:`InputError` naming
    ``name`` (a file, or standard input) and the offending byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not valid UTF-8 ({exc.reason} at byte {exc.start})") from None


def read_utf8(path: str | Path) -> str:
    """The text of ``path`` (:func:`decode_utf8`); an unreadable file is an :class:`InputError`
    naming it."""
    try:
        return decode_utf8(Path(path).read_bytes(), path)
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None


def jsonl_objects(text: str, source: str | Path):
    """``(file:line, object)`` for every non-blank line of a JSON Lines text; a line that is not
    valid JSON or not a JSON object is an :class:`InputError` naming ``source:line``."""
    import json

    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        yield where, obj
