"""Fuzz targets of ``mteval``: ``score`` on hostile -r/-i files, corpus scores when a line of a
system is lost, and ``stream`` on hostile standard input."""

from __future__ import annotations

import math
import re
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.compare import compare_runs
from tests.fuzz.harness import Checker, binary_by_rule, expect_exit_like_plain, parse_output, write
from tests.fuzz.hostile import (
    CONTROL,
    ODD,
    UTF8,
    VOCAB,
    canonical,
    encode_file,
    file_spec,
    hostile_line,
    is_foreign,
    rule_lines,
)

CHEAP = ("bleu", "chrf", "ter")
#: a slower metric drawn now and then
SLOW = ("tesla-m",)
FORMATS = ("json", "jsonl", "tsv", "table")


def _metrics(draw, slow_odds: int = 25) -> list[str]:
    names = draw(st.lists(st.sampled_from(CHEAP), min_size=1, max_size=3, unique=True))
    if draw(st.integers(0, slow_odds - 1)) == 0:
        names.append(draw(st.sampled_from(SLOW)))
    return names


# ---- mteval score -------------------------------------------------------------------------------

@st.composite
def score_case(draw) -> dict:
    """References and systems (usually aligned), metrics, a format, sometimes a small size cap."""
    n = draw(st.integers(1, 6))
    aligned = draw(st.integers(0, 4)) > 0
    long = draw(st.integers(0, 19)) == 0  # now and then lines of thousands of words, never with TER
    # (sacrebleu's TER takes minutes on one such line)
    metrics = [m for m in _metrics(draw) if not (long and m == "ter")] or ["bleu"]
    line = hostile_line(long=long)
    lines = st.lists(line, min_size=n, max_size=n) if aligned else st.lists(line, max_size=7)
    return {"refs": [draw(file_spec(lines)) for _ in range(draw(st.integers(1, 2)))],
            "hyps": [draw(file_spec(lines)) for _ in range(draw(st.integers(1, 2)))],
            "metrics": metrics, "format": draw(st.sampled_from(FORMATS)), "segments": draw(st.booleans()),
            "max_chars": draw(st.sampled_from((None, None, None, 40))), "stdin": draw(st.integers(0, 9)) == 0}


def _score_argv(refs: list[str], hyps: list[str], case: dict, fmt: str, segments: bool) -> list[str]:
    argv = ["score", *(a for r in refs for a in ("-r", r)), "-i", *hyps,
            *(a for m in case["metrics"] for a in ("-m", m)),
            "--format", fmt]
    if segments:
        argv.append("--segments")
    if case.get("max_chars"):
        argv += ["--max-chars", str(case["max_chars"])]
    return argv


def _write_set(workdir: Path, folder: str, specs: dict) -> tuple[list[str], list[str], list[bytes]]:
    refs = [write(workdir, f"{folder}/ref{k + 1}.txt", encode_file(s)) for k, s in enumerate(specs["refs"])]
    data = [encode_file(s) for s in specs["hyps"]]
    hyps = [write(workdir, f"{folder}/sys{k + 1}.txt", d) for k, d in enumerate(data)]
    return refs, hyps, data


def line_count(data: bytes) -> int:
    """Segments of a UTF-8 file: lines split at LF, CRLF or CR (the input rule), a final line end
    closing the last line."""
    return len(rule_lines(data))


