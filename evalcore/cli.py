"""The one CLI convention of ``summeval``, ``coherence``, ``parapeval`` (and ``mteval``).

Flags: ``--version``, ``--list-metrics``, ``-m/--metric`` (repeatable), ``-i/--input`` (a file or
``-``), ``-o/--output`` (a file or ``-``, the default), ``--format table|json|jsonl|tsv``,
``--jobs N``, ``--max-chars N``.
Output: machine formats are pure on stdout. JSON has a top-level ``signature`` object; JSONL and
TSV print the signatures on stderr, never among the rows; the table prints them after itself.
JSON is strict (no bare NaN: missing values are ``null``).
Exit codes: 0 every item scored; 1 some items failed (a count on stderr); 2 usage error,
unreadable input or output that cannot be written (a full disk); 130 interrupted (Ctrl-C), one
line on stderr and no traceback (:func:`guarded`, which every command's ``main`` wears). Output
paths are checked before any scoring starts.
"""

from __future__ import annotations

import argparse
import errno
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from evalcore import __version__
from evalcore.textio import InputError
from evalcore.workers import jobs_arg

EXIT_OK = 0
EXIT_ITEM_ERRORS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: errors of a write that fails for lack of room or a broken device, not for a wrong path
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})
FORMATS = ("table", "json", "jsonl", "tsv")


class ListMetrics(argparse.Action):
    """``--list-metrics``: print the package's registered metrics and exit (imports no metric)."""

    def __init__(self, option_strings, dest, package: str | None = None, also: Sequence[str] = (), **kwargs):
        self.package = package
        self.also = tuple(also)
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from evalcore.metric.registry import list_metrics

        print(list_metrics(self.package, self.also))
        parser.exit(EXIT_OK)


