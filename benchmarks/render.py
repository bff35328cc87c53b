"""The docs' result tables, generated from committed benchmark data, so a rerun is a data commit.

``docs/results/data/NAME.json`` holds one run of benchmark NAME: ``{"run": the harness's run
record (command, commit, date, machine, timing policy), "result": the benchmark's own JSON}``. A
page marks each generated region::

    <!-- bench:NAME:TABLE -->
    (generated)
    <!-- /bench -->

A variant run (the benchmark with other options, ``make bench``'s ``bench/variants/VARIANT``) is a
committed run too: ``docs/results/data/VARIANT.json``, shown as ``<!-- bench:VARIANT:TABLE -->`` with
the tables of the benchmark it runs (``VARIANTS``).

``python -m benchmarks render`` rewrites every region from the data (``--check``: change nothing,
exit 1 naming the stale pages); ``--collect DIR`` first copies the runs in DIR (``DIR/NAME/``, as
``make bench`` leaves them, or DIR itself; variants in ``DIR/variants/VARIANT/`` or ``DIR/VARIANT/``)
into the data.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from evalcore.io.runinfo import machine_line
from evalcore.io.textfiles import InputError

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DATA = DOCS / "results" / "data"
REGION = re.compile(r"<!-- bench:([\w-]+):([\w-]+) -->\n.*?<!-- /bench -->", re.S)

Table = Callable[[dict], str]


def _table(module: str, function: str, *args: object, **kwargs: object) -> Table:
    """``benchmarks.MODULE.FUNCTION(result, *args, **kwargs)``, imported only when a page asks for
    it (a benchmark module may import a whole metric family)."""

    def render(result: dict) -> str:
        return getattr(importlib.import_module(f"benchmarks.{module}"), function)(result, *args, **kwargs)

    return render


def _celab_section(result: dict, key: str) -> str:
    from benchmarks.mteval.celab import sections

    return sections(result)[key][1]


def _srl_speed(result: dict) -> str:
    from benchmarks.mteval.srl import speed_table

    return speed_table(result, result["machine"]["cores"])


def _lp_table(part: str) -> Table:
    """A table of the matching benchmark, drawn from its ``lp`` report."""

    def render(result: dict) -> str:
        from benchmarks.evalcore import matching

        lp = result["lp"]
        if part.startswith("workload-"):
            return matching.workload_markdown(lp, lp["workloads"][int(part.removeprefix("workload-")) - 1])
        return {"dense-sparse": matching.dense_sparse_table, "split-whole": matching.split_whole_table}[part](lp)

    return render


def _signature_line(result: dict) -> str:
    return f"Signature `{result['signature']}`."


def _signatures(result: dict) -> str:
    return "\n".join(f"- `{s}`" for s in result["signatures"].values())


PARSER_SETS = {"gdtb-test": "GDTB test", "gdtb-test2": "GDTB test2 (GENTLE, out of genre)",
               "tedm-test": "TED-MDB test (out of domain)"}
WMT_BLOCKS = ("kendall-wmt12", "kendall-no-ties", "comparisons", "spearman", "pearson", "significance", "mqm-en-de",
              "mqm-en-de-refs", "mqm-zh-en", "mqm-significance", "flag", "speed", "left-out", "signatures")
RED_ROWS = ("red", "redp", "bleu", "chrf", "meteor")
#: transfer's settings by region name
TRANSFER_SETTINGS = {"summeval-dialsummeval": "summeval->dialsummeval",
                     "dialsummeval-summeval": "dialsummeval->summeval",
                     "summeval-cv": "summeval CV", "dialsummeval-cv": "dialsummeval CV"}

#: benchmark -> (the stem of the JSON it writes into --out, {table: render(result)})
TABLES: dict[str, tuple[str, dict[str, Table]]] = {
    "summeval": ("summeval", {"targets": _table("summeval.summeval_bench", "targets_table"),
                              "original": _table("summeval.summeval_bench", "setting_markdown", "original"),
                              "all": _table("summeval.summeval_bench", "setting_markdown", "all"),
                              "clusters-original": _table("summeval.summeval_bench", "clusters_markdown", "original"),
                              "clusters-all": _table("summeval.summeval_bench", "clusters_markdown", "all"),
                              "signatures": _signatures}),
    "transfer": ("transfer", {**{f"{key}-{dim}": _table("summeval.transfer", "setting_table", setting, dim)
                                 for key, setting in TRANSFER_SETTINGS.items()
                                 for dim in ("coherence", "fluency", "mean")},
                              "targets": _table("summeval.transfer", "targets_table"),
                              "permutation": _table("summeval.transfer", "permutation_table")}),
    "summeval-speed": ("speed", {"setup": _table("summeval.speed", "setup_line"),
                                 "targets": _table("summeval.speed", "targets_table"),
                                 "measurements": _table("summeval.speed", "measurements_markdown")}),
    "scale": ("scale", {"runs": _table("summeval.scale", "runs_markdown")}),
    "languages": ("languages", {**{lang: _table("summeval.languages", "correlation_markdown", lang)
                                   for lang in ("de", "fr", "ru")},
                                "claims": _table("summeval.languages", "claims_line")}),
    "parapeval-speed": ("speed", {"speed": _table("parapeval.speed", "speed_tables")}),
    "mteval-speed": ("speed", {"speed": _table("mteval.speed", "tables")}),
    "tesla-m-speed": ("tesla_m_speed", {"stages": _table("mteval.tesla", "stage_table"),
                                        "baselines": _table("mteval.tesla", "baseline_table"),
                                        "paths": _table("mteval.tesla", "paths_line")}),
    "responsiveness": ("responsiveness", {"setup": _table("summeval.responsiveness", "setup_markdown"),
                                          "targets": _table("summeval.responsiveness", "target_table"),
                                          "full": _table("summeval.responsiveness", "full_tables"),
                                          "clusters": _table("summeval.responsiveness", "clusters")}),
    "parser": ("parser", {"setup": _table("coherence.parser", "header_markdown"),
                          **{key: _table("coherence.parser", "set_markdown", t) for key, t in PARSER_SETS.items()},
                          "speed": _table("coherence.parser", "speed_markdown")}),
    "coherence-speed": ("speed", {"speed": _table("coherence.speed", "results_markdown"),
                                  "target": _table("coherence.speed", "target_table")}),
    "readability": ("readability", {"setup": _table("coherence.readability", "setup_line"),
                                    "folds": _table("coherence.readability", "fold_table"),
                                    "weights": _table("coherence.readability", "weights_table"),
                                    **{name: _table("coherence.readability", "set_table", name)
                                       for name in ("summeval", "dialsummeval", "webnlg")},
                                    "cremer": _table("coherence.readability", "cremer_table")}),
    "dicomer-variants": ("dicomer_variants", {"coherence": _table("coherence.dicomer_variants", "headline_table",
                                                                  "coherence"),
                                    "fluency": _table("coherence.dicomer_variants", "headline_table", "fluency"),
                                    "throughput": _table("coherence.dicomer_variants", "throughput_line")}),
    "parapeval-generators": ("generators", {test: _table("parapeval.generators", "run_table", test)
                                            for test in ("bs", "ar")}),
    "parapeval-metrics": ("metrics", {name: _table("parapeval.metrics", "leaderboard_table", name)
                                      for name in ("twitter-para", "sts-b")}),
    "parapeval": ("bench", {"signature": _signature_line, "twitter-para": _table("parapeval.run", "twitter_para_table"),
                            "sts-b": _table("parapeval.run", "sts_table", per_pivot=False)}),
    "celab": ("celab", {key: partial(_celab_section, key=key) for key in
                        ("setup", "ranking", "agreement", "reference-b", "speed", "lp", "signatures")}),
    "wmt": ("wmt", {**{key: _table("mteval.wmt", "block", key) for key in WMT_BLOCKS},
                    "red-kendall-wmt12": _table("mteval.wmt", "kendall_table", "kendall_wmt12", RED_ROWS),
                    "red-kendall-no-ties": _table("mteval.wmt", "kendall_table", "kendall_no_ties", RED_ROWS),
                    **{f"en-de-{key}": _table("mteval.wmt", "kendall_table", key.replace("-", "_"), None,
                                              ("en-de",), ()) for key in ("kendall-wmt12", "kendall-no-ties")},
                    "beer2-summary": _table("mteval.wmt", "summary_table", "beer2")}),
    "srl": ("srl", {"systems": _table("mteval.srl", "systems_table"), "kinds": _table("mteval.srl", "kinds_table"),
                    "speed": _srl_speed}),
    "hmeant": ("hmeant", {f"{part}-{lang}": _table("mteval.hmeant", function, lang) for lang in ("en", "de")
                          for part, function in (("correlations", "correlation_table"),
                                                 ("agreement", "agreement_table"))}),
    "aso": ("aso", {"scores": _table("mteval.aso.nominal", "scores_table"),
                    "differences": _table("mteval.aso.nominal", "differences_table")}),
    "matching": ("lp", {part: _lp_table(part) for part in ("workload-1", "workload-2", "dense-sparse", "split-whole")}),
}

#: variant run -> the benchmark command it runs; a page shows it with that benchmark's tables
VARIANTS = {"mqm-beer-held-out": "mqm", "dicomer-variants-tier0": "dicomer-variants",
            "tesla-m-speed-en-de": "tesla-m-speed", "wmt-de": "wmt", "wmt-tesla-f-held-out": "wmt"}
#: commands that write a benchmark's report, for part of its pairs, as ``COMMAND.json``
PART_OF = {"mqm": "wmt", "wmt12": "wmt"}


def _benchmark(name: str) -> tuple[str, str, dict[str, Table]]:
    """(command, stem of its JSON, tables) of the run ``name``, a benchmark or a variant; an error naming it
    when it is neither."""
    if name not in TABLES and name not in VARIANTS:
        raise InputError(f"unknown run {name!r}: neither a benchmark ({', '.join(TABLES)}) nor a variant run "
                         f"({', '.join(VARIANTS)}); a variant needs its entry in benchmarks/render.py's VARIANTS")
    command = VARIANTS.get(name, name)
    if command in PART_OF:
        return command, command, TABLES[PART_OF[command]][1]
    return command, *TABLES[command]


def _command(run: dict) -> str:
    """The run's command without its ``--out DIR`` (where the tables went, not what they hold)."""
    words = run["command"]
    return " ".join(w for i, w in enumerate(words)
                    if w != "--out" and not w.startswith("--out=") and (i == 0 or words[i - 1] != "--out"))


