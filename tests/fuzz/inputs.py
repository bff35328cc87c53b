"""Fuzz target ``read-once``: how an input reaches ``mteval score`` or ``summeval score -i`` never
changes what is scored (docs/input-rule.md, "Reading a file twice").

Each case writes a test set (or a JSON Lines file) and hands each file over as a regular file, a
named pipe (FIFO), a pipe read through ``/proc/self/fd/N`` (what ``<(...)`` gives) or standard
input; now and then one stream is named twice, a regular file is changed between the checking and
the scoring pass or while the scoring pass reads it (cut, appended to, edited in place keeping its
size and modification time, replaced, touched), or a hundred systems are scored under a lowered
``ulimit -n``. Properties:

- a stream reads as the file: the exit code and every number are those of the run on regular
  files (``stream-reads-as-file``);
- one stream given twice is a usage error saying so (``one-stream-two-inputs``);
- a file that changed is exit 2 naming it ("the file changed while it was read"), never fewer or
  more items; before any output when the change comes between the passes
  (``changed-file-is-an-error``);
- many files under a low ``ulimit -n`` score as they do without it (``many-files``).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.harness import Checker, Outcome, parse_output, same_number, write
from tests.fuzz.hostile import encode_file, file_spec, hostile_line, plain_words

DELIVERIES = ("file", "file", "fifo", "pipe", "stdin")
CHANGES = ("truncate", "append", "edit", "replace", "touch")
#: seconds a run may take before it counts as hung (a FIFO opened twice blocks for ever)
HUNG = 120
#: descriptors left free above those open when a many-files case runs
SPARE_FDS = 32


@st.composite
def read_once_case(draw) -> dict:
    """A test set or JSON Lines file, how each file is handed over, and now and then a stream
    named twice, a change to a file between or during the passes, or many systems."""
    command = draw(st.sampled_from(("mteval", "mteval", "summeval")))
    if command == "mteval" and draw(st.integers(0, 9)) == 0:
        return {"command": "mteval", "many": draw(st.integers(65, 130)), "deliveries": [], "dup": None,
                "change": None}
    if command == "mteval":
        n = draw(st.integers(1, 5))
        lines = st.lists(hostile_line(), min_size=n, max_size=n)
        files = [draw(file_spec(lines, raw=False)) for _ in range(draw(st.integers(1, 2)))]
        n_refs = len(files)
        files += [draw(file_spec(lines, raw=False)) for _ in range(draw(st.integers(1, 3)))]
    else:
        n_refs = 0
        keys = draw(st.lists(st.tuples(st.sampled_from(("D1", "D2", "D3")), st.sampled_from(("A", "B", "C"))),
                             min_size=1, max_size=6, unique=True))
        rows = [json.dumps({"topic": t, "system": s, "summary": " ".join(draw(plain_words(2, 10))),
                            "references": [" ".join(draw(plain_words(2, 10)))]}) for t, s in keys]
        files = [{"lines": rows, "enc": "utf-8", "eol": draw(st.sampled_from(("\n", "\r\n", "\r"))),
                  "final": draw(st.booleans())}]
    deliveries = [draw(st.sampled_from(DELIVERIES)) for _ in files]
    if deliveries.count("stdin") > 1:  # standard input is one input
        first = deliveries.index("stdin")
        deliveries = [d if d != "stdin" or k == first else "pipe" for k, d in enumerate(deliveries)]
    streams = [k for k, d in enumerate(deliveries) if d != "file"]
    dup = draw(st.sampled_from(streams)) if command == "mteval" and streams and draw(st.integers(0, 7)) == 0 else None
    regular = [k for k, d in enumerate(deliveries) if d == "file"]
    change = None
    if dup is None and regular and draw(st.integers(0, 2)) == 0:
        change = {"file": draw(st.sampled_from(regular)), "when": draw(st.sampled_from(("between", "during"))),
                  "how": draw(st.sampled_from(CHANGES))}
    return {"command": command, "files": files, "n_refs": n_refs, "deliveries": deliveries, "dup": dup,
            "change": change, "format": draw(st.sampled_from(("json", "jsonl", "tsv", "table"))),
            "segments": draw(st.booleans())}


# ---- handing files over ---------------------------------------------------------------------------

class Feeds:
    """The streams of one run: FIFOs and pipes written by threads, released and joined at the end
    (a command that refused early never opened them)."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []
        self.fifos: list[tuple[Path, threading.Thread]] = []
        self.read_ends: list[int] = []

    def fifo(self, path: Path, data: bytes) -> str:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        self.fifos.append((path, self._start(lambda: _write_to(open(path, "wb"), data))))
        return str(path)

    def pipe(self, data: bytes) -> str:
        read, write_end = os.pipe()
        self.read_ends.append(read)
        self._start(lambda: _write_to(os.fdopen(write_end, "wb"), data))
        return f"/proc/self/fd/{read}"

    def _start(self, target) -> threading.Thread:
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        self.threads.append(thread)
        return thread

    def close(self) -> None:
        """Release writers nobody read from (a FIFO opened and drained here, a pipe's last read
        end closed), then join them."""
        for fd in self.read_ends:
            os.close(fd)
        for path, writer in self.fifos:
            if not writer.is_alive():
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            except OSError:
                continue
            deadline = time.monotonic() + 10
            while writer.is_alive() and time.monotonic() < deadline:
                try:
                    if not os.read(fd, 1 << 16):
                        time.sleep(0.01)
                except BlockingIOError:
                    time.sleep(0.01)
            os.close(fd)
        for thread in self.threads:
            thread.join(10)


