"""Reading line files a line at a time (:func:`evalcore.io.textfiles.iter_lines`): the lines, line
errors and refusals of :func:`decode_lines` on the whole bytes, without reading to the end."""

import io
import random

import pytest

from evalcore.io.textfiles import InputError, decode_lines, iter_lines

ALPHABET = ["a", "é", "猫", "кот", "e\u0301", " ", "\n", "\r\n", "\r", "\u2028", "\x00"]


def _both(data: bytes):
    """What decode_lines and iter_lines make of ``data`` (the InputError message where refused)."""
    out: list = []
    for read in (lambda: decode_lines(data, "f.txt"), lambda: list(iter_lines(io.BytesIO(data), "f.txt"))):
        try:
            out.append(read())
        except InputError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_iter_lines_reads_what_decode_lines_reads(encoding):
    rng = random.Random(7)
    for _ in range(200):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
        whole, streamed = _both(text.encode(encoding))
        assert streamed == whole, text


@pytest.mark.parametrize("data", [
    b"", b"\n", b"a", b"a\r\n\r\nb", b"\xef\xbb\xbf", b"\xef\xbb\xbfa\nb\n", b"ok\n\xe9t\xe9\nok",
    bytes(range(256)) * 8,
    ("ligne é\r\n" * 20000).encode(),  # lines across the head read to detect the encoding
    ("ligne é\n" * 20000).encode() + b"caf\xe9",  # an undecodable last line, no final newline
    "\ufeffzeile 猫\r\n".encode("utf-16-le") + ("zeile 猫\r\n" * 20000).encode("utf-16-le"),
    ("zeile 猫\n" * 20000).encode("utf-16-le") + b"\x00",  # odd length: refused, naming the byte
    ("zeile 猫\n" * 9000).encode("utf-16-le") + b"\x00\xd8a\x00" + "b\n".encode("utf-16-le") * 9000,  # lone surrogate
])
def test_long_files_errors_and_refusals_are_those_of_the_whole_bytes(data):
    whole, streamed = _both(data)
    assert streamed == whole


class _Counted(io.BytesIO):
    """A stream that counts the bytes read from it."""

    read_bytes = 0

    def read(self, size=-1):
        data = super().read(size)
        self.read_bytes += len(data)
        return data

    def readline(self, size=-1):
        data = super().readline(size)
        self.read_bytes += len(data)
        return data


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_lines_are_given_as_they_are_read_not_after_the_whole_file(encoding):
    stream = _Counted(("a line of some length, é\n" * 200_000).encode(encoding))  # 5-10 MB
    lines = iter_lines(stream, "big.txt")
    first = [next(lines) for _ in range(10)]
    assert first == ["a line of some length, é"] * 10
    assert stream.read_bytes < 200_000  # the head that names the encoding and a block, not the file
    assert sum(1 for _ in lines) == 200_000 - 10