def run_line(run: dict, name: str | None = None) -> str:
    """Where a generated table comes from (the committed run ``name``, by default the benchmark's own):
    command, commit, date, machine and wall time."""
    return (f"Generated from `docs/results/data/{name or run['benchmark']}.json`: `{_command(run)}` at commit "
            f"{run['commit']}, {run['date']}, {run['wall_seconds']:.0f} s wall. {machine_line(run['machine'])}")


def load(name: str, data: Path = DATA) -> dict:
    """The committed run ``name`` (a benchmark's or a variant's); an error naming the file when it is missing."""
    path = data / f"{name}.json"
    if not path.is_file():
        raise InputError(f"{path}: no committed run of {name!r} "
                         "(make bench, then python -m benchmarks render --collect bench)")
    return json.loads(path.read_text("utf-8"))


def render_region(name: str, table: str, data: Path = DATA) -> str:
    """One region's generated Markdown, markers included."""
    try:
        tables = _benchmark(name)[2]
    except InputError as exc:
        raise InputError(f"bench:{name}:{table}: {exc}") from None
    if table != "run" and table not in tables:
        raise InputError(f"unknown region bench:{name}:{table}; {name}'s tables: {', '.join(('run', *tables))}")
    stored = load(name, data)
    body = run_line(stored["run"], name) if table == "run" else tables[table](stored["result"])
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
    """Copy the runs in ``folder`` into ``data``: a run of benchmark NAME is ``folder/NAME/run-NAME.json``
    (as ``make bench`` writes them) or ``folder/run-NAME.json``, beside the benchmark's own JSON; a variant
    run is in ``folder/variants/VARIANT/``, ``folder/VARIANT/`` or ``folder`` itself when so named (never
    taken for the benchmark's own run then). Variants not in ``VARIANTS`` (tables still pasted) are not
    collected, and a run with options is never taken for a benchmark's own run (an InputError)."""
    names = []
    for name in [*TABLES, *VARIANTS]:
        command, stem, _ = _benchmark(name)
        itself = folder.name == name if folder.name in VARIANTS else name in TABLES
        places = (folder / "variants" / name, folder / name, *((folder,) if itself else ()))
        place = next((d for d in places if (d / f"run-{command}.json").is_file()), None)
        if place is None:
            continue
        result = place / f"{stem}.json"
        if not result.is_file():
            raise InputError(f"{result}: missing beside the run record {place / f'run-{command}.json'}")
        run = json.loads((place / f"run-{command}.json").read_text("utf-8"))
        if name in TABLES and _command(run) != f"python -m benchmarks {name}":
            raise InputError(f"{place / f'run-{command}.json'}: `{_command(run)}` is a run with options, not the "
                             f"default run of {name}; a variant is collected only under a name in "
                             "benchmarks/render.py's VARIANTS")
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
        pasted = sorted(d.name for d in (a.collect / "variants").glob("*") if d.is_dir() and d.name not in VARIANTS)
        print(f"collected: {', '.join(names) or 'nothing'}" + (f"; variants not collected (tables pasted): "
              f"{', '.join(pasted)}" if pasted else ""), file=sys.stderr)
    stale = render_pages(check=a.check)
    for page in stale:
        print(f"{page.relative_to(ROOT)}: {'stale' if a.check else 'rewritten'}", file=sys.stderr)
    return 1 if a.check and stale else 0
