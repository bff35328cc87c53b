"""Rendering ``mteval score`` results: a sacrebleu-like text table, strict JSON, JSONL and TSV
rows (per system, or per segment with ``--segments``). A corpus score that leaves out lines the
metric could not score is incomplete: the table shows it marked ("incomplete: k of n"); the machine
formats leave the score empty (a consumer that reads scores alone never meets a number raised by
lost lines) and give the value on the scored lines as ``partial_scores`` in JSON."""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.cli.convention import jsonl_line, strict_json, tsv_cell
from evalcore.io.tables import table
from evalcore.metric.base import Result
from evalcore.metric.records import finite_or_none
from mteval.scoring import SystemResult


def _num(value: float) -> str:
    shown = finite_or_none(value)
    return "-" if shown is None else f"{shown:.4f}"


def _errors(results: Sequence[SystemResult]) -> list[str]:
    """One line per unscorable (line, metric set): metrics that fail alike share a line."""
    out = []
    for r in results:
        if r.keep is None:
            raise ValueError(f"{r.name}: the lines some metric could not score were not kept (score_systems(keep=...))")
        for row in r.failures:
            failed: dict[str, list[str]] = {}
            for name, res in row.items():
                if not res.ok:
                    failed.setdefault(res.message, []).append(name)
            item = next((res.item for res in row.values() if not res.ok), "")
            for message, names in failed.items():
                where = "" if message.startswith(item) else f"{item}: "
                out.append(f"{where}{'/'.join(names)}: {message}")
    return out


def _corpus_cell(r: SystemResult, name: str) -> str:
    """A corpus score, marked when it leaves lines out."""
    value = _num(r.corpus[name].value)
    return value if r.complete(name) else f"{value} (incomplete: {len(r.scored(name))} of {r.n_lines})"


def _notes(results: Sequence[SystemResult], names: Sequence[str]) -> list[str]:
    """What a reader of the table must know: empty outputs scored, incomplete corpus scores."""
    out = []
    for r in results:
        empty = r.empty_lines()
        if empty:
            shown = ", ".join(map(str, empty[:10])) + (", ..." if len(empty) > 10 else "")
            out.append(f"{r.name}: {len(empty)} empty output line{'s' * (len(empty) != 1)} ({shown}), "
                       "scored as empty translations")
        partial = [n for n in names if not r.complete(n)]
        if partial:
            out.append(f"{r.name}: incomplete {'/'.join(partial)} (lines not scored are listed below; "
                       "incomplete scores are left out of paired tests unless --paired-incomplete)")
    return out


def to_text(names: Sequence[str], results: Sequence[SystemResult], sig: dict | None, segments: bool) -> str:
    """System scores (and counts of scored lines), paired tests, segment scores, error lines."""
    rows = [[r.name, *(_corpus_cell(r, n) for n in names),
             f"{r.n_lines - r.failed}/{r.n_lines}"] for r in results]
    out = [table(["system", *names, "lines scored"], rows), ""]
    notes = _notes(results, names)
    if notes:
        out += [*notes, ""]
    if sig:
        first = next(iter(sig.values()))
        test = "paired bootstrap" if first["test"] == "bootstrap" else "approximate randomization"
        out.append(f"{test} against the baseline {first['baseline']} ({first['n_samples']} samples, "
                   f"seed {first['seed']}; difference = system - baseline, 95% CI of the difference; "
                   "* p < 0.05):")
        sig_rows = []
        for name, entry in sig.items():
            for system, why in entry.get("left_out", {}).items():
                sig_rows.append([name, system, "-", "-", "-", f"left out: incomplete ({why})"])
            if "error" in entry:
                sig_rows.append([name, "-", "-", "-", "-", entry["error"]])
                continue
            for system, t in entry["systems"].items():
                star = " *" if t["p_value"] < 0.05 else ""
                sig_rows.append([name, system, _num(t["score_a"]), f"{t['difference']:+.4f}",
                                 f"[{t['ci_low']:+.4f}, {t['ci_high']:+.4f}]", f"{t['p_value']:.4f}{star}"])
        out += [table(["metric", "system", "score", "difference", "95% CI", "p"], sig_rows), ""]
    if segments:
        seg_rows = [[r.name, str(k + 1), *(_num(row[n].value) for n in names)]
                    for r in results for k, row in enumerate(_kept(r))]
        out += [table(["system", "line", *names], seg_rows), ""]
    errors = _errors(results)
    if errors:
        out += ["Not scored:", *(f"  {e}" for e in errors), ""]
    return "\n".join(out)


