"""`parapeval bench --speed-only`: PEM's speed against its peer, sacrebleu's sentence BLEU, on the
same Twitter-Para pairs in one run (interleaved repeats, medians, both with cold caches), a
profile of PEM's stages and its peak memory.

The stage profile times each stage alone in its own pass over the same pairs, in pipeline order
(so each stage starts from the previous one's output, with caches as the metric keeps them):
English preprocessing, phrase-table look-ups (batched per window of pairs, then per sentence
from the stores' caches), BPNG (segmentation, network, bag), pivot F1,
target n-gram F1, LM, SVR. "other" is what the end-to-end run spends beyond their sum (the input
rule, score records).
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence

import numpy as np

from evalcore.benchio import machine, machine_line, peak_rss_mib
from evalcore.bpng import pivot_f1
from parapeval.pem import PEM, PREFETCH_PAIRS
from parapeval.target_ngrams import target_bag, target_f1

#: the issue's target: PEM at most this many times slower than sentence BLEU
TARGET_RATIO = 7.0
STAGES = ("preprocessing", "look-ups", "BPNG", "pivot F1", "target F1", "LM", "SVR")


def _fresh(params: dict) -> PEM:
    """A PEM with its resources loaded (model, tables opened, LM mapped) and every cache empty."""
    pem = PEM(**params)
    pem.validate()
    features, _ = pem._resources()
    for table in features.tables.values():
        table.lookup([("the",)])  # open the store; this single entry is all the cache holds
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
    features, regressor = pem._resources()
    seconds: dict[str, float] = {}

    def timed(name: str, fn: Callable[[], object]):
        started = time.perf_counter()
        result = fn()
        seconds[name] = time.perf_counter() - started
        return result

    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    pres = list({id(p): p for p in features.preprocessors.values()}.values())
    docs = timed("preprocessing", lambda: [[pre(t) for t in texts] for pre in pres]
                 + [[features.target_pre(t) for t in texts]])
    doc_of = {pivot: dict(zip(texts, docs[pres.index(pre)])) for pivot, pre in features.preprocessors.items()}
    def look_ups() -> dict[str, dict[str, dict]]:
        """Entries per pivot and text, looked up per window of pairs as the metric does."""
        found: dict[str, dict[str, dict]] = {p: {} for p in features.builders}
        for start in range(0, len(pairs), PREFETCH_PAIRS):
            window = pairs[start:start + PREFETCH_PAIRS]
            for pivot, entries in features.prefetch(window).items():
                found[pivot].update({t: entries for pair in window for t in pair if t not in found[pivot]})
        return found

    entries = timed("look-ups", look_ups)
    bags = timed("BPNG", lambda: {p: {t: b.build(doc_of[p][t].tokens, doc_of[p][t].function, entries[p][t])
                                      for t in texts}
                                  for p, b in features.builders.items()})
    timed("pivot F1", lambda: [pivot_f1(bags[p][o], bags[p][q]) for p in bags for o, q in pairs])
    target_doc = dict(zip(texts, docs[-1]))
    timed("target F1", lambda: [target_f1(target_bag(target_doc[o]), target_bag(target_doc[q])) for o, q in pairs])
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
    """The speed table, the stage profile and the memory line as Markdown."""
    total = sum(res["stage_seconds"].values())
    lines = [
        "### Speed: PEM vs sacrebleu sentence BLEU",
        "",
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
