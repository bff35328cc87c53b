"""Fuzz target of ``parapeval score``: hostile TSV and JSONL pair files (broken JSON, missing and
extra columns, quotes, escaped surrogates, odd encodings and line ends)."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.compare import compare_runs
from tests.fuzz.harness import Checker, expect_exit_like_plain, parse_output, write
from tests.fuzz.hostile import canonical, encode_file, hostile_line, is_foreign, rule_lines

FORMATS = ("json", "jsonl", "tsv", "table")
BROKEN_JSON = ('{"original": "a cat", "paraphrase": ', "[1, 2]", "null", '"a string"', '{"original": 1, "paraphrase": '
                                                                                       '2}',
               '{"original": "the cat sat"}', '{"paraphrase": "x", "original": null}', "{'original': 'a'}",
               '{"original": "a", "paraphrase": "b", "original": "c"}', '{"original": NaN, "paraphrase": "b"}',
               '{"original": "\\ud800 lone", "paraphrase": "the cat \\udcff"}', "{}", "}", "\ufeff{}")


@st.composite
def tsv_row(draw) -> str:
    kind = draw(st.sampled_from(("pair",) * 6 + ("one", "four", "quoted", "empty-cols")))
    original, paraphrase, system = draw(hostile_line()), draw(hostile_line()), draw(st.sampled_from(("A", "B", "sys C",
                                                                                                     "")))
    if kind == "one":
        return original
    if kind == "four":
        return "\t".join((original, paraphrase, system, "extra"))
    if kind == "quoted":
        return f'"{original}\t{paraphrase}"\t"{system}"'
    if kind == "empty-cols":
        return "\t\t"
    return "\t".join((original, paraphrase, system))


@st.composite
def jsonl_row(draw) -> str:
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(BROKEN_JSON))
    obj = {"original": draw(hostile_line()), "paraphrase": draw(hostile_line())}
    if draw(st.booleans()):
        obj["system"] = draw(st.sampled_from(("A", "B", "", 3)))
    if draw(st.integers(0, 3)) == 0:
        obj["id"] = draw(st.sampled_from(("x1", 7, "a\tb", None)))
    return json.dumps(obj, ensure_ascii=draw(st.booleans()))


@st.composite
def pairs_case(draw) -> dict:
    jsonl = draw(st.booleans())
    rows = draw(st.lists(jsonl_row() if jsonl else tsv_row(), max_size=6))
    if not jsonl and draw(st.booleans()):
        rows.insert(0, "original\tparaphrase\tsystem")
    if rows and draw(st.integers(0, 4)) == 0:
        rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(("", "   ", "\t"))))
    spec = {"lines": rows,
            "enc": draw(st.sampled_from(("utf-8",) * 6 + ("utf-8-sig", "utf-16", "utf-16-le", "latin-1"))),
            "eol": draw(st.sampled_from(("\n", "\n", "\r\n", "\r"))), "final": draw(st.booleans())}
    if draw(st.integers(0, 19)) == 0:
        spec = {"raw": draw(st.binary(max_size=120)).decode("latin-1")}
    return {"spec": spec, "jsonl": jsonl, "format": draw(st.sampled_from(FORMATS)),
            "system_field": draw(st.booleans()), "stdin": draw(st.integers(0, 9)) == 0,
            "jobs": draw(st.integers(0, 7)) == 0}


def _argv(path: str, case: dict, fmt: str, resources: list[str]) -> list[str]:
    return ["score", "-i", path, "--format", fmt, *(["--system-field", "system"] if case["system_field"] else []),
            *resources]


def item_results(check: Checker, doc: dict, spec: dict | None, data: bytes | None) -> dict:
    """Input line -> {"pem": value or None} of a JSON document, after checking that every
    non-blank line but a header has exactly one row with a value or an error."""
    rows: dict = {}
    for row in doc["items"]:
        match = re.search(r":(\d+)", row["item"])
        if match is None:
            check.fail("error-names-item", f"row item {row['item']!r} names no line")
        line = int(match.group(1))
        check.expect(line not in rows, "every-item-reported", f"two rows for line {line}")
        for name, result in row.items():
            if isinstance(result, dict):
                check.expect(("error" in result) != (result.get("value") is not None), "score-or-error",
                             f"line {line} {name}: {result!r}")
        rows[line] = {name: result.get("value") for name, result in row.items() if isinstance(result, dict)}
    failed = sum(any(v is None for v in values.values()) for values in rows.values())
    check.expect(failed == doc.get("failed_items", failed), "exit-code-counts-errors",
                 f"{failed} rows with errors, failed_items says {doc.get('failed_items')}")
    if data is not None and spec is not None and not is_foreign(spec):
        lines = rule_lines(data.removeprefix(b"\xef\xbb\xbf"))
        for number, raw in enumerate(lines, 1):
            header = number == 1 and {b"original", b"paraphrase"} <= set(raw.split(b"\t"))
            if raw.strip() and not header:
                check.expect(number in rows, "every-item-reported", f"input line {number} {raw[:60]!r} has no row")
    return rows


def _opening(line: str) -> str:
    start = 0
    while start < len(line) and (line[start].isspace() or unicodedata.category(line[start]) == "Cf"):
        start += 1
    return line[start:]


def stdin_reads_as_jsonl(spec: dict) -> bool | None:
    """How docs/input-rule.md reads ``spec``'s text on standard input, where no file name tells:
    JSON Lines when more of its non-blank lines open a JSON object (after white space and
    invisible characters) than other lines hold a tab; None for random bytes (no meant lines)."""
    if "raw" in spec:
        return None
    lines = [line.decode("utf-8", "surrogateescape")
             for line in rule_lines(spec.get("eol", "\n").join(spec["lines"]).encode("utf-8", "surrogateescape"))]
    texts = [line for line in lines if line.strip()]
    objects = sum(_opening(line).startswith("{") for line in texts)
    return objects > sum("\t" in line and not _opening(line).startswith("{") for line in texts)


def check_pairs(case: dict, workdir: Path, resources: list[str]) -> None:
    check = Checker(workdir)
    data = encode_file(case["spec"])
    as_jsonl = stdin_reads_as_jsonl(case["spec"]) if case.get("stdin") else None
    # standard input is read as the rule reads it, so its twin is the file named that way
    name = "pairs.jsonl" if (case["jsonl"] if as_jsonl is None else as_jsonl) else "pairs.tsv"
    path = write(workdir, f"case/{name}", data)
    stdin = data if case.get("stdin") else b""
    plain = canonical(case["spec"], line_based=True)
    plain = None if plain == case["spec"] else plain
    lossless = not is_foreign(case["spec"])
    out = check.run("parapeval", _argv("-" if stdin else path, case, case["format"], resources), stdin)
    meant = None
    if plain is not None:
        meant = check.run("parapeval",
                          _argv(write(workdir, f"plain/{name}", encode_file(plain)), case, "json", resources))
        expect_exit_like_plain(check, out, meant, [data], lossless, "file")
    if out.code == 2:
        return
    parse_output(check, out, case["format"])
    full = out if case["format"] == "json" and not stdin else check.run("parapeval",
                                                                        _argv(path, case, "json", resources))
    check.expect(full.code == out.code, "same-exit-code-every-format",
                 f"--format {case['format']}{' from stdin' if stdin else ''} exits {out.code}, json {full.code}")
    if full.code == 2:
        return
    if case.get("jobs"):  # the same bytes from two worker processes as from one (issue 31: PEM's last digits)
        two = check.run("parapeval", [*_argv(path, case, "json", resources), "--jobs", "2"])
        check.expect(two.code == full.code and two.stdout == full.stdout, "same-output-any-jobs",
                     f"--jobs 2 exits {two.code}, one process {full.code}; outputs "
                     f"{'equal' if two.stdout == full.stdout else 'differ'}")
    rows = item_results(check, parse_output(check, full, "json"), case["spec"], data)
    failed = any(v is None for values in rows.values() for v in values.values())
    check.expect(full.code == (1 if failed else 0), "exit-code-counts-errors",
                 f"exit {full.code} but {'some' if failed else 'no'} row has an error record")
    if meant is not None and meant.code != 2:
        compare_runs(check, rows, item_results(check, parse_output(check, meant, "json"), None, None), lossless,
                     "parapeval score")