def segment_record(names: Sequence[str], system: str, k: int, row: dict[str, Result]) -> dict:
    """Line k+1 of a system as JSON: its scores, and where present components, notes, errors."""
    entry: dict = {"system": system, "line": k + 1, "scores": {n: finite_or_none(row[n].value) for n in names}}
    comps = {}
    for n in names:
        res = row[n]
        if res.ok and res.components:
            comps[n] = dict(res.components)
    if comps:
        entry["components"] = comps
    notes = {n: list(row[n].notes) for n in names if row[n].ok and row[n].notes}
    if notes:
        entry["notes"] = notes
    errors = {n: row[n].message for n in names if not row[n].ok}
    if errors:
        entry["errors"] = errors
    return entry


def segment_tsv(names: Sequence[str], system: str, k: int, row: dict[str, Result]) -> str:
    """Line k+1 of a system as a TSV row: system, line, one value per metric, the errors."""
    cells = [system, k + 1, *(row[n].value for n in names),
             "; ".join(f"{n}: {row[n].message}" for n in names if not row[n].ok)]
    return "\t".join(tsv_cell(c) for c in cells) + "\n"


def segment_jsonl(names: Sequence[str], system: str, k: int, row: dict[str, Result]) -> str:
    """Line k+1 of a system as a JSONL line (:func:`segment_record`)."""
    return jsonl_line(segment_record(names, system, k, row)) + "\n"


def tsv_segment_head(names: Sequence[str]) -> str:
    return "\t".join(tsv_cell(c) for c in ["system", "line", *names, "error"]) + "\n"


def _segment_rows(names: Sequence[str], results: Sequence[SystemResult]) -> list[dict]:
    return [segment_record(names, r.name, k, row) for r in results for k, row in enumerate(_kept(r))]


def _kept(r: SystemResult) -> list[dict[str, Result]]:
    """The system's per-line results, which a caller rendering every line has kept."""
    if r.segments is None:
        raise ValueError(f"{r.name}: the per-line results were not kept (score_systems(keep='all'))")
    return r.segments


def _complete_value(r: SystemResult, name: str) -> float | None:
    """A corpus score for the machine formats: None when it leaves lines out."""
    return finite_or_none(r.corpus[name].value) if r.complete(name) else None


def _system_rows(names: Sequence[str], results: Sequence[SystemResult]) -> list[dict]:
    rows = []
    for r in results:
        partial = [n for n in names if not r.complete(n)]
        row = {"system": r.name, "path": r.path, "lines": r.n_lines, "complete": not partial,
               "scored": {n: len(r.scored(n)) for n in names},
               "incomplete": {n: f"scored {len(r.scored(n))} of {r.n_lines} lines" for n in partial},
               "empty_lines": r.empty_lines(),
               "scores": {n: _complete_value(r, n) for n in names}}
        if partial:
            row["partial_scores"] = {n: finite_or_none(r.corpus[n].value) for n in partial}
        row["components"] = {n: dict(r.corpus[n].components) for n in names if r.corpus[n].components}
        rows.append(row)
    return rows


def to_json(signatures: dict, names: Sequence[str], results: Sequence[SystemResult], sig: dict | None,
            segments: bool) -> str:
    doc: dict = {"signature": signatures, "systems": _system_rows(names, results)}
    if sig:
        doc["significance"] = sig
    if segments:
        doc["segments"] = _segment_rows(names, results)
    doc["errors"] = _errors(results)
    return strict_json(doc) + "\n"


def to_jsonl(names: Sequence[str], results: Sequence[SystemResult], segments: bool) -> str:
    if segments:
        return "".join(segment_jsonl(names, r.name, k, row) for r in results for k, row in enumerate(_kept(r)))
    return "".join(jsonl_line(r) + "\n" for r in _system_rows(names, results))


def to_tsv(names: Sequence[str], results: Sequence[SystemResult], segments: bool) -> str:
    if segments:
        return tsv_segment_head(names) + "".join(segment_tsv(names, r.name, k, row)
                                                 for r in results for k, row in enumerate(_kept(r)))
    head: list[object] = ["system", *names, "lines", "lines_scored", "complete"]
    rows: list[list[object]] = [[r.name, *(_complete_value(r, n) for n in names), r.n_lines, r.n_lines - r.failed,
             "yes" if all(r.complete(n) for n in names) else "no"]
            for r in results]
    return "".join("\t".join(tsv_cell(c) for c in row) + "\n" for row in [head, *rows])
