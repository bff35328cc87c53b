"""Reading line-aligned test files: bad lines become messages naming file and line, never a
silent drop; files that cannot be aligned are refused with both names."""

import pytest

from evalcore.io.textfiles import InputError
from mteval.io import LineFile, check_aligned, iter_segments, read_segments


def test_lines_with_final_newline_crlf_and_bom(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes("\ufefffirst line\r\nsecond\u2028part\n".encode())  # U+2028 is no line break here
    seg = read_segments(path)
    assert seg.lines == ("first line", "second\u2028part") and not seg.errors


def test_empty_and_undecodable_lines_are_named(tmp_path):
    path = tmp_path / "hyp.txt"
    path.write_bytes(b"good\n\n  \nbad \xff byte\nlast")
    seg = read_segments(path)
    assert seg.lines == ("good", None, None, None, "last")
    assert seg.errors[1] == f"{path}:2: empty line" and seg.errors[2] == f"{path}:3: empty line"
    assert seg.errors[3].startswith(f"{path}:4: not valid UTF-8")


def test_an_empty_file_is_refused(tmp_path):
    (tmp_path / "e.txt").write_bytes(b"")
    with pytest.raises(InputError, match="no lines"):
        read_segments(tmp_path / "e.txt")


def test_mismatched_line_counts_name_both_files(tmp_path):
    (tmp_path / "ref.txt").write_text("a\nb\nc\n")
    (tmp_path / "hyp.txt").write_text("a\nb\n")
    for read in (read_segments, LineFile):
        with pytest.raises(InputError) as err:
            check_aligned([read(tmp_path / "ref.txt"), read(tmp_path / "hyp.txt")])
        assert "hyp.txt has 2 lines" in str(err.value) and "ref.txt has 3" in str(err.value)
        assert "ends at line 2" in str(err.value)


def test_a_bad_reference_line_costs_only_that_segment(tmp_path):
    (tmp_path / "ref.txt").write_text("one\n\nthree\n")
    (tmp_path / "hyp.txt").write_text("uno\ndos\ntres\n")
    segs = [line[0] for line in iter_segments([LineFile(tmp_path / "hyp.txt")], [LineFile(tmp_path / "ref.txt")])]
    assert [s.item is not None for s in segs] == [True, False, True]
    assert segs[1].error == f"{tmp_path / 'ref.txt'}:2: empty line"
    third = segs[2].item
    assert third is not None and third.references == ("three",) and third.id == f"{tmp_path / 'hyp.txt'}:3"
