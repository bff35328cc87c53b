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

One skeleton serves every command: :func:`command` adds a subcommand and names its handler
(``set_defaults(func=...)``), :func:`dispatch` parses and runs it; :func:`add_metric_args`,
:func:`add_output_args` and :func:`add_limit_args` add the shared flags, :func:`select_metrics`
turns ``-m`` into configured metrics, :func:`limits_of` reads the size cap and :func:`emit`
renders and writes the output.
"""

from __future__ import annotations

import argparse
import errno
import functools
import itertools
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, overload

from evalcore import __version__
from evalcore.io.textfiles import InputError, shown
from evalcore.run.distributed import add_scheduler_arg
from evalcore.run.workers import jobs_arg

if TYPE_CHECKING:
    from evalcore.metric import InputLimits, Metric

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


def command(subparsers, name: str, func: Callable[[argparse.Namespace], int], **kwargs) -> argparse.ArgumentParser:
    """A subcommand whose handler :func:`dispatch` calls: every command of the suite is added so."""
    p = subparsers.add_parser(name, **kwargs)
    p.set_defaults(func=func)
    return p


def add_metric_args(p: argparse.ArgumentParser, package: str | None, *, also: Sequence[str] = (),
                    default_metrics: Sequence[str] = (), single: bool = False) -> None:
    """``-m/--metric`` (repeatable; ``single``: required, and the handler takes one) and the
    subcommand's own ``--list-metrics``."""
    p.add_argument("-m", "--metric", action="append", metavar="NAME", required=single,
                   help=("the metric (see --list-metrics)" if single else
                         "metric to compute (repeatable; see --list-metrics)")
                        + (f"; default: {' '.join(default_metrics)}" if default_metrics else ""))
    p.add_argument("--list-metrics", action=ListMetrics, package=package, also=also,
                   help="list the metrics this command offers and exit")


def add_output_args(p: argparse.ArgumentParser, formats: Sequence[str] = FORMATS, default_format: str | None = None,
                    format_help: str = "") -> None:
    """``-o/--output`` (a file or ``-``) and ``--format``."""
    default_format = default_format or formats[0]
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="write results here (default: - = standard output); the folder must exist")
    p.add_argument("--format", choices=formats, default=default_format,
                   help=format_help or f"output format (default: {default_format})")


def add_limit_args(p: argparse.ArgumentParser, *, jobs: bool = True, scheduler: bool = False,
                   what: str = "texts") -> None:
    """``-j/--jobs``, ``--max-chars`` (read back by :func:`limits_of`) and, on a command that
    scores through :func:`evalcore.metric.batch.score_with`, ``--scheduler``."""
    if jobs:
        p.add_argument("-j", "--jobs", type=jobs_arg, default=1, help="worker processes (default 1, 0 = all cores)")
    p.add_argument("--max-chars", type=positive_int, default=None, metavar="N",
                   help=f"refuse {what} longer than N characters (default: AESOP_MAX_CHARS or 100000)")
    if scheduler:
        add_scheduler_arg(p)


