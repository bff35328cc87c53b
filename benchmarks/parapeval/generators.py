"""Ranking three paraphrase generators end to end (the worked example of docs/guide/paraphrases.md):
a copy of the input, a real rewrite and an unrelated sentence, on twelve originals with one human
paraphrase each, by `parapeval compare` with every default metric, intervals and both paired
tests. The report states whether the copy gets self-BLEU 100 and ranks below the rewrite on PEM
and iBLEU (the issue's acceptance check) and how long the command took."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evalcore.io.runinfo import write_report

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "paraphrase-example"
SYSTEMS = ("copy.txt", "rewrite.txt", "unrelated.txt")


def _compare(example: Path, test: str, extra: list[str], log: Callable[[str], None]) -> tuple[dict, float]:
    """The JSON document of `parapeval compare` on the example, and its wall time."""
    from parapeval.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "compare.json"
        argv = ["compare", "--originals", str(example / "originals.txt"), "--references",
                str(example / "references.txt"), "-i", *(str(example / s) for s in SYSTEMS), f"--paired-{test}",
                "--format", "json", "-o", str(out), *extra]
        log("parapeval " + " ".join(argv))
        started = time.perf_counter()
        rc = main(argv)
        seconds = time.perf_counter() - started
        if rc != 0:
            raise RuntimeError(f"parapeval compare exited {rc}")
        return json.loads(out.read_text("utf-8")), seconds


def checks(doc: dict) -> dict[str, bool]:
    """The acceptance checks: copy's self-BLEU is 100; copy ranks below the rewrite on PEM and iBLEU."""
    def row(metric: str, system: str) -> dict:
        return next(r for r in doc["metrics"][metric]["systems"] if r["system"] == system)

    return {"copy self-BLEU = 100": abs(row("self-bleu", "copy.txt")["value"] - 100) < 1e-9,
            **{f"copy below rewrite on {m}": row(m, "copy.txt")["rank"] > row(m, "rewrite.txt")["rank"]
               for m in ("pem", "ibleu")}}


def run_table(result: dict, test: str) -> str:
    """One paired test's run as Markdown: the ranked tables and the acceptance checks."""
    from parapeval.compare import render_table

    r = result["runs"][test]
    checked = "\n".join(f"- {name}: {'yes' if ok else 'NO'}" for name, ok in r["checks"].items())
    return (f"```\n{render_table(r['metrics'], len(r['systems']), r['inputs']).rstrip()}\n```\n\n"
            f"{r['seconds']:.1f} s for the command.\n\n{checked}\n")


def run(out: Path, example: Path | None = None, seed: int = 12345, log: Callable[[str], None] = print) -> dict:
    """Both paired tests on the example; Markdown and JSON written to ``out``."""
    example = example or EXAMPLE
    result: dict = {"example": example.name, "seed": seed, "runs": {}}
    for test in ("bs", "ar"):
        doc, seconds = _compare(example, test, ["--seed", str(seed)], log)
        result["runs"][test] = {"seconds": seconds, "checks": checks(doc), "metrics": doc["metrics"],
                                "systems": doc["systems"], "inputs": doc["inputs"], "signature": doc["signature"]}
    markdown = "# parapeval: ranking three generators\n\n" + "\n".join(
        f"## --paired-{test}\n\n{run_table(result, test)}" for test in ("bs", "ar"))
    write_report(out, "generators", markdown, result)
    print(markdown)
    return result
