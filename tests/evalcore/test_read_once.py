"""Inputs are read once and right (issue 38, items 1-6; docs/input-rule.md, "Reading a file twice"):
a stream (FIFO, pipe, /dev/stdin, process substitution) is copied once and read twice from the
copy; a regular file that changes between the checking and the scoring pass is an error naming it,
never fewer or more items; a thousand files need a few file descriptors; one stream is not two
inputs; LF, CRLF and CR end lines in every reader alike."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import evalcore.data.jsonl
from evalcore.io.sources import InputFile, check_distinct_streams, lines_in_step
from evalcore.io.textfiles import InputError, decode_lines, split_lines
from mteval.io import LineFile
from parapeval.io import read_pairs

ROOT = Path(__file__).resolve().parents[2]
REFS = ["the cat sat on the mat", "the dog ran far", "a house fell", "the market rose sharply",
        "water price rose", "the city said yes", "new report said no", "the vote was held"]
HYPS = ["the cat sat on a mat", "the dog ran away", "a house fell", "the market fell sharply",
        "water price rose", "the city said no", "the new report said no", "the vote held"]


def _run(args: list[str], stdin: bytes | None = None, timeout: float = 60, preexec=None, shell: bool = False):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(args if not shell else ["bash", "-c", args[0]], input=stdin, capture_output=True,
                          timeout=timeout, env=env, cwd=ROOT, preexec_fn=preexec)


def _mteval(*args: str) -> list[str]:
    return [sys.executable, "-m", "mteval", "score", "-m", "bleu", "--format", "tsv", *args]


@pytest.fixture
def testset(tmp_path):
    (tmp_path / "ref.txt").write_text("\n".join(REFS) + "\n", "utf-8")
    (tmp_path / "hyp.txt").write_text("\n".join(HYPS) + "\n", "utf-8")
    return tmp_path


def _bleu(out: bytes | str) -> str:
    """The BLEU cell of a one-system TSV."""
    rows = (out.decode() if isinstance(out, bytes) else out).splitlines()
    assert len(rows) == 2, out
    return rows[1].split("\t")[1]


def _in_process(capsys, *args: str) -> tuple[int, str, str]:
    """``mteval score -m bleu --format tsv ARGS`` run here: (exit code, stdout, stderr)."""
    from mteval.cli import main

    code = main(["score", "-m", "bleu", "--format", "tsv", *args])
    out, err = capsys.readouterr()
    return code, out, err


# ---- 1, 2: streams -----------------------------------------------------------------------------------

def _feed_fifo(path: Path, data: bytes) -> threading.Thread:
    def write() -> None:
        with open(path, "wb") as fifo:  # blocks until the command opens the FIFO to read
            fifo.write(data)
    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def test_fifos_are_read_once_and_scored(testset, capsys):
    for name in ("ref", "hyp"):
        os.mkfifo(testset / f"{name}.fifo")
        _feed_fifo(testset / f"{name}.fifo", (testset / f"{name}.txt").read_bytes())
    got = _run(_mteval("-r", str(testset / "ref.fifo"), "-i", str(testset / "hyp.fifo")), timeout=60)
    assert got.returncode == 0, got.stderr  # before: the second open of a FIFO blocked for ever
    assert _bleu(got.stdout) == _bleu(_in_process(capsys, "-r", str(testset / "ref.txt"), "-i",
                                                  str(testset / "hyp.txt"))[1])


def test_process_substitution_and_dev_stdin_of_a_pipe_read_as_files(testset, capsys):
    got = _run([f"cat {testset}/hyp.txt | {sys.executable} -m mteval score -m bleu --format tsv "
                f"-r <(cat {testset}/ref.txt) -i /dev/stdin"], shell=True)
    assert got.returncode == 0, got.stderr  # before: "the files changed while they were read", exit 2
    assert _bleu(got.stdout) == _bleu(_in_process(capsys, "-r", str(testset / "ref.txt"), "-i",
                                                  str(testset / "hyp.txt"))[1])


def test_summeval_reads_a_process_substitution(tmp_path, capsys):
    from summeval.cli import main

    rows = [{"topic": f"d{t}", "system": f"S{s}", "summary": "the cat sat on the mat", "references": ["a cat sat"]}
            for t in range(2) for s in range(2)]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    substituted = _run([f"{sys.executable} -m summeval score -m rouge-1 --format tsv -i <(cat {path})"], shell=True)
    assert substituted.returncode == 0, substituted.stderr  # before: "File or stream is not seekable."
    assert main(["score", "-m", "rouge-1", "--format", "tsv", "-i", str(path)]) == 0
    plain = capsys.readouterr().out
    assert substituted.stdout.decode() == plain and len(plain.splitlines()) == 5


def test_a_stream_is_copied_once_and_the_copy_removed(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _feed_fifo(fifo, b"one\r\ntwo\n")
    file = InputFile(fifo)
    assert [line.text for line in file.lines()] == ["one", "two"]
    assert [line.text for line in file.lines()] == ["one", "two"]  # the copy: the FIFO is empty now
    copy = file._spool
    assert copy and Path(copy).exists()
    file.close()
    assert not Path(copy).exists()


# ---- 3: a file that changes between the passes -------------------------------------------------------

def _jsonl(path: Path, n: int) -> list[dict]:
    rows = [{"topic": f"d{k % 5}", "system": f"S{k // 5}", "summary": f"the cat sat on mat {k}",
             "references": ["the cat sat on the mat"]} for k in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return rows


def _after_check(monkeypatch, change) -> None:
    """Run ``change`` once summeval's checking pass is over (before its scoring pass)."""
    check = evalcore.data.jsonl.check_jsonl

    def checked_then_changed(*args, **kwargs):
        summary = check(*args, **kwargs)
        change()
        return summary
    monkeypatch.setattr(evalcore.data.jsonl, "check_jsonl", checked_then_changed)


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:data.index(b"\n", len(data) // 2) + 1])


def _append_existing(path: Path) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"topic": "d0", "system": "S0", "summary": "again", "references": ["x"]}) + "\n")