class GivenOnce(argparse.Action):
    """An option that takes one value and may be given once: a second ``-i`` is a usage error, not
    the silent loss of the first input."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest, None) is not None:
            first = getattr(namespace, self.dest)
            parser.error(f"{option_string} is given twice: this command reads one input ({first} and {values})")
        setattr(namespace, self.dest, values)


def add_io_args(p: argparse.ArgumentParser, package: str | None, *, input_required: bool = False,
                input_help: str = "", formats: Sequence[str] = FORMATS, default_metrics: Sequence[str] = (),
                also: Sequence[str] = (), input_nargs: str | None = None) -> None:
    """The shared flags of a scoring subcommand (``input_nargs="+"``: several input files)."""
    add_metric_args(p, package, also=also, default_metrics=default_metrics)
    p.add_argument("-i", "--input", required=input_required, metavar="FILE", nargs=input_nargs,
                   action="extend" if input_nargs == "+" else GivenOnce,  # `-i a -i b`: both, or refused
                   help=input_help or "input file, or - for standard input")
    add_output_args(p, formats)
    add_limit_args(p, scheduler=True)


def limits_of(args: argparse.Namespace) -> InputLimits:
    """The size cap: ``--max-chars`` when given, else AESOP_MAX_CHARS or the default."""
    from evalcore.metric.inputs import InputLimits

    return InputLimits(args.max_chars) if args.max_chars else InputLimits.from_env()


def metric_names(requested: Sequence[str] | None, package: str, *, default: Sequence[str], also: Sequence[str] = (),
                 groups: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The metrics ``-m`` names: groups (``all``) expanded, duplicates dropped; a name the command
    does not offer is an :class:`InputError`, one whose pip extra is missing a
    :class:`~evalcore.extras.MissingExtraError` naming the install: one line, before any scoring.
    A group scores what is installed of it: its metrics whose extra is missing are left out and
    named on stderr with the install command (an error when none is left)."""
    from evalcore.extras import install_command, is_installed, require
    from evalcore.metric.registry import registered, spec

    groups = groups or {}
    offered = [*registered(package), *also]
    asked = list(requested or default)
    names = list(dict.fromkeys(n for m in asked for n in groups.get(m, (m,))))
    for name in names:
        if name not in offered:
            choices = ", ".join(sorted(offered)) + "".join(f"; {g} = {' '.join(ms)}" for g, ms in groups.items())
            raise InputError(f"unknown metric {name!r}; {package} offers: {choices}")
    skipped: dict[str, list[str]] = {}
    for name in names:
        extra = spec(name).extra
        if name not in asked and not is_installed(extra):  # from a group only
            skipped.setdefault(extra, []).append(name)
    kept = [n for n in names if not any(n in ms for ms in skipped.values())]
    for extra, left_out in skipped.items():
        print(f"{package}: -m {', '.join(g for g in asked if g in groups)}: skipping {', '.join(left_out)} "
              f"(not installed: {install_command(extra)})", file=sys.stderr)
    for name in kept or names:
        require(spec(name).extra, f"metric {name!r}")
    return kept


def select_metrics(requested: Sequence[str] | None, package: str, *, default: Sequence[str],
                   options: Mapping[str, object] | None = None, also: Sequence[str] = (),
                   groups: Mapping[str, Sequence[str]] | None = None,
                   only: Mapping[str, Sequence[str]] | None = None,
                   per_item: Sequence[str] = ()) -> list[Metric]:
    """Configured, validated metrics for ``-m``: each gets the ``options`` it declares (None = its
    default); ``only`` limits an option to the metrics named there (``--stem`` of TESLA-S is not
    ROUGE's stemmer); ``per_item``: options every item carries too (``--lang``), which a metric
    may refuse item by item instead of refusing the run (:func:`~evalcore.metric.registry.build_metrics`)."""
    from evalcore.metric.registry import build_metrics

    names = metric_names(requested, package, default=default, also=also, groups=groups)
    only = only or {}
    options = options or {}
    return build_metrics(names, {n: {k: v for k, v in options.items() if k not in only or n in only[k]}
                                 for n in names}, per_item)


def system_names(paths: list[str]) -> list[str]:
    """File names as system names; full paths where two files share a name; a file given more
    than once is one system per mention, the later ones numbered ("hyp.en (2)")."""
    names = [shown(Path(p).name) if p != "-" else "stdin" for p in paths]
    files: dict[str, set[str]] = {}
    for name, path in zip(names, paths):
        files.setdefault(name, set()).add(path)
    names = [path if len(files[name]) > 1 else name for name, path in zip(names, paths)]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


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


@overload
def check_output_dir(path: str | Path, what: str) -> Path: ...
@overload
def check_output_dir(path: None, what: str) -> None: ...
@overload
def check_output_dir(path: str | Path | None, what: str) -> Path | None: ...


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
    """Write to the (pre-checked) output file, or stdout (:func:`stream_output`)."""
    stream_output(path, lambda out: out.write(text))


def stream_output(path: Path | None, write: Callable[[TextIO], object]) -> None:
    """Call ``write`` with the (pre-checked) output file open, or stdout, so a long output can be
    written piece by piece; a failing write (no space left) is an :class:`OutputError` naming the
    file. A regular file is written to a temporary file in its folder and renamed into place, so a
    failed write leaves the old content whole; a device or pipe (``/dev/null``, a FIFO) is written
    directly."""
    try:
        if path is None:
            write(sys.stdout)
            sys.stdout.flush()
        elif path.exists() and not path.resolve().is_file():
            with path.open("w", encoding="utf-8") as out:
                write(out)
        else:
            _replace_file(path.resolve(), write)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {'standard output' if path is None else path}: "
                          f"{exc.strerror or exc}") from None


