"""Fuzz targets of ``summeval score`` on TAC folders and ``coherence score`` on text files:
hostile summary files, where one bad peer or text must cost that item only."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.compare import compare_runs
from tests.fuzz.harness import Checker, binary_by_rule, parse_output, write
from tests.fuzz.hostile import canonical, encode_file, file_spec, hostile_line, is_foreign, plain_words

FORMATS = ("json", "jsonl", "tsv", "table")
SUMMEVAL_CHEAP = ("rouge-2", "rouge-1", "tesla-s")
SUMMEVAL_SLOW = ("rouge-su4", "tesla-s-pos")
TOPICS = ("D0001-A", "D0002-B", "D1103-C")


def _summary_lines(min_size: int = 0) -> st.SearchStrategy[list[str]]:
    sentence = st.builds(lambda w: " ".join(w) + ".", plain_words(3, 12))
    return st.lists(st.one_of(sentence, sentence, hostile_line()), min_size=min_size, max_size=4)


@st.composite
def tac_case(draw) -> dict:
    """Model and peer files of one or two topics; peers hostile, models usually plain."""
    topics = draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=2, unique=True))
    models, peers = {}, {}
    for topic in topics:
        for mid in draw(st.lists(st.sampled_from("ABCD"), min_size=1, max_size=2, unique=True)):
            spec = draw(file_spec(_summary_lines(1), raw=False))
            if draw(st.integers(0, 3)) > 0:
                spec.update(enc="utf-8", eol="\n")
            models[f"{topic}.M.100.A.{mid}"] = spec
        for pid in draw(st.lists(st.integers(1, 40), min_size=1, max_size=3, unique=True)):
            peers[f"{topic}.M.100.A.{pid}"] = draw(file_spec(_summary_lines()))
    names = draw(st.lists(st.sampled_from(SUMMEVAL_CHEAP), min_size=1, max_size=2, unique=True))
    if draw(st.integers(0, 24)) == 0:
        names.append(draw(st.sampled_from(SUMMEVAL_SLOW)))
    return {"models": models, "peers": peers, "metrics": names, "format": draw(st.sampled_from(FORMATS)),
            "stray": draw(st.sampled_from((None,) * 12 + (".DS_Store", "README", "D0001-A.M.100.A.Z")))}


def _write_tac(workdir: Path, folder: str, case: dict, models: dict, peers: dict) -> tuple[str, str]:
    for name, spec in models.items():
        write(workdir, f"{folder}/models/{name}", encode_file(spec))
    for name, spec in peers.items():
        write(workdir, f"{folder}/peers/{name}", encode_file(spec))
    if case.get("stray"):
        write(workdir, f"{folder}/peers/{case['stray']}", b"stray file\n")
    return str(workdir / folder / "models"), str(workdir / folder / "peers")


def _tac_argv(models: str, peers: str, case: dict, fmt: str) -> list[str]:
    return ["score", "--models", models, "--peers", peers, *(a for m in case["metrics"] for a in ("-m", m)),
            "--format", fmt]


def summary_results(check: Checker, doc: dict, metrics: list[str], peers: dict | None) -> dict:
    """(topic, system) -> metric -> value, after checking every peer file has one row with a
    value or an error for every metric."""
    out = {}
    for row in doc["summaries"]:
        key = (row["topic"], row["system"])
        check.expect(key not in out, "every-item-reported", f"two rows for {key}")
        values = {}
        for m in metrics:
            value, error = row.get("scores", {}).get(m), row.get("errors", {}).get(m)
            check.expect((value is None) != (error is None), "score-or-error", f"{key} {m}: value {value!r}, error "
                                                                               f"{error!r}")
            values[m] = value
        out[key] = values
    if peers is not None:
        expected = {(name.split(".")[0], name.split(".")[-1]) for name in peers}
        check.expect(set(out) == expected, "every-item-reported",
                     f"peer files {sorted(expected - set(out))} have no row; rows {sorted(set(out) - expected)} have "
                     f"no file")
    return out


def check_tac(case: dict, workdir: Path) -> None:
    """Every peer gets a row; a hostile peer costs that peer only (never the run), and a value
    is always the value of the text meant."""
    check = Checker(workdir)
    models, peers = _write_tac(workdir, "case", case, case["models"], case["peers"])
    out = check.run("summeval", _tac_argv(models, peers, case, case["format"]))
    binary = [n for n, s in case["models"].items() if binary_by_rule(encode_file(s))]
    if binary:  # a binary model stops the run by the input rule (another bad model may be named first)
        check.expect(out.code == 2 and "/models/" in out.stderr, "binary-model-stops-the-run",
                     f"model {binary[0]} is binary data, but exit {out.code}: {out.stderr.strip()[-200:]!r}")
    plain_models = {n: canonical(s) for n, s in case["models"].items()}
    plain_peers = {n: canonical(s) or s for n, s in case["peers"].items()}
    meant = None
    if None not in plain_models.values() and (plain_models, plain_peers) != (case["models"], case["peers"]):
        pm, pp = _write_tac(workdir, "plain", case, plain_models, plain_peers)
        meant = check.run("summeval", _tac_argv(pm, pp, case, "json"))
        models_lossless = not any(is_foreign(s) for s in case["models"].values())
        if models_lossless and meant.code != 2 and not binary:
            check.expect(out.code != 2, "bad-item-costs-only-itself",
                         f"exit 2 ({out.stderr.strip()[-200:]!r}), but only peer files differ from plain UTF-8 "
                         f"ones, which exit {meant.code}")
    if out.code == 2:
        return
    parse_output(check, out, case["format"])
    full = out if case["format"] == "json" else check.run("summeval", _tac_argv(models, peers, case, "json"))
    check.expect(full.code == out.code, "same-exit-code-every-format",
                 f"--format {case['format']} exits {out.code}, json {full.code}")
    if full.code == 2:
        return
    results = summary_results(check, parse_output(check, full, "json"), case["metrics"], case["peers"])
    failed = any(v is None for values in results.values() for v in values.values())
    check.expect(full.code == (1 if failed else 0), "exit-code-counts-errors",
                 f"exit {full.code} but {'some' if failed else 'no'} summary has an error record")
    if meant is not None and meant.code != 2:
        lossless = (not any(is_foreign(s) for s in [*case["models"].values(), *case["peers"].values()])
                    and not binary_by_rule(*(encode_file(s) for s in case["peers"].values())))
        compare_runs(check, results, summary_results(check, parse_output(check, meant, "json"), case["metrics"], None),
                     lossless, "summeval score")


# ---- summeval score -i JSONL ----------------------------------------------------------------------

BROKEN_JSONL = ('{"topic": "D1", "system": "1", "summary": "cut', "[]", '{"topic": "D1"}', "null",
                '{"topic": "D1", "system": "9", "summary": 3, "references": ["a"]}')


@st.composite
def jsonl_case(draw) -> dict:
    """Summaries as JSON lines (written by ``json.dumps``, so every line is valid JSON), now and
    then a broken line, in an encoding with line ends."""
    sentence = st.builds(lambda w: " ".join(w) + ".", plain_words(3, 12))
    lines, broken = [], False
    for k in range(draw(st.integers(1, 5))):
        if draw(st.integers(0, 11)) == 0:
            lines.append(draw(st.sampled_from(BROKEN_JSONL)))
            broken = True
            continue
        obj = {"topic": draw(st.sampled_from(TOPICS)), "system": str(k + 1),
               "summary": "\n".join(draw(_summary_lines())),
               "references": draw(st.lists(st.one_of(sentence, sentence, hostile_line()), min_size=1, max_size=2))}
        lines.append(json.dumps(obj, ensure_ascii=draw(st.booleans())))
    spec = draw(file_spec(st.just(lines), raw=False))
    names = draw(st.lists(st.sampled_from(SUMMEVAL_CHEAP), min_size=1, max_size=2, unique=True))
    return {"spec": spec, "broken": broken, "metrics": names, "format": draw(st.sampled_from(FORMATS)),
            "stdin": draw(st.integers(0, 7)) == 0}


def check_jsonl(case: dict, workdir: Path) -> None:
    """Valid JSON lines never stop the run (an unscorable summary is an error record); every
    line gets a row; values are the values of the text meant."""
    check = Checker(workdir)
    data = encode_file(case["spec"])
    path = write(workdir, "case/summaries.jsonl", data)
    stdin = data if case.get("stdin") else b""
    argv = ["score", "-i", "-" if stdin else path, *(a for m in case["metrics"] for a in ("-m", m)), "--format"]
    out = check.run("summeval", [*argv, case["format"]], stdin)
    plain = canonical(case["spec"], line_based=True)
    readable = not (case["broken"] or is_foreign(case["spec"])) and _utf8(data)
    if readable:
        check.expect(out.code != 2, "bad-item-costs-only-itself",
                     f"exit 2 on valid JSON lines: {out.stderr.strip()[-300:]!r}")
    if out.code == 2:
        return
    parse_output(check, out, case["format"])
    full = check.run("summeval", ["score", "-i", path, *argv[3:], "json"])
    check.expect(full.code == out.code, "same-exit-code-every-format",
                 f"--format {case['format']} exits {out.code}, json {full.code}")
    if full.code == 2:
        return
    results = summary_results(check, parse_output(check, full, "json"), case["metrics"], None)
    check.expect(len(results) == len(case["spec"]["lines"]), "every-item-reported",
                 f"{len(case['spec']['lines'])} JSON lines, {len(results)} summaries in the output")
    failed = any(v is None for values in results.values() for v in values.values())
    check.expect(full.code == (1 if failed else 0), "exit-code-counts-errors",
                 f"exit {full.code} but {'some' if failed else 'no'} summary has an error record")
    if plain is None or plain == case["spec"]:
        return
    meant = check.run("summeval", ["score", "-i", write(workdir, "plain/summaries.jsonl", encode_file(plain)),
                                   *argv[3:], "json"])
    if meant.code != 2:
        compare_runs(check, results, summary_results(check, parse_output(check, meant, "json"), case["metrics"], None),
                     not is_foreign(case["spec"]), "summeval score -i")


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:  # a raw surrogate escape: JSON text must be UTF-8
        return False
    return True


# ---- coherence score ----------------------------------------------------------------------------

@st.composite
def coherence_case(draw) -> dict:
    texts = [draw(file_spec(_summary_lines())) for _ in range(draw(st.integers(1, 3)))]
    return {"texts": texts, "format": draw(st.sampled_from(FORMATS)), "stdin": draw(st.integers(0, 7)) == 0,
            "max_chars": draw(st.sampled_from((None, None, None, 60))),
            "metric": draw(st.sampled_from(("dicomer", "dicomer", "readability")))}


def _coherence_argv(paths: list[str], case: dict, fmt: str) -> list[str]:
    argv = ["score", *paths, "--format", fmt, "--no-cache", "-m", case.get("metric", "dicomer")]
    if case.get("max_chars"):
        argv += ["--max-chars", str(case["max_chars"])]
    return argv


def text_results(check: Checker, doc: dict, names: list[str], metric: str = "dicomer") -> dict:
    """file -> {"dicomer": value or None} (the value of ``metric``), after checking every input has one record."""
    files = [t["file"] for t in doc["texts"]]
    check.expect(files == names, "every-item-reported", f"inputs {names}, records {files}")
    out = {}
    for k, text in enumerate(doc["texts"]):
        value, error = text.get("scores", {}).get(metric), text.get("errors", {}).get(metric)
        check.expect((value is None) != (error is None), "score-or-error", f"{text['file']}: value {value!r}, error "
                                                                           f"{error!r}")
        out[k] = {"dicomer": value}
    return out


def check_coherence(case: dict, workdir: Path) -> None:
    """Every text gets a record; a hostile text costs that text only; values are the values of
    the texts meant."""
    check = Checker(workdir)
    data = [encode_file(s) for s in case["texts"]]
    paths = [write(workdir, f"case/text{k + 1}.txt", d) for k, d in enumerate(data)]
    first, stdin = list(paths), b""
    if case.get("stdin"):
        first[0], stdin = "-", data[0]
    out = check.run("coherence", _coherence_argv(first, case, case["format"]), stdin)
    check.expect(out.code in (0, 1), "bad-item-costs-only-itself",
                 f"exit {out.code}: texts are items, one bad text must not stop the run "
                 f"({out.stderr.strip()[-200:]!r})")
    if out.code == 2:
        return
    parse_output(check, out, case["format"])
    full = check.run("coherence", _coherence_argv(paths, case, "json"))
    check.expect(full.code == out.code, "same-exit-code-every-format",
                 f"--format {case['format']} exits {out.code}, json {full.code}")
    results = text_results(check, parse_output(check, full, "json"), paths, case.get("metric", "dicomer"))
    failed = any(v["dicomer"] is None for v in results.values())
    check.expect(full.code == (1 if failed else 0), "exit-code-counts-errors",
                 f"exit {full.code} but {'some' if failed else 'no'} text has an error record")
    plain = [canonical(s) for s in case["texts"]]
    if None in plain or plain == case["texts"]:
        return
    plain_paths = [write(workdir, f"plain/text{k + 1}.txt", encode_file(s)) for k, s in enumerate(plain)
                   if s is not None]
    meant = check.run("coherence", _coherence_argv(plain_paths, case, "json"))
    meant_results = text_results(check, parse_output(check, meant, "json"), plain_paths, case.get("metric", "dicomer"))
    if case.get("max_chars"):  # the cap counts a final newline, which the twin adds: no oracle over the cap
        meant_results = {k: v for k, v in meant_results.items()
                         if len(encode_file(plain[k]).decode("utf-8", "replace")) <= case["max_chars"]}
    # a size cap counts the characters as written (CR, controls): with one, values must match only
    # a binary text is an error record by the input rule, where its plain twin is scored
    lossless = (not any(is_foreign(s) for s in case["texts"]) and not case.get("max_chars")
                and not binary_by_rule(*data))
    compare_runs(check, results, meant_results, lossless, "coherence score")
