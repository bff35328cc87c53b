"""Running a CLI's ``main(argv)`` in-process (captured standard streams, ``SystemExit`` caught)
and the properties every scoring command owes hostile input: no traceback, a documented exit
code, pure and parseable machine output, and nothing on stdout when the input is refused."""

from __future__ import annotations

import io
import json
import math
import shlex
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

TRACEBACK = "Traceback (most recent call last)"
EXIT_CODES = (0, 1, 2)
#: CLI name -> the module whose ``main`` runs it
MODULES = {"mteval": "mteval.cli", "summeval": "summeval.cli", "parapeval": "parapeval.cli",
           "coherence": "coherence.cli", "aesop-eval": "evalcore.cli.aesop"}


class PropertyFailure(AssertionError):
    """A broken property: which one, what was seen, and the commands that show it."""

    def __init__(self, prop: str, detail: str, commands: Sequence[str] = ()):
        self.prop = prop
        self.detail = detail
        self.commands = list(commands)
        super().__init__(f"[{prop}] {detail}" + "".join(f"\n  reproduce: {c}" for c in self.commands))


@dataclass
class Outcome:
    """What one CLI run did: exit code (None when an exception escaped), the two streams, the
    escaped exception's traceback, and the command line that reproduces it."""

    prog: str
    argv: list[str]
    code: int | None
    stdout: str
    stderr: str
    exception: str = ""
    stdin_file: str = ""

    @property
    def command(self) -> str:
        """The shell command that reruns this outcome from the project root."""
        cmd = f"python -m {MODULES[self.prog]} {shlex.join(self.argv)}"
        return f"{cmd} < {shlex.quote(self.stdin_file)}" if self.stdin_file else cmd


@dataclass
class Checker:
    """Collects commands run for one case, so a failure names how to reproduce it."""

    workdir: Path
    commands: list[str] = field(default_factory=list)

    def fail(self, prop: str, detail: str) -> NoReturn:
        raise PropertyFailure(prop, detail, self.commands[-3:])

    def expect(self, condition: bool, prop: str, detail: str | Callable[[], str]) -> None:
        if not condition:
            self.fail(prop, detail() if callable(detail) else detail)

    def run(self, prog: str, argv: list[str], stdin: bytes = b"", partial_ok: bool = False) -> Outcome:
        """Run ``prog``'s ``main(argv)`` in-process and check the properties every run owes;
        ``partial_ok``: an exit 2 may follow rows already written (an input found changed while
        the scoring pass read it)."""
        out = run_cli(prog, argv, stdin)
        if stdin:
            out.stdin_file = write(self.workdir, f"stdin-{len(self.commands) + 1}.bin", stdin)
        self.commands.append(out.command)
        check_common(self, out, partial_ok)
        return out


def _main(prog: str) -> Callable[[list[str]], int]:
    import importlib

    return importlib.import_module(MODULES[prog]).main


class _Stdin(io.TextIOWrapper):
    """Standard input over bytes, with ``.buffer`` as the real one has."""


