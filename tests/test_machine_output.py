"""Machine output is pure: every registered metric, run through the command that owns it with
``--format json``, writes standard output that parses as one JSON document, and with ``--format
jsonl`` only JSON lines; importing the packages and scoring writes nothing on descriptor 1 (native
libraries such as HiGHS included). About a minute with warm caches (compiled tables, parses,
lexical tables); the first run after a setup builds those and takes several minutes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from evalcore.io.native_output import stdout_to_stderr
from evalcore.metric.registry import registered, spec

ROOT = Path(__file__).resolve().parents[1]
#: what a command's stderr says when a default resource is not built (then the group is skipped)
MISSING_RESOURCE = ("aesop-eval setup", "parapeval setup", "not found", "not built")
FORMATS = ("json", "jsonl")

EN_HYP = ["The cat sat on the mat .", "It is a nice day today ."]
EN_REF = ["The cat was sitting on the mat .", "Today is a nice day ."]
DE_SRC = ["Die Katze saß auf der Matte .", "Heute ist ein schöner Tag ."]
ZH_HYP = ["猫坐在垫子上。", "今天天气很好。"]
ZH_REF = ["猫在垫子上坐着。", "今天的天气很好。"]
EN_SRC = ["The cat sits on the mat.", "The weather is nice today."]


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _scores_english(name: str) -> bool:
    """Whether the metric's declared languages include English (else it is run on Chinese)."""
    return bool({"en", "*"} & set(spec(name).load().languages))


def _metric_groups() -> list[tuple[str, str, list[str]]]:
    """(package, input kind, metrics) per command call: every registered metric once, an MT
    metric on English output unless its declared languages lack English; `parapeval score`'s pairs
    carry no references, so a paraphrase metric that needs them (iBLEU) runs in `parapeval compare`."""
    mteval = list(registered("mteval"))
    return [("mteval", "mt-en", [m for m in mteval if _scores_english(m)]),
            ("mteval", "mt-zh", [m for m in mteval if not _scores_english(m)]),
            *((package, package, list(registered(package))) for package in ("summeval", "coherence")),
            ("parapeval", "parapeval", [m for m in registered("parapeval") if spec(m).reads != "source+references"]),
            ("parapeval", "parapeval-compare",
             [m for m in registered("parapeval") if spec(m).reads == "source+references"])]


#: input kind -> the command it runs (``score`` where not named); ``parapeval compare`` writes one
#: document (table, JSON, TSV, HTML), no JSON lines
COMMANDS = {"parapeval-compare": "compare"}
NO_JSONL = {"parapeval-compare"}


def _inputs(tmp: Path) -> dict[str, list[str]]:
    """Command arguments per input kind, on tiny files in ``tmp``."""
    summaries = tmp / "pairs.jsonl"
    summaries.write_text("".join(json.dumps({"topic": "d1", "system": f"s{i}", "summary": hyp, "references": [ref]})
                                 + "\n" for i, (hyp, ref) in enumerate(zip(EN_HYP, EN_REF))), "utf-8")
    texts = [str(_write(tmp / f"text{i}.txt", [hyp])) for i, hyp in enumerate(EN_HYP)]
    outputs = tmp / "outputs.jsonl"
    rows = [{"id": str(k), "original": r, "paraphrase": h, "system": s, "references": [r]}
            for s in ("a", "b") for k, (r, h) in enumerate(zip(EN_REF, EN_HYP))]
    outputs.write_text("".join(json.dumps(row) + "\n" for row in rows), "utf-8")
    paraphrases = tmp / "pairs.tsv"
    paraphrases.write_text("original\tparaphrase\n" + "".join(f"{r}\t{h}\n" for r, h in zip(EN_REF, EN_HYP)), "utf-8")
    return {
        "mt-en": ["-l", "de-en", "--src", str(_write(tmp / "src.de", DE_SRC)),
                  "-i", str(_write(tmp / "hyp.en", EN_HYP)), "-r", str(_write(tmp / "ref.en", EN_REF))],
        "mt-zh": ["-l", "en-zh", "--src", str(_write(tmp / "src.en", EN_SRC)),
                  "-i", str(_write(tmp / "hyp.zh", ZH_HYP)), "-r", str(_write(tmp / "ref.zh", ZH_REF))],
        "summeval": ["-i", str(summaries)],
        "coherence": texts,
        "parapeval": ["-i", str(paraphrases)],
        "parapeval-compare": ["-i", str(outputs)],
    }


