"""The text inputs and relation sources the ``coherence`` commands share (``parse``, DICOMER's
``score``): positional files or ``-i``, the size cap, ``--external`` / ``--precomputed``."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from coherence.adapters import FORMATS, ExternalParser, PrecomputedParses, RelationAdapter
from evalcore.cli.convention import check_input_path
from evalcore.io.textfiles import InputError, read_input_text, read_text
from evalcore.metric.inputs import InputLimits, clean_text

STDIN = "-"
#: a file larger than this many bytes per allowed character is refused unread: even an NFD text
#: padded with invisible characters stays far below it
RAW_BYTES_PER_CHAR = 64


@dataclass(frozen=True)
class Source:
    """One input text: a file, or standard input (``path`` is ``-``), and the name it goes by."""

    path: str

    @property
    def name(self) -> str:
        return "stdin" if self.path == STDIN else self.path

    def read(self, limits: InputLimits) -> str:
        """The text (UTF-8, BOM dropped); InputError names the file when it cannot be read or is
        larger than the cap. The cap counts the cleaned text (NFC, control and invisible characters
        removed), as metrics read it; a file over :data:`RAW_BYTES_PER_CHAR` bytes per allowed
        character is refused before it is decoded."""
        size = 0 if self.path == STDIN else Path(self.path).stat().st_size
        if size > RAW_BYTES_PER_CHAR * limits.max_chars:
            raise InputError(f"{self.path}: too long ({size:,} bytes, over {RAW_BYTES_PER_CHAR} bytes for each of "
                             f"{limits.max_chars:,} characters; raise the cap with --max-chars or AESOP_MAX_CHARS)")
        text = read_input_text(None) if self.path == STDIN else read_text(self.path)
        length = len(clean_text(text))
        if length > limits.max_chars:
            raise InputError(f"{self.name}: too long ({length:,} characters > {limits.max_chars:,}; "
                             "raise the cap with --max-chars or AESOP_MAX_CHARS)")
        return text


def add_text_inputs(p: argparse.ArgumentParser, what: str) -> None:
    """Texts as positional files and/or ``-i/--input FILE`` (``-`` = standard input)."""
    p.add_argument("files", nargs="*", metavar="FILE", help=f"text files to {what}")
    p.add_argument("-i", "--input", metavar="FILE", help="one more text file, or - for standard input")


def text_sources(args: argparse.Namespace) -> list[Source]:
    """The inputs in command-line order; a missing or unreadable file, or no input at all, is a
    usage error before any work."""
    paths = [*args.files, *([args.input] if args.input else [])]
    if not paths:
        raise InputError("no input: give text files, or -i FILE (- for standard input)")
    if paths.count(STDIN) > 1:
        raise InputError("standard input (-) can be read only once")
    for path in paths:
        check_input_path(path, "input")
    return [Source(p) for p in paths]


def add_relation_source_args(p: argparse.ArgumentParser) -> None:
    """``--external CMD [--external-format F]`` or ``--precomputed DIR``: relations made elsewhere
    (shared by ``parse`` and ``score``; see :func:`relation_source`)."""
    source = p.add_mutually_exclusive_group()
    source.add_argument("--external", metavar="CMD",
                        help="run an external parser: command template with {input} (and {output})")
    source.add_argument("--precomputed", metavar="DIR",
                        help="read precomputed parses DIR/<file stem>.pipe|.json (or <file name>.pipe|"
                             ".json, as `parse --out` writes them) instead of parsing")
    p.add_argument("--external-format", choices=FORMATS, default="pipe",
                   help="output format of the --external command (default pipe)")


def relation_source(args: argparse.Namespace) -> RelationAdapter | None:
    """The adapter :func:`add_relation_source_args` options ask for, or None (built-in parser)."""
    if args.precomputed:
        if not Path(args.precomputed).is_dir():
            raise InputError(f"--precomputed {args.precomputed}: no such folder")
        return PrecomputedParses(args.precomputed)
    if args.external:
        return ExternalParser(args.external, args.external_format)
    return None
