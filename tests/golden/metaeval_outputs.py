"""The outputs the meta-evaluation code must keep: every ``correlate`` command (summeval, mteval;
JSON and table) and the summeval system means, on the demo data and small written judgments.

    .venv/bin/python tests/golden/metaeval_outputs.py   # rewrites metaeval_golden.json

``metaeval_golden.json`` was written by the code before the statistics and readers moved into
evalcore; ``tests/test_metaeval_pinned.py`` checks that today's outputs equal it. The summeval
report's "Significance clusters" section was added to it later, the rest of the file unchanged.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "data" / "demo"
GOLDEN = Path(__file__).with_name("metaeval_golden.json")
TAC = ["--models", str(DEMO / "models"), "--peers", str(DEMO / "peers")]


def _run(main, argv: list[str], folder: Path) -> dict:
    """Exit code, stdout and stderr of one CLI call (the folder's path replaced by TMP)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return {"rc": code, "out": out.getvalue(), "err": err.getvalue().replace(str(folder), "TMP")}


def _summeval(folder: Path) -> dict:
    from summeval.cli import main

    rec = {}
    scores = folder / "sum.json"
    _run(main, ["score", *TAC, "-m", "tesla-s", "-m", "rouge-2", "-m", "rouge-1", "--format", "json",
                "-o", str(scores)], folder)
    rec["summeval score json"] = json.loads(scores.read_text())
    human = folder / "human.tsv"
    quality = {"1": 5, "2": 1, "3": 2, "4": 3}
    human.write_text("topic\tsystem\tcontent\tfluency\n" + "".join(
        f"D000{t}-A\t{s}\t{v + 0.1 * t}\t{(v * t) % 4}\n" for t in (1, 2, 3) for s, v in quality.items()))
    for fmt in ("json", "table"):
        rec[f"summeval correlate {fmt}"] = _run(main, ["correlate", "--scores", str(scores), "--human", str(human),
                                                       "--compare", "tesla-s", "rouge-2", "--bootstrap", "200",
                                                       "--format", fmt], folder)
    _run(main, ["score", *TAC, "-m", "tesla-s", "-m", "rouge-2", "--report", str(folder / "rep"), "--human",
                str(human), "-o", str(folder / "rep.txt")], folder)
    rec["summeval report.md"] = (folder / "rep" / "report.md").read_text()
    return rec


def _mteval(folder: Path) -> dict:
    from mteval.cli import main

    rec = {}
    mt = DEMO / "mt"
    lines = (mt / "system-a.en").read_text("utf-8").splitlines()
    third = folder / "system-c.en"
    third.write_text("\n".join(line if k % 2 else " ".join(line.split()[:3]) for k, line in enumerate(lines)) + "\n")
    scores = folder / "mt.json"
    _run(main, ["score", "-r", str(mt / "ref.A.en"), "-i", str(mt / "system-a.en"), str(mt / "system-b.en"),
                str(third), "-m", "bleu", "-m", "ter", "-m", "chrf", "--segments", "--format", "json",
                "-o", str(scores)], folder)
    segments = folder / "seg.tsv"
    levels = (("system-a.en", 5), ("system-b.en", 1), ("system-c.en", 3))
    segments.write_text("system\tline\tadequacy\tfluency\n" + "".join(
        f"{s}\t{k}\t{v + k % 3}\t{(v * k) % 5}\n" for s, v in levels for k in range(1, 9)))
    systems = folder / "sys.csv"
    systems.write_text("system,quality\nsystem-a.en,70\nsystem-b.en,20\nsystem-c.en,45\n")
    for fmt in ("json", "table"):
        for level, human in (("segment", segments), ("system", systems)):
            rec[f"mteval correlate {level} {fmt}"] = _run(
                main, ["correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "200",
                       "--format", fmt], folder)
    return rec


def outputs(folder: Path) -> dict:
    """Every pinned output, computed in ``folder`` (a scratch directory)."""
    return {**_summeval(folder), **_mteval(folder)}


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        GOLDEN.write_text(json.dumps(outputs(Path(tmp)), indent=1, sort_keys=True, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {GOLDEN}")
