"""`python -m benchmarks coherence-speed`: DICOMER against its floor, spaCy alone (target: within 1.2x).

On SummEval's summaries, in one process with every model loaded, timed in interleaved rounds (the
order rotates every round, so load from other processes falls on every run alike; medians):

- spaCy alone, the pipeline DICOMER loads (``tok2vec, tagger, parser, attribute_ruler,
  lemmatizer``; NER off) at its own batch size, on the tokens DICOMER gives it (the floor: the
  very spaCy work inside DICOMER) and on the raw texts with spaCy's tokenizer;
- DICOMER end to end with a cold analysis cache (a fresh cache folder and engine each round):
  tokens, spaCy, the Tier 1 discourse parser, token layout, features, ranker, cache write;
- the discourse parser's stages alone on preprocessed texts: one batch for all texts (each
  classifier called once per stage) against one call per text.

Wall time is shared with other jobs on the reference machine's two cores; process CPU time is
reported beside it. Peak memory: Python and numpy heaps traced (tracemalloc) over one untimed run
of each, and the process's peak RSS.
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from evalcore.data.summeval import read_summeval
from evalcore.io.tables import table

TARGET_RATIO = 1.2  # DICOMER (cold cache) within 1.2x of spaCy alone
RUNS = {"spacy_tokens": "spaCy alone, DICOMER's tokens (floor)", "spacy_raw": "spaCy alone, raw texts",
        "dicomer_cold": "DICOMER, cold analysis cache", "parser_batched": "parser stages, one batch",
        "parser_per_text": "parser stages, one call per text"}


def interleaved(runs: Mapping[str, Callable[[], object]], rounds: int) -> dict[str, dict[str, Any]]:
    """Median wall and process CPU seconds of each run over ``rounds`` rotated rounds; the garbage
    collector runs (untimed) before each run."""
    names = list(runs)
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    for k in range(rounds):
        for name in names[k % len(names):] + names[:k % len(names)]:
            gc.collect()
            w, c = time.perf_counter(), time.process_time()
            runs[name]()
            wall[name].append(time.perf_counter() - w)
            cpu[name].append(time.process_time() - c)
    return {n: {"wall": float(np.median(wall[n])), "cpu": float(np.median(cpu[n])), "wall_rounds": wall[n],
                "cpu_rounds": cpu[n]} for n in names}


def dicomer_cold(texts: list[str], cache_parent: Path) -> list[float]:
    """DICOMER values of ``texts`` from an empty analysis cache (a new folder and a new engine)."""
    from coherence.dicomer.metric import Dicomer, clear_engines

    os.environ["AESOP_CACHE"] = tempfile.mkdtemp(dir=cache_parent)
    clear_engines()
    return [r.value for r in Dicomer().score_batch(texts)]


def measure(texts: list[str], rounds: int = 3) -> dict:
    """Timings, peak memory and the checks of one run (see the module docstring)."""
    from spacy.tokens import Doc

    from coherence.dicomer.metric import Dicomer
    from coherence.parser.document import SPACY_DISABLE, parse_texts, token_offsets
    from evalcore.resources.registry import spacy_pipeline

    nlp = spacy_pipeline(SPACY_DISABLE)
    words = [token_offsets(t)[0] for t in texts]
    saved_cache = os.environ.get("AESOP_CACHE")
    try:
        with tempfile.TemporaryDirectory(prefix="coherence-speed-") as tmp:
            parent = Path(tmp)
            dicomer_cold(texts[:20], parent)  # models and spaCy loaded before any timing
            parser = Dicomer()._engine().parser
            parsed = parse_texts(texts)
            runs = {
                "spacy_tokens": lambda: list(nlp.pipe(Doc(nlp.vocab, words=w) for w in words if w)),
                "spacy_raw": lambda: list(nlp.pipe(texts)),
                "dicomer_cold": lambda: dicomer_cold(texts, parent),
                "parser_batched": lambda: parser.parse_batch(parsed),
                "parser_per_text": lambda: [parser.parse_batch([pt])[0] for pt in parsed],
            }
            timings = interleaved(runs, rounds)
            if dicomer_cold(texts, parent) != dicomer_cold(texts, parent):
                raise AssertionError("DICOMER gave different values in two cold runs")
            if runs["parser_batched"]() != runs["parser_per_text"]():
                raise AssertionError("the batched parser and the parser one text at a time disagree")
            memory = {}
            for name in ("spacy_tokens", "dicomer_cold"):  # Python and numpy heaps, one untimed run each
                gc.collect()
                tracemalloc.start()
                runs[name]()
                memory[name] = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
    finally:
        if saved_cache is None:
            os.environ.pop("AESOP_CACHE", None)
        else:
            os.environ["AESOP_CACHE"] = saved_cache
    return {"texts": len(texts), "tokens": sum(map(len, words)), "rounds": rounds, "seconds": timings,
            "traced_peak_mib": memory, "peak_rss_mib": peak_rss_mib()}


def _ratio(report: dict, a: str, b: str, clock: str) -> float:
    return report["seconds"][a][clock] / report["seconds"][b][clock]


def markdown(report: dict) -> str:
    """The report's Markdown: a heading over :func:`results_markdown`."""
    return "### Speed: DICOMER vs spaCy alone (`python -m benchmarks coherence-speed`)\n\n" + results_markdown(report)


