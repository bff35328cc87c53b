"""Ranking paraphrase generators: their outputs lined up by input, every metric's system table
(corpus value, bootstrap interval, paired tests between every pair of systems, significance
clusters: :func:`evalcore.stats.systems.system_table`), rendered as a table, JSON, TSV or HTML.

Inputs line up across systems by their JSONL ``id`` where given, else by the original's text (TSV,
JSONL without ids), or by line number (one file per system beside a file of originals). An input
a system lacks, or gives twice, is named; such a system's value covers only what it has, is
marked incomplete and is left out of intervals, tests and clusters, never compared on fewer inputs
as if complete."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evalcore.cli.convention import strict_json, tsv_cell
from evalcore.io.textfiles import InputError, LineError, decode_lines, read_bytes
from evalcore.metric import Metric
from evalcore.metric.base import Result
from evalcore.metric.statistics import SufficientStatistics
from evalcore.stats.systems import system_table
from parapeval.io import PairRecord
from parapeval.report import Row


def read_line_files(originals: str, systems: Sequence[tuple[str, str]], references: Sequence[str]) -> list[PairRecord]:
    """Records of one-file-per-system outputs (``(name, path)``), line k of each paired with line
    k of ``originals`` and of each references file. Files of unequal length are an InputError
    naming them (nothing would line up); an undecodable line is that line's error record."""
    def lines(path: str) -> list[str | LineError]:
        return decode_lines(read_bytes(path), path)  # an empty last line is an output: it stays

    orig = lines(originals)
    refs = [lines(path) for path in references]
    outs = [(name, path, lines(path)) for name, path in systems]
    for path, got in [*zip(references, refs), *((path, got) for _, path, got in outs)]:
        if len(got) != len(orig):
            raise InputError(f"{path}: {len(got)} lines, but {originals} has {len(orig)}: the files must be "
                             "line-aligned")
    if not orig:
        raise InputError(f"{originals}: no originals (empty file)")
    records = []
    for name, path, hyp in outs:
        for k, text in enumerate(hyp):
            bad = next((x for x in (orig[k], text, *(r[k] for r in refs)) if isinstance(x, LineError)), None)
            item = f"{shown_name(path)}:{k + 1}"
            if bad is not None:  # the message without the file:line the item id already says
                records.append(PairRecord(item, None, None, name, bad.message.split(": ", 1)[-1], key=k))
            else:
                records.append(PairRecord(item, orig[k], text, name, references=tuple(r[k] for r in refs), key=k))
    return records


def shown_name(path: str) -> str:
    """A path as item ids show it (its file name)."""
    return Path(path).name


@dataclass
class Aligned:
    """Records lined up by input: the systems in first-seen order, the inputs' keys, and per
    system which record holds each key; records that duplicate a key are named in ``duplicates``."""

    systems: list[str]
    keys: list
    index: dict[str, dict] = field(default_factory=dict)
    duplicates: dict[int, str] = field(default_factory=dict)
    #: per system, the keys of its records that could not be read (an error record, not missing)
    unread: dict[str, set] = field(default_factory=dict)

    def missing(self, system: str) -> int:
        """Inputs this system has no record for (a record it has but could not read is an error)."""
        return len(self.keys) - len(self.index[system]) - len(self.unread[system] - set(self.index[system]))


def align(records: Sequence[PairRecord]) -> Aligned:
    """Line the records up by key; a record without a key (a read error) stays the system's error."""
    systems = list(dict.fromkeys(r.system for r in records))
    keys: dict = {}
    out = Aligned(systems, [], {s: {} for s in systems}, unread={s: set() for s in systems})
    for k, rec in enumerate(records):
        if rec.key is None:
            continue
        try:
            hash(rec.key)
        except TypeError:  # a JSON value that is not text: the metric's input check names it
            continue
        keys.setdefault(rec.key, None)
        if rec.error:
            out.unread[rec.system].add(rec.key)
            continue
        held = out.index[rec.system]
        if rec.key in held:
            out.duplicates[k] = f"duplicate input: {records[held[rec.key]].item} has the same " + (
                "id" if isinstance(rec.key, tuple) else "original")
        else:
            held[rec.key] = k
    out.keys = list(keys)
    return out


