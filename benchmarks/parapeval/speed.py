"""`python -m benchmarks parapeval-speed`: PEM's speed against its peer, sacrebleu's sentence BLEU, on the
same Twitter-Para pairs in one run (interleaved repeats, medians, both with cold caches), a
profile of PEM's stages and its peak memory.

The stage profile times each stage alone in its own pass over the same pairs, in pipeline order
(so each stage starts from the previous one's output): English preprocessing (tokens, stems,
function-word flags), BPNG + pivot F1 (per window and pivot, one call of the compiled kernels:
token ids, phrase look-ups in the compiled table, segmentation, network, bags, F1), target n-gram
F1, LM, SVR. "other" is what the end-to-end run spends beyond their sum (the input rule, score
records). Loading the resources (model, LM, compiled phrase tables) is start-up, outside the
timed runs, as for BLEU's imports.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

import numpy as np

from benchmarks.harness import machine, machine_line, peak_rss_mib
from parapeval.pem.metric import PEM, WINDOW_PAIRS

#: the target: PEM at most this many times slower than sentence BLEU
TARGET_RATIO = 7.0
STAGES = ("preprocessing", "BPNG + pivot F1", "target F1", "LM", "SVR")


def _fresh(params: dict) -> PEM:
    """A PEM with its resources loaded (model, compiled tables mapped, LM mapped) and every cache
    empty (the previous run's objects collected first: builders and preprocessors hold cycles)."""
    gc.collect()
    pem = PEM(**params)
    pem.validate()
    features, _ = pem.resources
    for builder in features.builders.values():
        builder.compiled()
    features.lm.score("the")
    return pem


def _time_pem(params: dict, pairs: Sequence[tuple[str, str]]) -> float:
    pem = _fresh(params)
    started = time.perf_counter()
    results = pem.score_batch(pairs)
    elapsed = time.perf_counter() - started
    failed = [r for r in results if not r.ok]
    if failed:
        raise RuntimeError(f"PEM failed on {len(failed)} benchmark pairs, e.g. {failed[0].message}")
    return elapsed


def _time_bleu(pairs: Sequence[tuple[str, str]]) -> float:
    from sacrebleu.metrics import BLEU

    bleu = BLEU(effective_order=True)  # a new instance: its tokenizer's cache starts empty
    started = time.perf_counter()
    for original, paraphrase in pairs:
        bleu.sentence_score(paraphrase, [original])
    return time.perf_counter() - started


def stage_profile(params: dict, pairs: Sequence[tuple[str, str]]) -> dict[str, float]:
    """Seconds per stage of PEM on ``pairs``, each stage timed alone (see the module docstring)."""
    pem = _fresh(params)
    features, regressor = pem.resources
    seconds: dict[str, float] = {}

    def timed(name: str, fn: Callable[[], object]) -> None:
        started = time.perf_counter()
        fn()
        seconds[name] = time.perf_counter() - started

    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    pres = list({id(p): p for p in features.preprocessors.values()}.values()) + [features.target_pre]
    timed("preprocessing", lambda: [pre(t) for pre in pres for t in texts])
    windows = [pairs[start:start + WINDOW_PAIRS] for start in range(0, len(pairs), WINDOW_PAIRS)]
    timed("BPNG + pivot F1", lambda: [features.pivot_matrix(window) for window in windows])
    timed("target F1", lambda: [features.target_scores(window) for window in windows])
    timed("LM", lambda: [features.lm.score(q) for _, q in pairs])
    X = np.random.default_rng(0).random((len(pairs), 3))
    timed("SVR", lambda: regressor.predict(X))
    return seconds


def peak_memory(params: dict, pairs: Sequence[tuple[str, str]]) -> dict[str, float]:
    """Peak Python-heap MiB while PEM scores ``pairs`` (tracemalloc, its own untimed pass), and
    the process's peak resident MiB."""
    gc.collect()
    tracemalloc.start()
    try:
        pem = _fresh(params)
        pem.score_batch(pairs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {"pem_heap_peak_mib": peak / 2**20, "process_peak_rss_mib": peak_rss_mib()}


def run_speed(pairs: Sequence[tuple[str, str]], params: dict | None = None, repeats: int = 3,
              log: Callable[[str], None] = lambda msg: None) -> dict:
    """PEM and sentence BLEU pairs/s over ``repeats`` interleaved runs (medians), their ratio,
    PEM's stage profile and peak memory."""
    params = params or {}
    pairs = list(pairs)
    runs = {"pem": lambda: _time_pem(params, pairs), "bleu": lambda: _time_bleu(pairs)}
    _time_pem(params, pairs[:20]), _time_bleu(pairs[:20])  # imports and lazy loads, untimed
    times: dict[str, list[float]] = {"pem": [], "bleu": []}
    for rep in range(repeats):
        for name in (("pem", "bleu") if rep % 2 == 0 else ("bleu", "pem")):  # alternate who goes first
            times[name].append(runs[name]())
        log(f"speed repeat {rep + 1}/{repeats}: PEM {len(pairs) / times['pem'][-1]:.0f} pairs/s, "
            f"BLEU {len(pairs) / times['bleu'][-1]:.0f} pairs/s")
    pem_s, bleu_s = times["pem"], times["bleu"]
    profiles = [stage_profile(params, pairs) for _ in range(repeats)]
    stages = {name: statistics.median(p[name] for p in profiles) for name in STAGES}
    pem_med, bleu_med = statistics.median(pem_s), statistics.median(bleu_s)
    stages["other"] = max(pem_med - sum(stages.values()), 0.0)  # input rule, records, garbage collection
    ratios = [p / b for p, b in zip(pem_s, bleu_s)]
    return {
        "machine": machine(), "pairs": len(pairs), "distinct_originals": len({o for o, _ in pairs}),
        "repeats": repeats, "signature": str(PEM(**params).signature()),
        "pem_pairs_per_s": len(pairs) / pem_med, "bleu_pairs_per_s": len(pairs) / bleu_med,
        "ratio": statistics.median(ratios), "ratios": ratios, "target_ratio": TARGET_RATIO,
        "target_met": statistics.median(ratios) <= TARGET_RATIO,
        "stage_seconds": stages, "memory": peak_memory(params, pairs),
    }


def speed_markdown(res: dict) -> str:
    """The speed section: its heading, then :func:`speed_tables`."""
    return "### Speed: PEM vs sacrebleu sentence BLEU\n\n" + speed_tables(res)


def speed_tables(res: dict) -> str:
    """The setup line, the speed table, the stage profile and the memory line as Markdown."""
    total = sum(res["stage_seconds"].values())
    lines = [
        f"{machine_line(res['machine'])} {res['pairs']} Twitter-Para pairs ({res['distinct_originals']} "
        f"originals), {res['repeats']} interleaved repeats, medians; cold caches on both sides.  ",
        f"PEM: `{res['signature']}`",
        "",
        "| metric | pairs/s | time vs BLEU |",
        "|---|---|---|",
        f"| sentence BLEU (sacrebleu, effective order) | {res['bleu_pairs_per_s']:.0f} | 1.0x |",
        f"| PEM (score_batch, end to end) | {res['pem_pairs_per_s']:.0f} | {res['ratio']:.1f}x "
        f"(target <= {res['target_ratio']:g}x: {'met' if res['target_met'] else 'not met'}) |",
        "",
        "PEM stages (each timed alone, median seconds):",
        "",
        "| stage | seconds | share |",
        "|---|---|---|",
    ]
    lines += [f"| {name} | {sec:.3f} | {100 * sec / total:.0f}% |" for name, sec in res["stage_seconds"].items()]
    mem = res["memory"]
    lines += ["", f"Peak memory: PEM's Python heap while scoring {mem['pem_heap_peak_mib']:.0f} MiB (tracemalloc); "
              f"process peak resident {mem['process_peak_rss_mib']:.0f} MiB.", ""]
    return "\n".join(lines)
