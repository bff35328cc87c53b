"""Time and peak memory of every registered metric on one line at the size cap (docs/bounds.md).

Each metric runs in its own child process under a time limit and an address-space limit: the
child builds the metric, scores one short item (loading models, not timed), then scores one item
whose texts are each a line of ``--chars`` characters (or the metric's own smaller ``max_chars``)
and reports the wall and CPU seconds of that call and the process's peak RSS. English metrics
get English text made of the demo data's words, TESLA-CELAB Chinese text made of the Chinese
demo's characters; candidate and reference share their vocabulary, as a translation and its
reference do.

    python scripts/measure_bounds.py [--chars 100000] [--metric NAME ...] [--timeout 300]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's packages, not another installed copy
DEMO = ROOT / "data" / "demo"


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB: Linux's VmHWM, which starts afresh at exec
    (``ru_maxrss`` keeps the parent's peak across fork and exec, so a child started by a big
    process would report the parent's memory); ``ru_maxrss`` elsewhere."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cap_line(chars: int, chinese: bool, seed: int) -> str:
    """A line of exactly ``chars`` characters of demo-like text (sentences of 8 to 30 words)."""
    rng = random.Random(seed)
    if chinese:
        pool = [c for f in sorted((DEMO / "mt-zh").glob("*.zh")) for c in f.read_text("utf-8") if not c.isspace()]
        return "".join(rng.choice(pool) for _ in range(chars))
    words = [w.strip(".,;:!?\"'()") for f in sorted((DEMO / "mt").glob("*.en")) for w in f.read_text("utf-8").split()]
    words = [w for w in words if w]
    out: list[str] = []
    size = 0
    while size < chars:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(8, 30))).capitalize() + "."
        out.append(sentence)
        size += len(sentence) + 1
    return " ".join(out)[:chars - 1] + "."


def reads_chinese(metric) -> bool:
    """Whether the metric is measured on Chinese lines: its declared languages lack English."""
    return not {"en", "*"} & set(metric.languages)


def child(name: str, chars: int) -> dict:
    """Score one cap-sized item with metric ``name`` in this process; the figures as a dict."""
    from evalcore.metric import Item
    from evalcore.metric.registry import get_metric

    metric = get_metric(name)
    chinese = reads_chinese(metric)
    own = getattr(metric, "max_chars", None)
    size = min(chars, own) if own else chars
    start = time.perf_counter()
    short = "The council approved the budget on Monday." if not chinese else "我去商店买了一把雨伞。"
    metric.score_batch([Item(short, (short,), source=short)])
    load = time.perf_counter() - start
    cand, ref = cap_line(size, chinese, 1), cap_line(size, chinese, 2)
    wall, cpu = time.perf_counter(), time.process_time()
    result = metric.score_batch([Item(cand, (ref,), source=ref)])[0]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rss = peak_rss_mib()
    return {"metric": name, "chars": size, "own_cap": own, "ok": result.ok, "error": getattr(result, "message", ""),
            "seconds": wall, "cpu_seconds": cpu, "load_seconds": load, "peak_rss_mib": rss}


def measure(name: str, chars: int, timeout: float, mem_gib: float) -> dict:
    """Run :func:`child` for ``name`` in a subprocess under the time and address-space limits."""
    limit = int(mem_gib * 2**30)

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    try:
        done = subprocess.run([sys.executable, __file__, "--child", name, "--chars", str(chars)], cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return {"metric": name, "chars": chars, "failed": f"over {timeout:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"metric": name, "chars": chars, "failed": f"exit {done.returncode}: {tail[:160]}"}
    return json.loads(lines[-1])


def machine() -> str:
    import os

    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chars", type=int, default=100_000, help="line length (default: the 100,000 cap)")
    parser.add_argument("--metric", action="append", help="measure only these metrics (repeatable)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per metric (default 300)")
    parser.add_argument("--mem-gib", type=float, default=8.0, help="address-space limit per metric (default 8)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.chars)))
        return 0
    from evalcore.metric.registry import registered

    names = args.metric or list(registered())
    print(f"machine: {machine()}", file=sys.stderr)
    print("| metric | chars | time s (CPU s) | peak RSS MiB | result |")
    print("|---|---|---|---|---|")
    for name in names:
        row = measure(name, args.chars, args.timeout, args.mem_gib)
        if "failed" in row:
            print(f"| {name} | {row['chars']:,} | - | - | {row['failed']} |", flush=True)
        else:
            result = "score" if row["ok"] else f"error: {row['error'][:80]}"
            print(f"| {name} | {row['chars']:,} | {row['seconds']:.1f} ({row['cpu_seconds']:.1f}) | "
                  f"{row['peak_rss_mib']:.0f} | {result} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