def _values(metric: Metric, results: Sequence[Result]):
    """A system's per-input values, or statistics where the metric has a corpus rule."""
    scores = [r for r in results if r.ok]
    if isinstance(metric, SufficientStatistics):
        return metric.statistics(scores)
    return np.array([s.value for s in scores], dtype=float)


def metric_tables(metrics: Sequence[Metric], rows: Sequence[Row], aligned: Aligned, test: str | None,
                  n_samples: int | None, seed: int, alpha: float = 0.05) -> dict[str, dict]:
    """Per metric, the system table: complete systems (every input scored) with intervals, tests
    and clusters; incomplete ones listed after them with their value over what they have."""
    out = {}
    for m in metrics:
        per_system: dict[str, list[Result]] = {}
        info = {}
        for system in aligned.systems:
            held = aligned.index[system]
            results = [rows[held[key]].results[m.name] for key in aligned.keys if key in held]
            kept = set(held.values())  # rows of read errors and repeated inputs are errors too
            errors = sum(not r.ok for r in results) + sum(
                1 for k, r in enumerate(rows) if r.system == system and k not in kept)
            info[system] = {"n": sum(r.ok for r in results), "errors": errors, "missing": aligned.missing(system)}
            per_system[system] = results
        complete = [s for s in aligned.systems if info[s]["n"] == len(aligned.keys) and not info[s]["errors"]]
        aggregate = m.corpus_from_statistics if isinstance(m, SufficientStatistics) else None
        entry: dict = {"systems": [], "pairs": [], "left_out": {}, "lower_is_better": m.lower_is_better}
        if complete:
            use_test = test if len(complete) > 1 else None
            entry = {**system_table({s: _values(m, per_system[s]) for s in complete}, aggregate, m.lower_is_better,
                                    use_test, n_samples, seed, alpha=alpha), "left_out": {}}
        for row in entry["systems"]:
            row.update(info[row["system"]], complete=True)
        if not isinstance(m, SufficientStatistics):  # PEM's adequacy, fluency, target F1: their means
            for row in entry["systems"]:
                row["components"] = dict(m.aggregate(per_system[row["system"]]).components)
        for s in aligned.systems:
            if s not in complete:
                value = m.aggregate(per_system[s]).value if info[s]["n"] else math.nan
                entry["systems"].append({"system": s, "value": value, "mean": None, "ci_low": None, "ci_high": None,
                                         "rank": None, "cluster": None, "cluster_head": None, "p_vs_head": None,
                                         **info[s], "complete": False})
                entry["left_out"][s] = (f"scored {info[s]['n']} of {len(aligned.keys)} inputs "
                                        f"({info[s]['errors']} error records, {info[s]['missing']} missing)")
        out[m.name] = entry
    return out


def render_json(rows: Sequence[Row], tables: Mapping[str, dict], signatures: Mapping[str, dict],
                aligned: Aligned) -> str:
    """One strict JSON document: signatures, inputs, per-metric system tables, every item's results."""
    return strict_json({"signature": dict(signatures), "inputs": len(aligned.keys), "systems": aligned.systems,
                        "metrics": dict(tables), "items": [r.as_dict() for r in rows],
                        "failed_items": sum(r.failed for r in rows)}) + "\n"


TSV_FIELDS = ("rank", "cluster", "value", "mean", "ci_low", "ci_high", "p_vs_head", "n", "errors", "missing",
              "complete")


def render_tsv(tables: Mapping[str, dict]) -> str:
    """A header and one row per (metric, system): the system table without the pair tests."""
    lines = ["\t".join(("metric", "system", *TSV_FIELDS))]
    for name, table in tables.items():
        lines += ["\t".join((tsv_cell(name), tsv_cell(r["system"]), *(tsv_cell(r[f]) for f in TSV_FIELDS)))
                  for r in table["systems"]]
    return "\n".join(lines) + "\n"