def run_cli(prog: str, argv: list[str], stdin: bytes = b"") -> Outcome:
    """``prog``'s ``main(argv)`` with its own stdin/stdout/stderr (UTF-8; stdout strict, as a
    UTF-8 terminal or pipe is, stderr with backslash escapes, as Python's is); an exception
    that escapes ``main`` is kept as its traceback, never raised."""
    main = _main(prog)
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    streams = (_Stdin(io.BytesIO(stdin), encoding="utf-8"),
               io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", write_through=True),
               io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace", write_through=True))
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = streams
    code: int | None
    exception = ""
    try:
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        except BaseException as exc:  # noqa: BLE001 - an escaped exception is the finding
            if isinstance(exc, KeyboardInterrupt):
                raise
            code, exception = None, traceback.format_exc()
        for stream in streams[1:]:
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - a half-written character: keep what got out
                pass
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return Outcome(prog, list(argv), code, out_bytes.getvalue().decode("utf-8", "replace"),
                   err_bytes.getvalue().decode("utf-8", "replace"), exception)


def check_common(check: Checker, out: Outcome, partial_ok: bool = False) -> None:
    """No traceback, a documented exit code, and a refused input leaves stdout empty (unless
    ``partial_ok``) with one clear error on stderr."""
    check.expect(not out.exception, "no-traceback",
                 lambda: f"{out.prog} raised:\n{out.exception.strip().splitlines()[-1]}\n{_tail(out.exception)}")
    check.expect(TRACEBACK not in out.stderr, "no-traceback", lambda: f"traceback on stderr:\n{_tail(out.stderr)}")
    check.expect(out.code in EXIT_CODES, "exit-code", f"exit code {out.code!r} is not 0, 1 or 2")
    if out.code == 2:
        check.expect(partial_ok or not out.stdout.strip(), "exit-2-prints-nothing",
                     lambda: f"exit 2 but stdout holds {out.stdout[:200]!r}")
        check.expect("error" in out.stderr, "exit-2-says-why", lambda: f"exit 2 with stderr {out.stderr[:300]!r}")


def _tail(text: str, lines: int = 12) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def parse_output(check: Checker, out: Outcome, fmt: str):
    """Machine output parsed: a JSON document (with a top-level ``signature``), a list of JSONL
    objects, or TSV rows (lists of cells, header first, all rows as wide); None for tables."""
    text = out.stdout
    if fmt == "json":
        try:
            doc = json.loads(text, parse_constant=_no_constant)
        except ValueError as exc:
            check.fail("json-parses", f"stdout is not one strict JSON document ({exc}): {text[:300]!r}")
        check.expect(isinstance(doc, dict) and "signature" in doc, "json-parses", "JSON has no top-level signature")
        return doc
    if fmt == "jsonl":
        rows = []
        for number, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
            try:
                row = json.loads(line, parse_constant=_no_constant)
            except ValueError as exc:
                check.fail("jsonl-parses", f"stdout line {number} is not strict JSON ({exc}): {line[:200]!r}")
            check.expect(isinstance(row, dict), "jsonl-parses", f"stdout line {number} is not an object")
            rows.append(row)
        check.expect(not text or text.endswith("\n"), "jsonl-parses", "JSONL does not end with a newline")
        return rows
    if fmt == "tsv":
        check.expect(text.endswith("\n"), "tsv-parses", f"TSV does not end with a newline: {text[-100:]!r}")
        rows = [line.split("\t") for line in text[:-1].split("\n")]
        widths = {len(r) for r in rows}
        check.expect(len(widths) == 1, "tsv-parses",
                     lambda: f"TSV rows have {sorted(widths)} cells (a raw tab or newline in a cell?): "
                             f"{[r for r in rows if len(r) != len(rows[0])][:2]!r}")
        check.expect("\r" not in text, "tsv-parses", "a raw carriage return in TSV output")
        return rows
    return None


def _no_constant(name: str):
    raise ValueError(f"bare {name} is not JSON")


def same_number(a: float | None, b: float | None) -> bool:
    """Equal values (NaN/None equal to each other), up to rounding."""
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
        return (a is None or math.isnan(a)) and (b is None or math.isnan(b))
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def binary_by_rule(*files: bytes) -> bool:
    """Whether any of ``files`` is binary data by the input rule (:func:`evalcore.io.textfiles.detect_encoding`):
    a line-based file of that kind is a usage error (exit 2), whatever the plain twin gives."""
    from evalcore.io.textfiles import detect_encoding

    return any(detect_encoding(data).codec is None for data in files)


def expect_exit_like_plain(check: Checker, out: Outcome, plain: Outcome, files: Sequence[bytes],
                           lossless: bool, what: str) -> None:
    """A run on hostile ``files`` exits as its plain UTF-8 twin does when the difference is
    ``lossless``; where a file is binary data by the input rule, it is a usage error (exit 2)
    instead, whatever the twin gives."""
    if binary_by_rule(*files):  # with several files, another may be the one named first
        check.expect(out.code == 2 and (len(files) > 1 or "binary data" in out.stderr), "binary-file-is-usage-error",
                     f"exit {out.code}: {out.stderr[-200:]!r}")
    elif lossless:
        check.expect(plain.code == out.code, "lossless-same-exit-code",
                     f"exit {out.code}, but the plain UTF-8 {what} exit {plain.code}: {out.stderr[-200:]!r}")


def write(workdir: Path, name: str, data: bytes) -> str:
    """Write ``data`` to ``workdir/name`` (folders created); the path as a string."""
    path = workdir / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return str(path)