def _write_to(stream, data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError, OSError), stream:
        stream.write(data)


def _hand_over(workdir: Path, case: dict, data: list[bytes], names: list[str], feeds: Feeds) -> tuple[list[str], bytes]:
    """The path of each file as the case hands it over, and the bytes standard input carries."""
    paths, stdin = [], b""
    for k, (delivery, blob, name) in enumerate(zip(case["deliveries"], data, names)):
        if delivery == "file":
            paths.append(write(workdir, f"case/{name}", blob))
        elif delivery == "fifo":
            paths.append(feeds.fifo(workdir / "fifo" / name, blob))
        elif delivery == "pipe":
            paths.append(feeds.pipe(blob))
        else:
            paths.append("-")
            stdin = blob
        if case.get("dup") == k:
            paths.append(paths[-1])
    return paths, stdin


# ---- changing a file ------------------------------------------------------------------------------

def _mutate(path: Path, how: str) -> bool:
    """Change ``path`` as ``how`` says; whether anything about it changed."""
    before = path.stat()
    data = path.read_bytes()
    if how == "truncate":
        if not data:
            return False
        path.write_bytes(data[:len(data) // 2])
    elif how == "append":
        with open(path, "ab") as f:
            f.write(b"the council met again\n")
    elif how == "edit":  # the same size and modification time: only the digest can tell
        if not data:
            return False
        k = len(data) // 2
        path.write_bytes(data[:k] + (b"x" if data[k:k + 1] != b"x" else b"y") + data[k + 1:])
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    elif how == "replace":
        fresh = path.with_name(path.name + ".new")
        fresh.write_bytes(data)
        os.replace(fresh, path)
    else:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
    return True


@contextlib.contextmanager
def changing(target: str, when: str, how: str) -> Iterator[dict]:
    """While a command runs: change ``target`` once, right after its first reading ends
    (``between``) or right after its second reading opened it (``during``). Yields
    ``{"changed": bool}``."""
    from evalcore.io import sources

    state = {"opens": 0, "changed": False, "done": False}
    original_open, original_finished = sources.InputFile.open, sources.InputFile._finished

    def mutate() -> None:
        if not state["done"]:
            state["done"] = True
            state["changed"] = _mutate(Path(target), how)

    def open_(self):
        stream = original_open(self)
        if self.path == target:
            state["opens"] += 1
            if when == "during" and state["opens"] == 2:
                mutate()
        return stream

    def finished(self, reader):
        original_finished(self, reader)
        if self.path == target and when == "between":
            mutate()

    setattr(sources.InputFile, "open", open_)  # noqa: B010 - patched for the run, as monkeypatch does
    setattr(sources.InputFile, "_finished", finished)  # noqa: B010
    try:
        yield state
    finally:
        setattr(sources.InputFile, "open", original_open)  # noqa: B010
        setattr(sources.InputFile, "_finished", original_finished)  # noqa: B010


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """A run that takes longer raises TimeoutError in it (the harness reports it as escaped)."""
    def hung(signum, frame):
        raise TimeoutError(f"the command ran for {seconds} s: hung (a stream opened twice?)")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _few_descriptors() -> Iterator[int]:
    """``ulimit -n`` lowered to the descriptors open now and :data:`SPARE_FDS` more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = len(os.listdir("/proc/self/fd")) + SPARE_FDS
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(limit, soft), hard))
    try:
        yield limit
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# ---- the check ------------------------------------------------------------------------------------

def _argv(case: dict, paths: list[str], fmt: str, segments: bool) -> list[str]:
    if case["command"] == "summeval":
        return ["score", "-i", paths[0], "-m", "rouge-1", "--format", fmt]
    refs, hyps = paths[:case["n_refs"]], paths[case["n_refs"]:]
    return ["score", *(a for r in refs for a in ("-r", r)), "-i", *hyps, "-m", "bleu", "-m", "chrf", "--format", fmt,
            *(["--segments"] if segments else [])]


def _names(case: dict) -> list[str]:
    if case["command"] == "summeval":
        return ["summaries.jsonl"]
    return [f"ref{k + 1}.txt" if k < case["n_refs"] else f"sys{k - case['n_refs'] + 1}.txt"
            for k in range(len(case["files"]))]


def _numbers(check: Checker, out: Outcome, command: str) -> object:
    """What a JSON run scored, free of names and paths: per system (in order) its scores and lines,
    per segment its scores (mteval); per (topic, system) its scores (summeval)."""
    doc = parse_output(check, out, "json")
    if command == "summeval":
        return sorted((r["topic"], r["system"], sorted(r.get("scores", {}).items()), sorted(r.get("errors", {})))
                      for r in doc["summaries"])
    order = {s["system"]: k for k, s in enumerate(doc["systems"])}
    systems = [(s["lines"], sorted(s["scores"].items()), sorted(s["scored"].items())) for s in doc["systems"]]
    segments = sorted((order[g["system"]], g["line"], sorted(g.get("scores", {}).items()), sorted(g.get("errors", {})))
                      for g in doc.get("segments", []))
    return systems, segments


def _same(a: object, b: object) -> bool:
    """Equal structures, numbers up to rounding."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float) or a is None or b is None:
        if a is None or b is None:
            return a is None and b is None
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and same_number(float(a), float(b))
    return a == b


def check_read_once(case: dict, workdir: Path) -> None:
    check = Checker(workdir)
    if case.get("many"):
        _check_many(check, case, workdir)
        return
    names = _names(case)
    data = [encode_file(spec) for spec in case["files"]]
    plain = [write(workdir, f"plain/{name}", blob) for name, blob in zip(names, data)]
    baseline = check.run(case["command"], _argv(case, plain, "json", True))
    feeds = Feeds()
    change: dict = case.get("change") or {}
    fmt, segments = ("json", True) if not change else (case["format"], case["segments"])
    try:
        paths, stdin = _hand_over(workdir, case, data, names, feeds)
        target = paths[change["file"]] if change else ""  # a change comes only without a stream named twice
        with _deadline(HUNG), (changing(target, change["when"], change["how"]) if change
                               else contextlib.nullcontext({"changed": False})) as state:
            partial = bool(change) and change["when"] == "during"
            out = check.run(case["command"], _argv(case, paths, fmt, segments), stdin, partial_ok=partial)
    finally:
        feeds.close()
    detail = f"deliveries {case['deliveries']}, dup {case['dup']}, change {change}"
    if case["dup"] is not None:
        check.expect(out.code == 2 and "are one stream, which can be read once" in out.stderr, "one-stream-two-inputs",
                     f"{detail}: exit {out.code}, stderr {out.stderr[-300:]!r}")
        return
    if state["changed"]:
        if baseline.code == 2:  # refused for what it holds, maybe before the change could be seen
            check.expect(out.code == 2, "changed-file-is-an-error", f"{detail}: exit {out.code}")
            return
        check.expect(out.code == 2 and f"{target}: the file changed while it was read" in out.stderr,
                     "changed-file-is-an-error", f"{detail}: exit {out.code}, stderr {out.stderr[-300:]!r}")
        if change["when"] == "between":
            check.expect(out.stdout == "", "changed-file-is-an-error", f"{detail}: output before the refusal")
        return
    check.expect(out.code == baseline.code, "stream-reads-as-file",
                 f"{detail}: exit {out.code}, as regular files {baseline.code}: {out.stderr[-300:]!r}")
    if out.code != 2 and fmt == "json":
        got, want = _numbers(check, out, case["command"]), _numbers(check, baseline, case["command"])
        check.expect(_same(got, want), "stream-reads-as-file", f"{detail}: scores {got!r}, as regular files {want!r}")


def _check_many(check: Checker, case: dict, workdir: Path) -> None:
    ref = write(workdir, "many/ref.txt", b"the council approved the budget\nthe minister said\n")
    systems = [write(workdir, f"many/sys{k:03d}.txt", f"the council approved {k}\nthe minister {k} said\n".encode())
               for k in range(case["many"])]
    argv = ["score", "-r", ref, "-i", *systems, "-m", "bleu", "--format", "json", "--segments"]
    baseline = check.run("mteval", argv)
    with _deadline(HUNG), _few_descriptors() as limit:
        out = check.run("mteval", argv)
    check.expect(out.code == baseline.code, "many-files",
                 f"{case['many']} systems under ulimit -n {limit}: exit {out.code}, without the limit "
                 f"{baseline.code}: {out.stderr[-300:]!r}")
    if out.code != 2:
        got, want = _numbers(check, out, "mteval"), _numbers(check, baseline, "mteval")
        check.expect(_same(got, want), "many-files", f"{case['many']} systems under ulimit -n {limit}: other scores")