def _num(value, digits: int = 2) -> str:
    return "-" if value is None or (isinstance(value, float) and not math.isfinite(value)) else f"{value:.{digits}f}"


def _cells(name: str, table: Mapping) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of one metric's system table (plain and HTML)."""
    head = ["rank", "cluster", "system", name, "95% CI", "p vs head", "n", "errors", "missing"]
    body = [["-" if r["rank"] is None else str(r["rank"]), "-" if r["cluster"] is None else str(r["cluster"]),
             r["system"], _num(r["value"], 4),
             "" if r["ci_low"] is None else f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}]",
             "" if r["p_vs_head"] is None else f"{r['p_vs_head']:.4f}",
             str(r["n"]), str(r["errors"]), str(r["missing"])]
            for r in table["systems"]]
    return head, body


def _pair_cells(table: Mapping) -> tuple[list[str], list[list[str]]]:
    head = ["system A", "system B", "A - B", "95% CI of A - B", "p"]
    body = [[p["a"], p["b"], f"{p['difference']:.4f}", f"[{p['ci_low']:.4f}, {p['ci_high']:.4f}]",
             f"{p['p_value']:.4f}"] for p in table["pairs"]]
    return head, body


def _grid(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(c) for c in col) for col in zip(header, *body)]
    return ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in (header, *body)]


def _settings(table: Mapping) -> str:
    """How a metric's table was made, in one line."""
    test = {"bootstrap": "paired bootstrap", "randomization": "approximate randomization"}.get(table.get("test") or "")
    ci = f"{table['n_ci']} bootstrap resamples, seed {table['seed']}" if "n_ci" in table else "no complete system"
    order = "lower is better" if table.get("lower_is_better") else "higher is better"
    tested = f"; {test} ({table['n_samples']} samples) between every pair" if test else "; no paired test"
    return f"{order}; intervals over inputs: {ci}{tested}"


def render_table(tables: Mapping[str, dict], n_systems: int, n_inputs: int) -> str:
    """Per metric: systems best first with interval and cluster, then the pair tests."""
    out = [f"{n_systems} systems, {n_inputs} inputs", ""]
    for name, table in tables.items():
        out.append(f"{name}: {_settings(table)}")
        out += _grid(*_cells(name, table))
        if table["pairs"]:
            out.append("")
            out += _grid(*_pair_cells(table))
        out += [f"left out: {s}: {why}" for s, why in table["left_out"].items()]
        out.append("")
    return "\n".join(out)


def render_html(tables: Mapping[str, dict], n_systems: int, n_inputs: int, signatures: Sequence[str]) -> str:
    """A standalone HTML page: one section per metric (system table, pair tests), the signatures."""
    def grid(head: Sequence[str], body: Sequence[Sequence[str]], cls: str) -> str:
        th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
        tr = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>\n" for row in body)
        return f'<table class="{cls}">\n<tr>{th}</tr>\n{tr}</table>\n'

    parts = []
    for name, table in tables.items():
        parts.append(f'<section id="{html.escape(name)}"><h2>{html.escape(name)}</h2>\n'
                     f"<p>{html.escape(_settings(table))}</p>\n" + grid(*_cells(name, table), "systems"))
        if table["pairs"]:
            parts.append(grid(*_pair_cells(table), "pairs"))
        parts += [f"<p class=\"left-out\">left out: {html.escape(s)}: {html.escape(why)}</p>\n"
                  for s, why in table["left_out"].items()]
        parts.append("</section>\n")
    sigs = "".join(f"<li><code>{html.escape(s)}</code></li>" for s in signatures)
    title = f"Paraphrase generators: {n_systems} systems, {n_inputs} inputs"
    style = ("body{font-family:sans-serif;margin:1em;max-width:100%}table{border-collapse:collapse;margin:0.5em 0}"
             "td,th{border:1px solid #999;padding:2px 6px;text-align:left}code{word-break:break-all}")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head>\n<body><h1>{html.escape(title)}</h1>\n{''.join(parts)}"
            f"<h2>Signatures</h2><ul>{sigs}</ul></body></html>\n")
