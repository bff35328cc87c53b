"""The docs' result tables, generated from committed benchmark data, so a rerun is a data commit.

``docs/results/data/NAME.json`` holds one run of benchmark NAME: ``{"run": the harness's run
record (command, commit, date, machine, timing policy), "result": the benchmark's own JSON}``. A
page marks each generated region::

    <!-- bench:NAME:TABLE -->
    (generated)
    <!-- /bench -->

``python -m benchmarks render`` rewrites every region from the data (``--check``: change nothing,
exit 1 naming the stale pages); ``--collect DIR`` first copies the runs in DIR (``DIR/NAME/``, as
``make bench`` leaves them, or DIR itself) into the data.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from evalcore.runinfo import machine_line
from evalcore.textio import InputError

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DATA = DOCS / "results" / "data"
REGION = re.compile(r"<!-- bench:([\w-]+):([\w-]+) -->\n.*?<!-- /bench -->", re.S)

Table = Callable[[dict], str]


def _celab(key: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval.celab import sections

        return sections(result)[key][1]

    return render


def _summeval_setting(refs: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.summeval.summeval_bench import setting_markdown

        return setting_markdown(result, refs)

    return render


def _summeval_targets(result: dict) -> str:
    from benchmarks.summeval.summeval_bench import targets_table

    return targets_table(result)


def _scale_runs(result: dict) -> str:
    from benchmarks.summeval.scale import runs_markdown

    return runs_markdown(result)


def _pem_speed(result: dict) -> str:
    from benchmarks.parapeval.speed import speed_tables

    return speed_tables(result)


def _tesla_speed(result: dict) -> str:
    from benchmarks.mteval.speed import tables

    return tables(result)


def _tesla_m(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval import tesla

        return {"stages": tesla.stage_table, "baselines": tesla.baseline_table, "paths": tesla.paths_line}[part](result)

    return render


def _cremer(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.summeval import responsiveness

        return {"setup": responsiveness.setup_markdown, "targets": responsiveness.target_table,
                "full": responsiveness.full_tables}[part](result)

    return render


def _wmt(key: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval.wmt import block

        return block(result, key)

    return render


def _parser(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.coherence import parser

        if part in PARSER_SETS:
            return parser.set_markdown(result, PARSER_SETS[part])
        return {"setup": parser.header_markdown, "speed": parser.speed_markdown}[part](result)

    return render


def _wmt_kendall(key: str, metrics: tuple[str, ...]) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval.wmt import INTO_ENGLISH, kendall_table

        return kendall_table(result, key, metrics, INTO_ENGLISH, ("into-English",))

    return render


PARSER_SETS = {"gdtb-test": "GDTB test", "gdtb-test2": "GDTB test2 (GENTLE, out of genre)",
               "tedm-test": "TED-MDB test (out of domain)"}


def _readability(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.coherence import readability

        return readability.throughput_line(result) if part == "throughput" else readability.headline_table(result, part)

    return render


def _wmt_summary(metric: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval.wmt import summary_table

        return summary_table(result, metric)

    return render


def _pem(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.parapeval import run

        return {"signature": lambda r: f"Signature `{r['signature']}`.", "twitter-para": run.twitter_para_table,
                "sts-b": lambda r: run.sts_table(r, per_pivot=False)}[part](result)

    return render


WMT_BLOCKS = ("kendall-wmt12", "kendall-no-ties", "comparisons", "spearman", "pearson", "significance", "mqm-en-de",
              "mqm-en-de-refs", "mqm-zh-en", "mqm-significance", "flag", "speed", "left-out", "signatures")
RED_ROWS = ("red", "redp", "bleu", "chrf", "meteor")


def _srl(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval import srl

        return {"systems": srl.systems_table, "kinds": srl.kinds_table,
                "speed": lambda r: srl.speed_table(r, r["machine"]["cores"])}[part](result)

    return render


def _hmeant(part: str, language: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval import hmeant

        return {"correlations": hmeant.correlation_table, "agreement": hmeant.agreement_table}[part](result, language)

    return render


def _aso(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.mteval.aso import nominal

        return {"scores": nominal.scores_table, "differences": nominal.differences_table}[part](result)

    return render


def _matching(part: str) -> Table:
    def render(result: dict) -> str:
        from benchmarks.evalcore import matching

        lp = result["lp"]
        if part.startswith("workload-"):
            return matching.workload_markdown(lp, lp["workloads"][int(part.removeprefix("workload-")) - 1])
        return {"dense-sparse": matching.dense_sparse_table, "split-whole": matching.split_whole_table}[part](lp)

    return render


def _signatures(result: dict) -> str:
    return "\n".join(f"- `{s}`" for s in result["signatures"].values())


#: benchmark -> (the stem of the JSON it writes into --out, {table: render(result)})
TABLES: dict[str, tuple[str, dict[str, Table]]] = {
    "summeval": ("summeval", {"targets": _summeval_targets, "original": _summeval_setting("original"),
                              "all": _summeval_setting("all"), "signatures": _signatures}),
    "scale": ("scale", {"runs": _scale_runs}),
    "parapeval-speed": ("speed", {"speed": _pem_speed}),
    "mteval-speed": ("speed", {"speed": _tesla_speed}),
    "tesla-m-speed": ("tesla_m_speed", {part: _tesla_m(part) for part in ("stages", "baselines", "paths")}),
    "responsiveness": ("responsiveness", {part: _cremer(part) for part in ("setup", "targets", "full")}),
    "parser": ("parser", {part: _parser(part) for part in ("setup", *PARSER_SETS, "speed")}),
    "readability": ("readability", {part: _readability(part) for part in ("coherence", "fluency", "throughput")}),
    "parapeval": ("bench", {part: _pem(part) for part in ("signature", "twitter-para", "sts-b")}),
    "celab": ("celab", {key: _celab(key) for key in
                        ("setup", "ranking", "agreement", "reference-b", "speed", "lp", "signatures")}),
    "wmt": ("wmt", {**{key: _wmt(key) for key in WMT_BLOCKS},
                    "red-kendall-wmt12": _wmt_kendall("kendall_wmt12", RED_ROWS),
                    "red-kendall-no-ties": _wmt_kendall("kendall_no_ties", RED_ROWS),
                    "beer2-summary": _wmt_summary("beer2")}),
    "srl": ("srl", {part: _srl(part) for part in ("systems", "kinds", "speed")}),
    "hmeant": ("hmeant", {f"{part}-{lang}": _hmeant(part, lang) for part in ("correlations", "agreement")
                          for lang in ("en", "de")}),
    "aso": ("aso", {part: _aso(part) for part in ("scores", "differences")}),
    "matching": ("lp", {part: _matching(part) for part in ("workload-1", "workload-2", "dense-sparse", "split-whole")}),
}


def _command(run: dict) -> str:
    """The run's command without its ``--out DIR`` (where the tables went, not what they hold)."""
    words = run["command"]
    return " ".join(w for i, w in enumerate(words)
                    if w != "--out" and not w.startswith("--out=") and (i == 0 or words[i - 1] != "--out"))