def results_markdown(report: dict) -> str:
    """Data and machine, the runs against the floor, the target, the parser's stages and peak memory."""
    s, n = report["seconds"], report["texts"]
    rows = [[RUNS[name], f"{s[name]['wall']:.2f}", f"{s[name]['cpu']:.2f}", f"{n / s[name]['wall']:.1f}",
             f"{_ratio(report, name, 'spacy_tokens', 'wall'):.2f}x",
             f"{_ratio(report, name, 'spacy_tokens', 'cpu'):.2f}x"]
            for name in ("spacy_tokens", "spacy_raw", "dicomer_cold")]
    mem = report["traced_peak_mib"]
    return "\n".join([
        f"Data: `{report['data']}`, {n} summaries, {report['tokens']} tokens. {machine_line(report['machine'])} "
        f"Medians of {report['rounds']} interleaved rounds; one process, models loaded.", "",
        table(["run", "wall s", "CPU s", "summaries/s (wall)", "vs floor (wall)", "vs floor (CPU)"], rows), "",
        target_table(report), "",
        table(["parser stages (spaCy excluded)", "wall s", "CPU s", "summaries/s (wall)"],
              [[RUNS[name], f"{s[name]['wall']:.3f}", f"{s[name]['cpu']:.3f}", f"{n / s[name]['wall']:.0f}"]
               for name in ("parser_batched", "parser_per_text")]), "",
        f"One batch is {_ratio(report, 'parser_per_text', 'parser_batched', 'wall'):.1f}x faster than one call per "
        "text (wall), with the same relations.", "",
        f"Peak memory traced over one run: spaCy alone {mem['spacy_tokens']:.0f} MiB, DICOMER "
        f"{mem['dicomer_cold']:.0f} MiB; process peak RSS {report['peak_rss_mib']:.0f} MiB.", ""])


def target_table(report: dict) -> str:
    """The speed target: DICOMER from a cold cache against spaCy alone, wall and CPU, met or missed."""
    ratios = {clock: _ratio(report, "dicomer_cold", "spacy_tokens", clock) for clock in ("wall", "cpu")}
    verdict = "met" if max(ratios.values()) <= TARGET_RATIO else "MISSED"
    return table(["target", "measured (wall / CPU)", "verdict"],
                 [[f"DICOMER (cold cache) within {TARGET_RATIO}x of spaCy alone",
                   f"{ratios['wall']:.2f}x / {ratios['cpu']:.2f}x", verdict]])


def run(data: Path, out: Path, rounds: int = 3, limit: int | None = None,
        log: Callable[[str], None] = lambda m: None) -> tuple[Path, dict]:
    """Measure, then write ``speed.md`` and ``speed.json`` into ``out``."""
    texts = [it.summary for it in read_summeval(data)][:limit]
    log(f"{len(texts)} summaries, {rounds} rounds")
    report = {**measure(texts, rounds), "machine": machine(), "data": str(data)}
    md, _ = write_report(out, "speed", markdown(report), report)
    return md, report