def segment_results(check: Checker, doc: dict, metrics: list[str], files: list[bytes] | None,
                    specs: list[dict] | None) -> dict:
    """(system index, line) -> metric -> value of a ``--format json --segments`` document, after
    checking every line of every system has a row with a value or an error for every metric."""
    systems = doc.get("systems", [])
    check.expect(len(systems) == (len(files) if files is not None else len(systems)), "every-item-reported",
                 f"{len(systems)} systems in the output for {len(files or [])} -i files")
    rows: dict = {}
    names = [s["system"] for s in systems]
    for seg in doc.get("segments", []):
        key = (names.index(seg["system"]), seg["line"])
        check.expect(key not in rows, "every-item-reported", f"two rows for {key}")
        rows[key] = seg
    for error in doc.get("errors", []):
        check.expect(re.search(r":\d+", error) is not None, "error-names-item", f"error {error!r} names no file:line")
    out = {}
    for k, system in enumerate(systems):
        lines = system["lines"]
        check.expect(sum(1 for s, _ in rows if s == k) == lines, "every-item-reported",
                     f"system {system['system']}: {lines} lines but {sum(1 for s, _ in rows if s == k)} segment rows")
        if files is not None and specs is not None and not is_foreign(specs[k]):
            check.expect(lines == line_count(files[k].removeprefix(b"\xef\xbb\xbf")), "every-item-reported",
                         f"system {system['system']}: {line_count(files[k])} lines in the file, {lines} reported")
        for line in range(1, lines + 1):
            seg = rows.get((k, line), {})
            values = {}
            for m in metrics:
                value = seg.get("scores", {}).get(m)
                error = seg.get("errors", {}).get(m)
                check.expect((value is None) != (error is None), "score-or-error",
                             f"system {system['system']} line {line} {m}: value {value!r}, error {error!r}")
                values[m] = value
            out[(k, line)] = values
    return out


def check_score(case: dict, workdir: Path) -> None:
    check = Checker(workdir)
    refs, hyps, data = _write_set(workdir, "case", case)
    first = list(hyps)
    stdin = b""
    if case.get("stdin"):
        first[0], stdin = "-", data[0]
    out = check.run("mteval", _score_argv(refs, first, case, case["format"], case["segments"]), stdin)
    twin = {"refs": [canonical(s, line_based=True) for s in case["refs"]],
            "hyps": [canonical(s, line_based=True) for s in case["hyps"]]}
    plain: dict[str, list[dict | None]] | None = twin
    if any(s is None for s in twin["refs"] + twin["hyps"]) or twin == {"refs": case["refs"], "hyps": case["hyps"]}:
        plain = None
    # a size cap counts the characters as written (CR, controls): with one, values must match only
    lossless = not any(is_foreign(s) for s in case["refs"] + case["hyps"]) and not case.get("max_chars")
    meant = None
    if plain is not None:
        prefs, phyps, _ = _write_set(workdir, "plain", plain)
        meant = check.run("mteval", _score_argv(prefs, phyps, case, "json", True))
        expect_exit_like_plain(check, out, meant, [*data, *(encode_file(r) for r in case["refs"])], lossless,
                               "files")
    if out.code == 2:
        return
    parsed = parse_output(check, out, case["format"])
    if case["format"] == "jsonl" and not case["segments"]:
        check.expect(len(parsed) == len(hyps), "every-item-reported", f"{len(parsed)} JSONL rows for {len(hyps)} "
                                                                      f"systems")
    full = check.run("mteval", _score_argv(refs, hyps, case, "json", True))
    check.expect(full.code == out.code, "same-exit-code-every-format",
                 f"--format {case['format']} exits {out.code}, --format json --segments {full.code}")
    if full.code == 2:
        return
    doc = parse_output(check, full, "json")
    results = segment_results(check, doc, case["metrics"], data, case["hyps"])
    failed = any(v is None for values in results.values() for v in values.values())
    check.expect(full.code == (1 if failed else 0), "exit-code-counts-errors",
                 f"exit {full.code} but {'some' if failed else 'no'} segment has an error record")
    if meant is None or meant.code == 2:
        return
    meant_results = segment_results(check, parse_output(check, meant, "json"), case["metrics"], None, None)
    if lossless or len(meant_results) == len(results):
        compare_runs(check, results, meant_results, lossless, "mteval score")


# ---- corpus scores when a line is lost ----------------------------------------------------------

#: odd tokens that are text (no control characters, no tab): they stay in a line as written
TEXT_ODD = tuple(t for t in ODD if not CONTROL.search(t) and t.strip() and "\t" not in t
                 and t not in ("\u2028", "\u2029", "\ufeff"))
#: ways a line of a system gets lost: (name, bytes of the line)
LOST = {"empty": b"", "blank": b"   ", "nul": b"\x00\x00", "control": b"\x1b\x07",
        "latin-1": "caf\xe9 cr\xe8me".encode("latin-1")}


@st.composite
def ref_line(draw) -> str:
    words = draw(st.lists(st.one_of(*[st.sampled_from(VOCAB)] * 6, st.sampled_from(TEXT_ODD)), min_size=2, max_size=14))
    return " ".join(words)