def _run(package: str, command: str, args: list[str], metrics: list[str], fmt: str) -> subprocess.CompletedProcess:
    metric_args = [a for m in metrics for a in ("-m", m)]
    return subprocess.run([sys.executable, "-m", f"{package}.cli", command, *args, *metric_args, "--format", fmt],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[int, str], subprocess.CompletedProcess]:
    """Each command call in both formats, two at a time, by (group index, format)."""
    inputs = _inputs(tmp_path_factory.mktemp("machine-output"))
    jobs = {(i, fmt): (package, COMMANDS.get(kind, "score"), inputs[kind], metrics, fmt)
            for i, (package, kind, metrics) in enumerate(_metric_groups()) for fmt in FORMATS
            if not (fmt == "jsonl" and kind in NO_JSONL)}
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda job: _run(*job), jobs.values()))
    return dict(zip(jobs, done))


def test_every_registered_metric_is_run():
    covered = [m for _, _, metrics in _metric_groups() for m in metrics]
    assert sorted(covered) == sorted(registered())


def _checked(package: str, metrics: list[str], fmt: str, proc: subprocess.CompletedProcess) -> str:
    """The run's stdout, once its exit code says it scored (skips a group whose resources are missing)."""
    what = f"{package} score -m {' -m '.join(metrics)} --format {fmt}"
    if proc.returncode == 2 and not proc.stdout and any(s in proc.stderr for s in MISSING_RESOURCE):
        pytest.skip(f"{what}: default resources missing: {proc.stderr.strip()[-300:]}")
    assert proc.returncode in (0, 1), f"{what}: exit {proc.returncode}: {proc.stderr[-800:]}"
    return proc.stdout


GROUPS = [pytest.param(i, id=f"{package}-{kind}") for i, (package, kind, _) in enumerate(_metric_groups())]


@pytest.mark.parametrize("group", GROUPS)
def test_json_stdout_is_one_json_document(runs, group):
    package, _, metrics = _metric_groups()[group]
    out = _checked(package, metrics, "json", runs[group, "json"])
    try:
        json.loads(out)
    except json.JSONDecodeError as exc:
        pytest.fail(f"{package} {metrics}: stdout is not JSON ({exc}); it starts {out[:200]!r}")


@pytest.mark.parametrize("group", GROUPS)
def test_jsonl_stdout_is_only_json_lines(runs, group):
    package, kind, metrics = _metric_groups()[group]
    if kind in NO_JSONL:
        pytest.skip(f"{package} {COMMANDS[kind]} writes no JSON lines")
    lines = [line for line in _checked(package, metrics, "jsonl", runs[group, "jsonl"]).splitlines() if line.strip()]
    assert lines, f"{package} {metrics}: no JSONL rows"
    for line in lines:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            pytest.fail(f"{package} {metrics}: not a JSON line: {line[:200]!r}")
        assert isinstance(row, dict), line[:200]


SCORE_IN_A_FRESH_PROCESS = r"""
import numpy as np
import evalcore, summeval, coherence, parapeval, mteval
from evalcore.matching import match
from evalcore.metric.registry import get_metric
rng = np.random.default_rng(0)
sim = rng.random((4, 5))
for method in ("highs", "pulp-highs", "pulp", "auto"):
    match(np.ones(4), np.ones(5), sim, method=method)
for name, ref, cand in (("tesla-celab", "猫在垫子上坐着。", "猫坐在垫子上。"),
                        ("tesla-s", "A cat was on the mat.", "The cat sat on the mat.")):
    get_metric(name).score([ref], cand)
"""


def test_importing_and_scoring_write_nothing_on_descriptor_1():
    """In a fresh process (HiGHS prints its banner once per process): imports, every LP backend
    (HiGHS direct, PuLP with HiGHS, PuLP with CBC) and two metrics that solve LPs."""
    proc = subprocess.run([sys.executable, "-c", SCORE_IN_A_FRESH_PROCESS], cwd=ROOT, capture_output=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-800:]
    assert proc.stdout == b"", proc.stdout[:300]


def test_stdout_to_stderr_moves_native_writes(capfd):
    """Bytes written straight to descriptor 1 inside the block reach descriptor 2; after it, 1 again."""
    with stdout_to_stderr():
        os.write(1, b"native banner\n")
    os.write(1, b"result\n")
    out, err = capfd.readouterr()
    assert out == "result\n" and err == "native banner\n"