def run_line(run: dict) -> str:
    """Where a generated table comes from: command, commit, date, machine and wall time."""
    return (f"Generated from `docs/results/data/{run['benchmark']}.json`: `{_command(run)}` at commit "
            f"{run['commit']}, {run['date']}, {run['wall_seconds']:.0f} s wall. {machine_line(run['machine'])}")


def load(name: str, data: Path = DATA) -> dict:
    """The committed run of benchmark ``name``; an error naming the file when it is missing."""
    path = data / f"{name}.json"
    if not path.is_file():
        raise InputError(f"{path}: no committed run of {name!r} "
                         "(make bench, then python -m benchmarks render --collect bench)")
    return json.loads(path.read_text("utf-8"))


def render_region(name: str, table: str, data: Path = DATA) -> str:
    """One region's generated Markdown, markers included."""
    if name not in TABLES or (table != "run" and table not in TABLES[name][1]):
        known = ", ".join(f"{n}:{t}" for n, (_, tables) in TABLES.items() for t in ("run", *tables))
        raise InputError(f"unknown region bench:{name}:{table}; known: {known}")
    stored = load(name, data)
    body = run_line(stored["run"]) if table == "run" else TABLES[name][1][table](stored["result"])
    return f"<!-- bench:{name}:{table} -->\n\n{body.strip()}\n\n<!-- /bench -->"


def render_text(text: str, data: Path = DATA) -> str:
    """``text`` with every marked region regenerated."""
    return REGION.sub(lambda m: render_region(m.group(1), m.group(2), data), text)


def render_pages(docs: Path = DOCS, data: Path = DATA, check: bool = False) -> list[Path]:
    """Regenerate every page's regions (unless ``check``); return the pages that were stale."""
    stale = []
    for page in sorted(docs.rglob("*.md")):
        text = page.read_text("utf-8")
        try:
            new = render_text(text, data)
        except InputError as exc:
            raise InputError(f"{page}: {exc}") from None
        if new != text:
            stale.append(page)
            if not check:
                page.write_text(new, "utf-8")
    return stale


def collect(folder: Path, data: Path = DATA) -> list[str]:
    """Copy the runs in ``folder`` into ``data``: a run of NAME is ``folder/NAME/run-NAME.json`` (as
    ``make bench`` writes them) or ``folder/run-NAME.json``, beside the benchmark's own JSON. Other
    folders (a run with other options) are not collected."""
    names = []
    for name, (stem, _) in TABLES.items():
        place = next((d for d in (folder / name, folder) if (d / f"run-{name}.json").is_file()), None)
        if place is None:
            continue
        result = place / f"{stem}.json"
        if not result.is_file():
            raise InputError(f"{result}: missing beside the run record {place / f'run-{name}.json'}")
        run = json.loads((place / f"run-{name}.json").read_text("utf-8"))
        stored = {"run": run, "result": json.loads(result.read_text("utf-8"))}
        data.mkdir(parents=True, exist_ok=True)
        (data / f"{name}.json").write_text(json.dumps(stored, indent=1, ensure_ascii=False) + "\n", "utf-8")
        names.append(name)
    return names


def main(argv: Sequence[str]) -> int:
    """``python -m benchmarks render [--collect DIR] [--check]``: exit 0, 1 when pages are stale
    under ``--check``, 2 on a usage error or missing data."""
    p = argparse.ArgumentParser(prog="python -m benchmarks render", description=__doc__.split("\n")[0])
    p.add_argument("--collect", type=Path, metavar="DIR", help="first copy the runs under DIR into docs/results/data")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a page differs from its data")
    a = p.parse_args(argv)
    if a.collect is not None:
        if not a.collect.is_dir():
            raise InputError(f"{a.collect}: not a folder")
        names = collect(a.collect)
        print(f"collected: {', '.join(names) or 'nothing'}", file=sys.stderr)
    stale = render_pages(check=a.check)
    for page in stale:
        print(f"{page.relative_to(ROOT)}: {'stale' if a.check else 'rewritten'}", file=sys.stderr)
    return 1 if a.check and stale else 0