@st.composite
def mutate(draw, line: str) -> str:
    """A system's attempt at a reference line: a copy, a prefix, a copy with words dropped,
    replaced or shuffled, or junk appended."""
    words = line.split(" ")
    op = draw(st.sampled_from(("copy", "prefix", "prefix", "drop", "replace", "shuffle", "junk")))
    if op == "prefix":
        words = words[:draw(st.integers(1, len(words)))]
    elif op == "drop":
        keep = [w for w in words if draw(st.booleans())]
        words = keep or words[:1]
    elif op == "replace":
        words = [w if draw(st.booleans()) else draw(st.sampled_from(("zzz", "qux", "blorp", "wug"))) for w in words]
    elif op == "shuffle":
        words = draw(st.permutations(words))
    elif op == "junk":
        words = words + draw(st.lists(st.sampled_from(("zzz", "qux", "blorp", "wug")), min_size=1, max_size=20))
    return " ".join(words)


@st.composite
def monotone_case(draw) -> dict:
    """References, a system's lines, which of its lines get lost and how."""
    n = draw(st.integers(2, 6))
    refs = [[draw(ref_line()) for _ in range(n)] for _ in range(draw(st.integers(1, 2)))]
    base = [draw(mutate(refs[0][k])) for k in range(n)]
    return {"refs": refs, "base": base,
            "lost": draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2, unique=True)),
            "how": draw(st.sampled_from(sorted(LOST))),
            "metrics": list(CHEAP) + (["tesla-m"] if draw(st.integers(0, 5)) == 0 else [])}


