"""Human-score files: finite numbers only, and malformed files give a message naming file:line."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.data.human import match_keys, read_human, read_judgments
from evalcore.io.textfiles import InputError
from tests.fuzz.hostile import ODD


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def test_reads_tsv_csv_and_jsonl(tmp_path):
    tsv = _write(tmp_path, "h.tsv", "\ufefftopic\tsystem\trel\tcoh\nD1\t1\t3.5\t\nD1\t2\t4\t2\n")  # Excel's BOM
    assert read_human(tsv) == {("D1", "1"): {"rel": 3.5}, ("D1", "2"): {"rel": 4.0, "coh": 2.0}}
    csv_ = _write(tmp_path, "h.CSV", "topic,system,rel\nD1,1,3\n\n")
    assert read_human(csv_) == {("D1", "1"): {"rel": 3.0}}
    jsonl = _write(tmp_path, "h.jsonl", '{"topic": "D1", "system": "1", "human": {"rel": 3}, "coh": null}\n\n'
                                        '{"topic": "D2", "system": "1", "rel": 2.5, "summary": "text"}\n')
    assert read_human(jsonl) == {("D1", "1"): {"rel": 3.0}, ("D2", "1"): {"rel": 2.5}}


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "Infinity", "-inf"])
def test_non_finite_tsv_values_are_rejected_naming_file_and_line(tmp_path, value):
    path = _write(tmp_path, "h.tsv", f"topic\tsystem\trel\nD1\t1\t3\nD1\t2\t{value}\n")
    with pytest.raises(InputError, match=rf"h\.tsv:3: rel = '{value}' is not a finite number"):
        read_human(path)


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_jsonl_values_are_rejected_naming_file_and_line(tmp_path, token):
    path = _write(tmp_path, "h.jsonl", '{"topic": "D1", "system": "1", "rel": 3}\n'
                                       f'{{"topic": "D1", "system": "2", "human": {{"rel": {token}}}}}\n')
    with pytest.raises(InputError, match=r"h\.jsonl:2: rel = .* is not a finite number"):
        read_human(path)


@pytest.mark.parametrize("line, message", [
    ("[1, 2, 3]", r"h\.jsonl:2: expected a JSON object, got list"),
    ('"just text"', r"h\.jsonl:2: expected a JSON object, got str"),
    ('{"topic": "D1", "system": "2", "human": [3, 4]}', r"h\.jsonl:2: 'human' must be an object"),
    ('{"topic": "D1", "system": "2", "rel": true}', r"h\.jsonl:2: rel = True is not a number"),
    ('{"topic": "D1", "system": "2", "rel": {"a": 1}}', r"h\.jsonl:2: rel = .* is not a number"),
    ('{"topic": "D1", "rel": 3}', r"h\.jsonl:2: needs 'topic' and 'system' \(missing system\)"),
    ('{"topic": "D1", "system": "2", "rel": 3', r"h\.jsonl:2: invalid JSON"),
])
def test_malformed_jsonl_rows_give_a_message_not_a_traceback(tmp_path, line, message):
    path = _write(tmp_path, "h.jsonl", '{"topic": "D1", "system": "1", "rel": 3}\n' + line + "\n")
    with pytest.raises(InputError, match=message):
        read_human(path)


@pytest.mark.parametrize("text, message", [
    ("topic\tsystem\trel\nD1\t1\n", r"h\.tsv:2: 2 fields, the header has 3"),
    ("topic\tsystem\trel\nD1\t1\t3\t4\n", r"h\.tsv:2: 4 fields, the header has 3"),
    ("topic,system,rel\nD1,1,3\n", r"h\.tsv:1: the header needs 'topic' and 'system' columns .*a tab"),
    ("doc\tsystem\trel\nD1\t1\t3\n", r"h\.tsv:1: the header needs .*missing topic"),
    ("topic\tsystem\trel\trel\nD1\t1\t3\t4\n", r"h\.tsv:1: column 'rel' appears more than once"),
    ("topic\tsystem\trel\n\t1\t3\n", r"h\.tsv:2: needs 'topic' and 'system' \(missing topic\)"),
    ("topic\tsystem\trel\nD1\t1\tgood\n", r"h\.tsv:2: rel = 'good' is not a number"),
])
def test_malformed_tables_give_a_message_naming_the_line(tmp_path, text, message):
    path = _write(tmp_path, "h.tsv", text)
    with pytest.raises(InputError, match=message):
        read_human(path)


def test_oversized_cell_is_an_input_error_not_a_csv_traceback(tmp_path):
    path = _write(tmp_path, "h.tsv", 'topic\tsystem\trel\nD1\t1\t"' + "x" * 200_000 + '"\n')
    with pytest.raises(InputError, match=r"h\.tsv:2: not a readable TSV file"):
        read_human(path)


def test_duplicates_empty_and_unreadable_files(tmp_path):
    with pytest.raises(InputError, match=r"h\.tsv:3: duplicate human scores"):
        read_human(_write(tmp_path, "h.tsv", "topic\tsystem\trel\nD1\t1\t3\nD1\t1\t4\n"))
    with pytest.raises(InputError, match="no human scores found"):
        read_human(_write(tmp_path, "e.jsonl", "\n\n"))
    with pytest.raises(InputError, match="not valid UTF-8"):
        (tmp_path / "b.tsv").write_bytes(b"topic\tsystem\n\xff\xfe\n")
        read_human(tmp_path / "b.tsv")
    with pytest.raises(InputError, match="cannot be read"):
        read_human(tmp_path / "missing.tsv")


def test_match_keys_counts_both_sides():
    scored: dict[tuple[str, str], dict[str, float]] = {("D1", "1"): {}, ("D1", "2"): {}, ("D2", "1"): {}}
    human: dict[tuple[str, str], dict[str, float]] = {("D1", "1"): {}, ("D2", "1"): {}, ("D3", "9"): {}}
    m = match_keys(scored, human)
    assert m.matched == [("D1", "1"), ("D2", "1")]
    assert m.only_scored == [("D1", "2")] and m.only_human == [("D3", "9")]
    assert not m.complete
    assert m.summary() == ("2 (topic, system) pairs matched; 1 scored pair without human scores "
                           "(e.g. D1/2); 1 human-scored pair not scored (e.g. D3/9)")
    assert match_keys(scored, scored).complete
    assert json.dumps(match_keys(scored, human).counts()) == '{"matched": 2, "only_scored": 1, "only_human": 1}'


def test_judgments_keyed_by_system_and_an_optional_line_column(tmp_path):
    segments = read_judgments(_write(tmp_path, "seg.tsv", "system\tseg_id\tq\tannotator\na\t1\t3\tx\na\t2\t\ty\n"),
                              keys=("system",), index=("line", "seg_id"), ignore_text_columns=True)
    assert segments.values == {("a", 1): {"q": 3.0}} and segments.unjudged == (f"{tmp_path / 'seg.tsv'}:3",)
    assert (segments.index, segments.dimensions, segments.ignored) == ("seg_id", ("q",), ("annotator",))
    systems = read_judgments(_write(tmp_path, "sys.jsonl", '{"system": "a", "q": 2}\n{"system": "b", "q": 1}\n'),
                             keys=("system",), index=("line",), ignore_text_columns=True)
    assert systems.values == {("a",): {"q": 2.0}, ("b",): {"q": 1.0}} and systems.index is None
    with pytest.raises(InputError, match=r"seg\.tsv:2: line 'x' is not a line number"):
        read_judgments(_write(tmp_path, "seg.tsv", "system\tline\tq\na\tx\t3\n"), keys=("system",), index=("line",))
    with pytest.raises(InputError, match=r"seg\.tsv:3: duplicate human scores for system 'a', line 1"):
        read_judgments(_write(tmp_path, "seg.tsv", "system\tline\tq\na\t1\t3\na\t1\t4\n"), keys=("system",),
                       index=("line",))


@pytest.mark.parametrize("inside", ["\u2028", "\x85", "\x0c", "\x1e", "\x1c", "\u2029", "\x0b"])
@pytest.mark.parametrize("delimiter, suffix", [("\t", "tsv"), (",", "csv")])
def test_only_newline_and_carriage_return_end_a_row(tmp_path, inside, delimiter, suffix):
    """Characters ``str.splitlines`` takes for line ends are text inside a cell: they split the row
    (exit 2 naming the wrong line) before."""
    rows = ["topic,system,rel", f"D1,sys{inside}1,3", "D1,2,4\r", "D2,2,5"]
    path = _write(tmp_path, f"h.{suffix}", "\n".join(rows).replace(",", delimiter) + "\n")
    assert read_human(path) == {("D1", f"sys{inside}1"): {"rel": 3.0}, ("D1", "2"): {"rel": 4.0},
                                ("D2", "2"): {"rel": 5.0}}


def test_a_row_error_names_the_line_where_the_row_starts(tmp_path):
    path = _write(tmp_path, "h.csv", 'topic,system,rel\nD1,"two\nlines",3\nD1,2,x\n')
    with pytest.raises(InputError, match=r"h\.csv:4: rel = 'x' is not a number"):
        read_human(path)


def test_a_blank_judgment_is_missing_not_matched_and_said_so(tmp_path):
    path = _write(tmp_path, "h.tsv", "topic\tsystem\trel\tcoh\nD1\t1\t\t\nD1\t2\t4\t\nD1\t3\t2\t1\n")
    judged = read_judgments(path)
    assert judged.values == {("D1", "2"): {"rel": 4.0}, ("D1", "3"): {"rel": 2.0, "coh": 1.0}}
    assert judged.unjudged == (f"{path}:2",) and judged.blank_cells == 1
    assert judged.missing_note() == (f"1 row without a judgment (blank cells: missing judgments, not matched), "
                                     f"e.g. {path}:2; 1 blank judgment cell in judged rows (missing judgments, "
                                     "left out of their dimension)")
    match = match_keys([("D1", "1"), ("D1", "2"), ("D1", "3")], judged.values)
    assert match.matched == [("D1", "2"), ("D1", "3")] and match.only_scored == [("D1", "1")]
    with pytest.raises(InputError, match=r"no human scores found \(every judgment cell is blank\)"):
        read_human(_write(tmp_path, "b.tsv", "topic\tsystem\trel\nD1\t1\t \n"))


@pytest.mark.parametrize("value, message", [
    ("1", r"h\.jsonl:2: 'system' is the number 1; ids are text in JSON: write \"system\": \"1\""),
    ("1.0", r"'system' is the number 1\.0;"),
    ("true", r"'system' must be a non-blank string, got true"),
    ('["a"]', r"'system' must be a non-blank string, got \[\"a\"\]"),
])
def test_a_json_id_is_a_string_and_a_number_is_refused_not_merged_with_its_text(tmp_path, value, message):
    """``1`` and ``"1"`` were one system; JSON keeps no spelling of a number, so a number is refused."""
    path = _write(tmp_path, "h.jsonl", f'{{"topic": "D1", "system": "1", "rel": 3}}\n'
                                       f'{{"topic": "D1", "system": {value}, "rel": 4}}\n')
    with pytest.raises(InputError, match=message):
        read_human(path)


#: the fuzzer's hostile tokens that may stand inside a cell (no delimiter, quote or line end)
CELL_TOKENS = [t for t in ODD if not set(t) & set('\t\n\r",')] + ["a", "b"]


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(names=st.lists(st.lists(st.sampled_from(CELL_TOKENS), min_size=1, max_size=4).map("".join)
                      .filter(lambda s: s.strip() and s == s.strip()), min_size=1, max_size=5, unique=True),
       delimiter=st.sampled_from(["\t", ","]), eol=st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_cell_text_but_a_line_end_reads_back_as_written(tmp_path_factory, names, delimiter, eol):
    """The hostile tokens of the fuzzer's model (U+2028, NEL, form feed, U+001E, bidi marks, ...)
    inside a judgment cell: one row per written row, keyed by the text as written."""
    path = tmp_path_factory.mktemp("h") / ("h.tsv" if delimiter == "\t" else "h.csv")
    table = [("topic", "system", "rel"), *(("D1", n, str(k)) for k, n in enumerate(names))]
    rows = [delimiter.join(row) for row in table]
    path.write_bytes(eol.join(rows).encode("utf-8") + eol.encode())
    assert read_human(path) == {("D1", n): {"rel": float(k)} for k, n in enumerate(names)}