def new_parser(prog: str, description: str | None, package: str | None,
               also: Sequence[str] = ()) -> argparse.ArgumentParser:
    """A top-level parser with ``--version`` and ``--list-metrics`` (the package's metrics, plus
    the metrics of other packages named in ``also`` that this command offers too)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {__version__}")
    parser.add_argument("--list-metrics", action=ListMetrics, package=package, also=also,
                        help="list the metrics this command offers and exit")
    return parser


def add_io_args(p: argparse.ArgumentParser, *, input_required: bool = False, input_help: str = "",
                formats: Sequence[str] = FORMATS, default_format: str = "table", metrics: bool = True,
                default_metrics: Sequence[str] = (), input_nargs: str | None = None) -> None:
    """The shared scoring flags on a (sub)command (``input_nargs="+"``: several input files)."""
    if metrics:
        p.add_argument("-m", "--metric", action="append", metavar="NAME",
                       help="metric to compute (repeatable; see --list-metrics)"
                            + (f"; default: {' '.join(default_metrics)}" if default_metrics else ""))
    p.add_argument("-i", "--input", required=input_required, metavar="FILE", nargs=input_nargs,
                   help=input_help or "input file, or - for standard input")
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="write results here (default: - = standard output); the folder must exist")
    p.add_argument("--format", choices=formats, default=default_format,
                   help=f"output format (default: {default_format})")
    p.add_argument("-j", "--jobs", type=jobs_arg, default=1, help="worker processes (0 = all cores)")
    p.add_argument("--max-chars", type=positive_int, default=None, metavar="N",
                   help="refuse texts longer than N characters (default: AESOP_MAX_CHARS or 100000)")


def positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {n}")
    return n


def check_output_path(path: str | Path | None, what: str = "--output") -> Path | None:
    """Fail before any work when an output file could not be written (missing folder, a folder
    given as a file, no write permission); ``-`` and None mean standard output."""
    if path in (None, "-"):
        return None
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{what} {path} is a folder; give a file name")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"{what} {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(f"{what} {path}: not writable")
    return path


def check_output_dir(path: str | Path | None, what: str) -> Path | None:
    """Create an output folder (``--report``, ``--out``) up front, or fail before any work."""
    if path is None:
        return None
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot create the folder ({exc.strerror})") from None
    if not os.access(path, os.W_OK):
        raise InputError(f"{what} {path}: not writable")
    return path


def check_input_path(path: str | Path | None, what: str = "--input") -> Path | None:
    """A readable input file (``-`` = standard input, returned as None)."""
    if path in (None, "-"):
        return None
    path = Path(path)
    if not path.exists():
        raise InputError(f"{what} {path}: no such file")
    if not os.access(path, os.R_OK):
        raise InputError(f"{what} {path}: not readable")
    return path


def read_input_text(path: str | Path | None) -> str:
    """The text of an input file or of stdin (``-``), by the input rule of :mod:`evalcore.textio`."""
    from evalcore.textio import decode_text, read_text

    if path in (None, "-"):
        return decode_text(sys.stdin.buffer.read(), "standard input")
    return read_text(path)


def strict_json(obj) -> str:
    """JSON with every non-finite float as null (the output must parse in jq and every JSON reader)."""
    return json.dumps(_finite(obj), indent=2, ensure_ascii=False, allow_nan=False)


def jsonl_line(obj) -> str:
    return json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False)


def _finite(obj):
    import math

    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):  # numpy scalars
        return _finite(obj.item())
    return obj


def tsv_cell(value) -> str:
    """A TSV cell: tabs and newlines escaped, missing numbers empty."""
    import math

    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.6f}"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class OutputError(Exception):
    """Output that cannot be written (a full disk); the message names where."""


def write_output(text: str, path: Path | None) -> None:
    """Write to the (pre-checked) output file, or stdout; a failing write (no space left) is an
    :class:`OutputError` naming the file."""
    try:
        if path is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            path.write_text(text, "utf-8")
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {'standard output' if path is None else path}: "
                          f"{exc.strerror or exc}") from None


def emit(fmt: str, body: str, signatures: Iterable[str], path: Path | None) -> None:
    """Write a rendered body and put the signatures where the convention says: inside JSON (the
    caller has done it), on stderr for JSONL/TSV, after the table for humans."""
    signatures = list(signatures)
    if fmt == "table":
        body = body.rstrip("\n") + "\n\nSignatures:\n" + "".join(f"  {s}\n" for s in signatures)
    write_output(body, path)
    if fmt in ("jsonl", "tsv"):
        for sig in signatures:
            print(sig, file=sys.stderr)


def exit_code(n_failed: int, n_total: int, what: str = "items") -> int:
    """0 when everything was scored; else 1 with a count on stderr."""
    if n_failed:
        print(f"{n_failed} of {n_total} {what} could not be scored by at least one metric "
              "(see the error records)", file=sys.stderr)
        return EXIT_ITEM_ERRORS
    return EXIT_OK


def run(prog: str, handlers: dict[str, Callable[[argparse.Namespace], int]], args: argparse.Namespace,
        command: str) -> int:
    """Dispatch a subcommand; bad input or usage becomes one line on stderr and exit code 2."""
    from evalcore.persist import ModelFileError
    from evalcore.resources import ResourceError

    try:
        return handlers[command](args)
    except (InputError, OutputError, ValueError, FileNotFoundError, ResourceError, ModelFileError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `... | head`: stop quietly, as Unix tools do
        _stdout_to_devnull()
        return EXIT_OK


def _stdout_to_devnull() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again (a
    stream without a file descriptor, as under a test's capture, is left alone)."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):
        return
    os.dup2(os.open(os.devnull, os.O_WRONLY), fd)


def guarded(prog: str) -> Callable:
    """Decorator for a command's ``main(argv)``: Ctrl-C prints one line and exits 130; a write that
    fails for lack of room (``-o /dev/full``, ``> /dev/full``, a report folder on a full disk)
    prints one line and exits 2; a closed pipe exits 0 quietly. Standard output is flushed
    inside, so a failure to write it is reported here, not as a traceback at exit."""
    def decorate(main: Callable[..., int]) -> Callable[..., int]:
        @functools.wraps(main)
        def guarded_main(argv: list[str] | None = None) -> int:
            try:
                code = main(argv)
                sys.stdout.flush()
                return code
            except KeyboardInterrupt:
                print(f"{prog}: interrupted", file=sys.stderr)
                return EXIT_INTERRUPTED
            except BrokenPipeError:
                _stdout_to_devnull()
                return EXIT_OK
            except (OutputError, OSError) as exc:
                if isinstance(exc, OSError) and exc.errno not in _WRITE_ERRNOS:
                    raise
                message = exc if isinstance(exc, OutputError) else f"cannot write output: {exc.strerror}"
                print(f"{prog}: error: {message}", file=sys.stderr)
                _stdout_to_devnull()
                return EXIT_USAGE
        return guarded_main
    return decorate