@pytest.mark.parametrize("change", [_truncate, _append_existing])
def test_summeval_refuses_a_file_changed_after_the_check_before_any_output(tmp_path, monkeypatch, capsys, change):
    from summeval.cli import main

    path = tmp_path / "in.jsonl"
    _jsonl(path, 40)
    _after_check(monkeypatch, lambda: change(path))
    code = main(["score", "-i", str(path), "-m", "rouge-1", "--format", "tsv"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""  # before: exit 0 with 20 of 40 summaries, or a 41st row
    assert f"{path}: the file changed while it was read" in err


def test_an_edit_that_keeps_size_and_time_is_found_by_the_digest(tmp_path, monkeypatch, capsys):
    from summeval.cli import main

    path = tmp_path / "in.jsonl"
    _jsonl(path, 40)

    def same_size_and_time() -> None:
        stat = path.stat()
        path.write_bytes(path.read_bytes().replace(b"mat 7", b"hat 7"))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    _after_check(monkeypatch, same_size_and_time)
    code = main(["score", "-i", str(path), "-m", "rouge-1", "--format", "jsonl"])
    err = capsys.readouterr().err
    assert code == 2 and f"{path}: the file changed while it was read (its content differs" in err


def test_a_line_broken_since_the_check_is_the_files_change_not_bad_json(tmp_path):
    path = tmp_path / "in.jsonl"
    _jsonl(path, 10)
    file = InputFile(path)
    evalcore.data.jsonl.check_jsonl(file)
    stat = path.stat()
    path.write_bytes(path.read_bytes().replace(b'"system"', b'"system ', 1).replace(b"{", b"[", 2))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same size and time: only the content tells
    with pytest.raises(InputError, match="in.jsonl: the file changed while it was read .its content differs"):
        list(evalcore.data.jsonl.iter_jsonl(file))  # before: "in.jsonl:1: invalid JSON"


def test_bytes_appended_during_the_scoring_pass_are_not_read(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(b"a\nb\nc\n")
    file = InputFile(path)
    assert len(list(file.lines())) == 3
    lines = file.lines()
    first = next(lines)
    with open(path, "ab") as f:
        f.write(b"d\n")
    with pytest.raises(InputError, match="its size went from 6 to 8 bytes"):
        rest = list(lines)
    assert first.text == "a" and "rest" not in locals()


def test_the_digest_is_the_digest_of_the_bytes(tmp_path):
    path = tmp_path / "f.txt"
    data = "één\r\ntwee\rdrie".encode("utf-16")
    path.write_bytes(data)
    file = InputFile(path)
    assert [line.text for line in file.lines()] == ["één", "twee", "drie"]
    assert file.checked is not None and file.checked.digest == hashlib.blake2b(data, digest_size=16).hexdigest()


# ---- 4: many files -----------------------------------------------------------------------------------

def _nofile(limit: int):
    def preexec() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
    return preexec


def test_1100_systems_under_ulimit_1024(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\nthe dog ran far\n", "utf-8")
    systems = []
    for s in range(1100):
        path = tmp_path / f"sys{s:04d}.txt"
        path.write_text(f"the cat sat on mat {s}\nthe dog ran\n", "utf-8")
        systems.append(str(path))
    got = _run(_mteval("-r", str(tmp_path / "ref.txt"), "-i", *systems, "--segments"), preexec=_nofile(1024),
               timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]  # before: "Too many open files"
    rows = got.stdout.decode().splitlines()
    assert len(rows) == 1 + 1100 * 2
    assert [r.split("\t")[0] for r in rows[1::2]] == [Path(p).name for p in systems]  # in system order


def test_lines_in_step_of_many_files_holds_few_open(tmp_path):
    files = []
    for s in range(200):
        path = tmp_path / f"f{s}.txt"
        path.write_text("".join(f"{s} {k}\n" for k in range(50)), "utf-8")
        files.append(InputFile(path))
    for f in files:
        list(f.lines())
    before = len(os.listdir("/proc/self/fd"))
    rows = lines_in_step(files)
    first = next(rows)
    assert len(os.listdir("/proc/self/fd")) <= before + 1
    got = [first, *rows]
    assert len(got) == 50 and [line.text for line in got[7][:3]] == ["0 7", "1 7", "2 7"]


# ---- 5: one stream, two inputs -------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["-r", "-", "-i", "-"], ["-r", "/dev/stdin", "-i", "-"]])
def test_one_stream_is_not_two_inputs(monkeypatch, capsys, args):
    read, write = os.pipe()
    os.write(write, "\n".join(HYPS).encode())
    os.close(write)
    with open(read, "rb") as pipe:
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": pipe, "fileno": pipe.fileno})())
        if "/dev/stdin" in args:
            args = [f"/proc/self/fd/{pipe.fileno()}" if a == "/dev/stdin" else a for a in args]
        code, out, err = _in_process(capsys, *args)
    assert code == 2 and out == ""
    assert "are one stream, which can be read once" in err  # before: "no lines to score"


def test_standard_input_is_one_input_even_from_a_file(tmp_path, monkeypatch):
    with open(tmp_path / "in.txt", "wb+") as regular:  # `< file`: read as a stream all the same
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": regular, "fileno": regular.fileno})())
        with pytest.raises(InputError, match="-r - and -i - are one stream"):
            check_distinct_streams([("-r", "-"), ("-i", "-")])


def test_a_regular_file_may_be_named_twice(testset):
    check_distinct_streams([("-r", testset / "ref.txt"), ("-i", testset / "ref.txt")])


def test_every_i_counts(testset, capsys):
    """`-i a -i b` scored only b (argparse kept the last); a command of one input refuses a second."""
    (testset / "hyp2.txt").write_text("\n".join(REFS) + "\n", "utf-8")
    code, out, _ = _in_process(capsys, "-r", str(testset / "ref.txt"), "-i", str(testset / "hyp.txt"),
                               "-i", str(testset / "hyp2.txt"))
    assert code == 0 and [row.split("\t")[0] for row in out.splitlines()[1:]] == ["hyp.txt", "hyp2.txt"]
    from summeval.cli import main

    with pytest.raises(SystemExit) as refused:
        main(["score", "-i", str(testset / "a.jsonl"), "-i", str(testset / "b.jsonl")])
    assert refused.value.code == 2 and "-i is given twice" in capsys.readouterr().err


# ---- 6: one line-end rule ------------------------------------------------------------------------------

ENDINGS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_reader_splits_lines_alike(tmp_path, ending):
    eol = ENDINGS[ending]
    pairs = [f"the cat sat number {k}\ta cat sat number {k}" for k in range(5)]
    text = eol.join(pairs) + eol
    assert split_lines(text) == pairs
    assert decode_lines(text.encode("utf-8"), "f") == pairs
    assert decode_lines(text.encode("utf-16"), "f") == pairs
    path = tmp_path / "pairs.tsv"
    path.write_bytes(text.encode("utf-8"))
    assert [line.text for line in InputFile(path).lines()] == pairs
    assert len(LineFile(path)) == 5
    records = read_pairs(path)  # before: CR-only was "no pairs"
    assert [(r.original, r.paraphrase) for r in records] == [tuple(p.split("\t")) for p in pairs]


def test_cr_only_segments_score_as_lf(testset, capsys):
    (testset / "hyp-cr.txt").write_bytes("\r".join(HYPS).encode() + b"\r")
    lf = _in_process(capsys, "-r", str(testset / "ref.txt"), "-i", str(testset / "hyp.txt"))
    cr = _in_process(capsys, "-r", str(testset / "ref.txt"), "-i", str(testset / "hyp-cr.txt"))
    assert cr[0] == 0 and _bleu(cr[1]) == _bleu(lf[1])  # before: 8 segments read as 1


@pytest.mark.parametrize("data, lines", [
    (b"a\r\r\nb", ["a", "", "b"]),          # a CR, then a CRLF
    (b"a\n\rb\r", ["a", "", "b"]),          # an LF, then a CR
    # U+2028, NEL, VT and FF end no line
    ("one\u2028two\x85three\x0bfour\x0cfive\r".encode(), ["one\u2028two\x85three\x0bfour\x0cfive"]),
])
def test_only_lf_crlf_and_cr_end_lines(data, lines):
    assert decode_lines(data, "f") == lines


class _Arriving:
    """A stream whose bytes arrive in the given pieces (``read1`` gives one a call)."""

    def __init__(self, *pieces: bytes):
        self.pieces = list(pieces)
        self.calls = 0

    def read1(self, n: int) -> bytes:
        self.calls += 1
        return self.pieces.pop(0) if self.pieces else b""


def test_a_stream_answers_a_cr_line_at_once_and_reads_crlf_as_one_end():
    from mteval.stream import read_lines

    stream = _Arriving(b"1\tone\r", b"\n2\ttwo\r", b"3\tthree\n", b"4\tfour")
    lines = read_lines(stream)  # type: ignore[arg-type]  # a stand-in for standard input
    assert next(lines) == b"1\tone" and stream.calls == 1  # no wait for what comes after the CR
    assert list(lines) == [b"2\ttwo", b"3\tthree", b"4\tfour"]  # before: CR-only lines were one line


def test_the_row_spool_keeps_each_systems_rows_in_order_over_many_flushes(monkeypatch):
    import io

    import mteval.cli

    monkeypatch.setattr(mteval.cli, "SPOOL_BYTES", 10)  # a flush every row or two
    with mteval.cli.RowSpool() as spool:
        for line in range(5):
            for system in (3, 1, 2):
                spool.write(system, f"s{system} line {line}\n")
        out = io.StringIO()
        spool.copy_to(out)
    assert out.getvalue() == "".join(f"s{s} line {k}\n" for s in (1, 2, 3) for k in range(5))
