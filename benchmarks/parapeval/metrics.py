"""Which metric to trust for paraphrases: `parapeval correlate` on Twitter-Para (overall quality)
and STS-B (similarity), every default metric, Pearson at the global level with intervals over
inputs and clusters, as docs/guide/paraphrases.md shows them."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from evalcore.io.runinfo import write_report

SETS = ("twitter-para", "sts-b")


def _correlate(name: str, data: str | None, n_resamples: int, seed: int, log: Callable[[str], None]) -> dict:
    """The JSON document of `parapeval correlate` on one set."""
    from parapeval.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{name}.json"
        argv = ["correlate", "--set", name, "-n", str(n_resamples), "--seed", str(seed), "--format", "json",
                "-o", str(out), *(["--data", data] if data else [])]
        log("parapeval " + " ".join(argv))
        rc = main(argv)
        if rc != 0:
            raise RuntimeError(f"parapeval correlate --set {name} exited {rc}")
        return json.loads(out.read_text("utf-8"))


def leaderboard_table(result: dict, name: str) -> str:
    """One set's leaderboard as Markdown: cluster, metric, value, interval, p against the head; its notes."""
    doc = result["sets"][name]
    statistic = doc["settings"]["statistic"].capitalize()
    lines = [f"| cluster | metric | {statistic} | 95% CI | p vs head |", "|---|---|---|---|---|"]
    for r in doc["metrics"]:
        ci = "" if r["ci_low"] is None else f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
        value = "undefined" if r["value"] is None else f"{r['value']:.3f}"
        p = "" if r["p_vs_head"] is None else f"{r['p_vs_head']:.3f}"
        lines.append(f"| {r['cluster'] or '-'} | {r['metric']} | {value} | {ci} | {p} |")
    return "\n".join(lines) + "\n\n" + "\n".join(f"- {n}" for n in doc["notes"]) + "\n"


def run(out: Path, data: str | None = None, n_resamples: int = 1000, seed: int = 0,
        log: Callable[[str], None] = print) -> dict:
    """Both sets; Markdown and JSON written to ``out``."""
    result = {"sets": {name: _correlate(name, data, n_resamples, seed, log) for name in SETS}}
    markdown = "# parapeval: which metric to trust for paraphrases\n\n" + "\n".join(
        f"## {name}\n\n{leaderboard_table(result, name)}" for name in SETS)
    write_report(out, "metrics", markdown, result)
    print(markdown)
    return result