def sacrebleu_corpus(metric: str, hyps: list[str], refs: list[list[str]]) -> float:
    """sacrebleu's own corpus score (mteval's defaults), every line counted, on the text every
    metric reads (control and invisible characters removed, NFC: the input rule)."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    from evalcore.metric.inputs import clean_text

    scorer = {"bleu": BLEU, "chrf": CHRF, "ter": TER}[metric]()
    return scorer.corpus_score([clean_text(h) for h in hyps], [[clean_text(r) for r in s] for s in refs]).score


def check_monotone(case: dict, workdir: Path) -> None:
    """Losing lines of a system never makes its corpus score better (TER: lower is better):
    mean-of-segment metrics (TESLA-M) always, sacrebleu's metrics wherever sacrebleu itself,
    counting the lost lines as empty hypotheses, does not get better; and a lost line is counted
    as an empty hypothesis, never dropped with its reference."""
    check = Checker(workdir)
    refs = [write(workdir, f"ref{k + 1}.txt", ("\n".join(r) + "\n").encode()) for k, r in enumerate(case["refs"])]
    lost_lines = [line.encode() for line in case["base"]]
    for k in case["lost"]:
        lost_lines[k] = LOST[case["how"]]
    base = write(workdir, "base.txt", ("\n".join(case["base"]) + "\n").encode())
    lost = write(workdir, "lost.txt", b"\n".join(lost_lines) + b"\n")
    argv = ["score", *(a for r in refs for a in ("-r", r)), "-i", base, lost,
            *(a for m in case["metrics"] for a in ("-m", m)), "--format", "json"]
    out = check.run("mteval", argv)
    if binary_by_rule(b"\n".join(lost_lines) + b"\n"):
        # the lost lines are most of the file: by the input rule it is binary data, a usage error
        check.expect(out.code == 2 and "binary data" in out.stderr, "binary-file-is-usage-error",
                     f"exit {out.code}: {out.stderr[-300:]!r}")
        return
    check.expect(out.code in (0, 1), "lost-line-is-item-error", f"exit {out.code}: {out.stderr[-300:]!r}")
    doc = parse_output(check, out, "json")
    scores = {s["system"]: s["scores"] for s in doc["systems"]}
    incomplete = {s["system"]: s.get("incomplete") for s in doc["systems"]}
    emptied = [("" if k in case["lost"] else line) for k, line in enumerate(case["base"])]
    for metric in case["metrics"]:
        before, after = scores["base.txt"][metric], scores["lost.txt"][metric]
        if before is None:  # only where a reference line this metric cannot read leaves it incomplete
            check.expect(metric in (incomplete.get("base.txt") or {}), "clean-system-scored",
                         f"{metric}: no corpus score for the clean system, and it is not marked incomplete")
            check.expect(after is None, "no-rise-when-lines-are-lost",
                         f"{metric}: the clean system is incomplete but the one with lost lines scores {after}")
            continue
        sign = -1.0 if metric == "ter" else 1.0  # orientation: higher is better except TER
        if metric not in CHEAP:  # a mean of segment scores, each at least a lost line's 0
            check.expect(after is None or sign * after <= sign * before + 1e-9, "no-rise-when-lines-are-lost",
                         f"{metric}: losing line(s) {[k + 1 for k in case['lost']]} ({case['how']}) moves the corpus "
                         f"score from {before} to {after}")
            continue
        ref_streams = case["refs"]
        oracle_before = sacrebleu_corpus(metric, case["base"], ref_streams)
        oracle_after = sacrebleu_corpus(metric, emptied, ref_streams)
        check.expect(math.isclose(before, oracle_before, rel_tol=1e-9, abs_tol=1e-9), "corpus-matches-sacrebleu",
                     f"{metric}: corpus {before} but sacrebleu gives {oracle_before}")
        check.expect(after is None or sign * after <= sign * oracle_after + 1e-9, "lost-line-counted",
                     f"{metric}: with line(s) {[k + 1 for k in case['lost']]} lost ({case['how']}) the corpus score is "
                     f"{after}, but counting them as empty hypotheses gives {oracle_after} (before: {before}): the "
                     "lost lines were dropped with their references")
        if sign * oracle_after <= sign * oracle_before:
            check.expect(after is None or sign * after <= sign * before + 1e-9, "no-rise-when-lines-are-lost",
                         f"{metric}: losing line(s) {[k + 1 for k in case['lost']]} ({case['how']}) moves the corpus "
                         f"score from {before} to {after} (sacrebleu, counting them empty: {oracle_after})")


# ---- mteval stream ------------------------------------------------------------------------------

ID_FORMS = ("valid", "valid", "valid", "spaced", "zero", "past", "negative", "plus", "float", "arabic", "math",
            "huge", "empty", "word")


@st.composite
def stream_line(draw, n: int) -> bytes:
    """One line a tuner might send: an id (right, out of range or odd) and a hostile candidate."""
    k = draw(st.integers(1, n))
    form = draw(st.sampled_from(ID_FORMS))
    seg_id = {"valid": str(k), "spaced": f" {k} ", "zero": "0", "past": str(n + 1), "negative": "-1", "plus": f"+{k}",
              "float": f"{k}.0", "arabic": "٠١٢٣٤٥٦٧٨٩"[k % 10], "math": "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"[k % 10],
              "huge": "9" * draw(st.sampled_from((20, 4301, 5000))), "empty": "", "word": "one"}[form]
    cand = draw(hostile_line())
    enc = draw(st.sampled_from(("utf-8",) * 5 + ("latin-1",)))
    tab = "" if draw(st.integers(0, 11)) == 0 else "\t"
    body = (seg_id + tab + cand).encode(enc, "surrogateescape" if enc == "utf-8" else "replace")
    return body + draw(st.sampled_from((b"\n", b"\n", b"\r\n", b"\r")))


@st.composite
def stream_case(draw) -> dict:
    n = draw(st.integers(1, 5))
    lines = st.lists(hostile_line(), min_size=n, max_size=n)
    refs = [draw(file_spec(lines, raw=False)) for _ in range(draw(st.integers(1, 2)))]
    for spec in refs:
        spec["enc"] = draw(st.sampled_from(UTF8 + ("utf-8",) * 4 + ("latin-1",)))
        spec["eol"] = draw(st.sampled_from(("\n", "\r\n", "\r")))
    stdin = b"".join(draw(st.lists(stream_line(n), max_size=8)))
    if stdin and draw(st.integers(0, 4)) == 0:
        stdin = stdin.rstrip(b"\r\n")  # no final newline
    if stdin and draw(st.integers(0, 5)) == 0:
        stdin = b"\xef\xbb\xbf" + stdin  # a Windows tool's byte-order mark opening the stream
    return {"refs": refs, "stdin": stdin.decode("latin-1"),
            "ids": draw(st.sampled_from(("explicit", "explicit", "implicit"))),
            "stats": draw(st.booleans()),
            "metric": draw(st.sampled_from(CHEAP + (SLOW if draw(st.integers(0, 24)) == 0 else ())))}


def check_stream(case: dict, workdir: Path) -> None:
    """One answer line per input line, as the id asked or an ERROR naming the input line; the
    exit code counts the errors; every score is the one ``score_batch`` gives the candidate."""
    check = Checker(workdir)
    refs = [write(workdir, f"ref{k + 1}.txt", encode_file(s)) for k, s in enumerate(case["refs"])]
    stdin = case["stdin"].encode("latin-1")
    argv = ["stream", *(a for r in refs for a in ("-r", r)), "-m", case["metric"], "--ids", case["ids"]]
    if case["stats"]:
        argv.append("--stats")
    out = check.run("mteval", argv, stdin)
    if out.code == 2:
        return
    lines = data_lines(stdin.removeprefix(b"\xef\xbb\xbf"))  # a BOM opening the stream is no part of line 1
    answers = out.stdout.split("\n")
    check.expect(answers[-1] == "", "one-answer-per-line", f"stdout does not end with a newline: {out.stdout[-80:]!r}")
    answers = answers[:-1]
    check.expect(len(answers) == len(lines), "one-answer-per-line",
                 f"{len(lines)} input lines, {len(answers)} answers: {answers[-3:]!r}")
    errors = sum(a.startswith("ERROR\t") for a in answers)
    check.expect(out.code == (1 if errors else 0), "exit-code-counts-errors", f"exit {out.code} with {errors} ERROR "
                                                                              f"lines")
    from evalcore.metric import Item
    from evalcore.metric.registry import get_metric

    metric = get_metric(case["metric"])
    ref_lines = [_read_lines(Path(r)) for r in refs]
    for number, (raw, answer) in enumerate(zip(lines, answers), 1):
        if answer.startswith("ERROR\t"):
            check.expect(f"stdin:{number}" in answer, "error-names-item", f"answer {answer!r} does not name "
                                                                          f"stdin:{number}")
            if "unknown segment id" in answer:
                seg_id = (str(number) if case["ids"] == "implicit"
                          else raw.decode("utf-8", "replace").partition("\t")[0])
                k = _id(seg_id)
                check.expect(k is None or not 1 <= k <= len(ref_lines[0]), "unknown-id-is-unknown",
                             f"line {number}: id {seg_id!r} names a reference line, answered {answer!r}")
            continue
        text = raw.decode("utf-8")
        seg_id, _, cand = (str(number), "", text) if case["ids"] == "implicit" else text.partition("\t")
        head, _, numbers = answer.partition("\t")
        check.expect(head == seg_id.strip(), "answer-names-id", f"line {number}: answer {answer!r} for id {seg_id!r}")
        k = _id(seg_id)
        if k is None or not 1 <= k <= len(ref_lines[0]):
            check.fail("answer-names-id", f"line {number}: id {seg_id!r} answered {answer!r}")
        refs_k = tuple(r[k - 1] for r in ref_lines)
        values = numbers.split(" ")
        check.expect(all(_is_number(v) for v in values), "answer-is-numbers", f"line {number}: answer {answer!r}")
        if case["stats"]:
            continue
        # an undecodable reference line is None: score_batch's error record for it is the oracle
        expected = metric.score_batch([Item(cand, refs_k)])[0]  # type: ignore[arg-type]  # None on purpose
        check.expect(expected.ok and math.isclose(float(values[0]), expected.value, rel_tol=1e-9, abs_tol=1e-9),
                     "right-number", f"line {number}: stream says {values[0]}, score_batch gives {expected}")


def data_lines(data: bytes) -> list[bytes]:
    """The stream's lines by the input rule (LF, CRLF, CR end a line), a last line without one kept."""
    return rule_lines(data)


def _read_lines(path: Path) -> list[str | None]:
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    out: list[str | None] = []
    for part in rule_lines(data):
        try:
            out.append(part.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(None)
    return out


def _id(text: str) -> int | None:
    try:
        return int(text) if text.strip().isdecimal() else None
    except ValueError:  # more digits than int() reads
        return None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