def _replace_file(path: Path, write_text: Callable[[TextIO], object]) -> None:
    """Write ``path`` through a temporary file renamed into place, keeping the old file's
    permissions."""
    from evalcore.io.persist import atomic_write

    mode = path.stat().st_mode & 0o7777 if path.exists() else None

    def write(tmp: Path) -> None:
        with tmp.open("w", encoding="utf-8") as out:
            write_text(out)
        if mode is not None:
            os.chmod(tmp, mode)

    atomic_write(path, write)


def emit(fmt: str, body: str | Mapping[str, Callable[[], str]], signatures: Iterable[str], path: Path | None) -> None:
    """Render the body (a string, or format -> renderer), write it, and put the signatures where
    the convention says: inside JSON (the renderer has done it), on stderr for JSONL/TSV, after
    the table for humans."""
    if not isinstance(body, str):
        body = body[fmt]()
    signatures = list(signatures)
    if fmt == "table":
        body = body.rstrip("\n") + "\n\nSignatures:\n" + "".join(f"  {s}\n" for s in signatures)
    if fmt in ("jsonl", "tsv"):
        emit_streamed(lambda out: out.write(body), signatures, path)
    else:
        write_output(body, path)


def emit_streamed(write: Callable[[TextIO], object], signatures: Iterable[str], path: Path | None) -> None:
    """JSONL or TSV written piece by piece as ``write`` makes it (:func:`stream_output`), then the
    signatures on stderr, as :func:`emit` puts them."""
    stream_output(path, write)
    for sig in signatures:
        print(sig, file=sys.stderr)


def exit_code(n_failed: int, n_total: int, what: str = "items") -> int:
    """0 when everything was scored; else 1 with a count on stderr."""
    if n_failed:
        print(f"{n_failed} of {n_total} {what} could not be scored by at least one metric "
              "(see the error records)", file=sys.stderr)
        return EXIT_ITEM_ERRORS
    return EXIT_OK


def answer_top_level_flags(prog: str, argv: Sequence[str], package: str | None, also: Sequence[str] = ()) -> None:
    """Answer ``--version`` and ``--list-metrics`` (and exit) before the command tree is built:
    building it can import training code and scikit-learn, which neither answer needs."""
    lead = list(itertools.takewhile(lambda a: a.startswith("-"), argv))
    if {"--version", "--list-metrics"} & set(lead) and not {"-h", "--help"} & set(lead):
        new_parser(prog, None, package, also).parse_known_args(lead)


def dispatch(prog: str, build_parser: Callable[[], argparse.ArgumentParser], argv: Sequence[str] | None,
             package: str | None = None, also: Sequence[str] = ()) -> int:
    """Every command's ``main``: answer the top-level flags, parse, run the chosen handler."""
    argv = sys.argv[1:] if argv is None else list(argv)
    answer_top_level_flags(prog, argv, package, also)
    return run(prog, build_parser().parse_args(argv))


def run(prog: str, args: argparse.Namespace) -> int:
    """Call the handler :func:`command` set; bad input or usage (a missing or corrupt model or
    resource, a file that cannot be read or written included) becomes one line on stderr and exit
    code 2."""
    from evalcore.io.persist import ModelFileError
    from evalcore.resources.lm import LMTrainingError
    from evalcore.resources.registry import ResourceError

    try:
        return args.func(args)
    except BrokenPipeError:  # `... | head`: stop quietly, as Unix tools do
        _stdout_to_devnull()
        return EXIT_OK
    except (InputError, OutputError, ValueError, OSError, ResourceError, ModelFileError, LMTrainingError) as exc:
        if isinstance(exc, OSError) and exc.errno in _WRITE_ERRNOS:
            raise  # a full disk: guarded() says so
        print(f"{prog}: error: {shown(str(exc))}", file=sys.stderr)
        return EXIT_USAGE


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
