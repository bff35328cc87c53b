"""Speed of the LP matcher's general path on TESLA-M-like problems, against the matcher at a
baseline commit (extracted with ``git show`` into a temporary package and imported into this
process, so every ratio comes from one run) and against POT's ``ot.emd`` on the whole problem.

Timings are interleaved: each round runs every solver once over the whole workload, in rotated
order, and the tables report medians over rounds. Objectives are checked against the baseline
and against HiGHS. Run alone with ``python -m benchmarks matching --out DIR``.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from evalcore.io.tables import table
from evalcore.matching.problem import Core, MatchProblem
from evalcore.matching.solve import PATHS, choose, match, solve_core
from evalcore.matching.transport import network_simplex_dense, network_simplex_sparse

BASELINE_COMMIT = "b9955f2"
OBJECTIVE_TOLERANCE = 1e-9
TARGET_SPEEDUP = 3.0

Problem = tuple[np.ndarray, np.ndarray, np.ndarray]
Segment = list[Problem]


# ---- workloads ------------------------------------------------------------------------------

def _ngram_weights(function: np.ndarray, n: int, discount: float) -> np.ndarray:
    """Weight of each contiguous n-gram: the product of its tokens' weights (``discount`` for a
    function word, 1 otherwise)."""
    w = np.where(function, discount, 1.0)
    return np.prod([w[k:len(w) - n + 1 + k] for k in range(n)], axis=0)


def tesla_m_like_workload(n_segments: int, seed: int = 0, length: int = 25, density: float = 0.1,
                          discount: float = 0.1, p_function: float = 0.4) -> list[Segment]:
    """A synthetic TESLA-M-like workload: per segment, the s_ms LPs of TESLA-M for n = 1, 2, 3 between
    two ``length``-word sentences: every n-gram distinct (sizes 25, 24, 23), weights the product of
    0.1 function-word discounts, a share ``density`` of similarities nonzero, uniform in (0, 1)."""
    rng = np.random.default_rng(seed)
    segments = []
    for _ in range(n_segments):
        fx, fy = rng.random(length) < p_function, rng.random(length) < p_function
        segment = []
        for n in (1, 2, 3):
            x, y = _ngram_weights(fx, n, discount), _ngram_weights(fy, n, discount)
            shape = (len(x), len(y))
            sim = np.where(rng.random(shape) < density, rng.random(shape), 0.0)
            segment.append((x, y, sim))
        segments.append(segment)
    return segments


def tesla_m_structured_workload(n_segments: int, seed: int = 0, length: int = 25, keep: float = 0.5,
                                word_density: float = 0.08, discount: float = 0.1, p_function: float = 0.4,
                                n_function: int = 60, n_content: int = 3000) -> list[Segment]:
    """A closer imitation of TESLA-M's s_ms LPs: a candidate keeps each reference word with
    probability ``keep`` (else a new word), three adjacent swaps; words are Zipf-distributed;
    distinct words are similar with probability ``word_density`` (value uniform in [0.05, 1));
    bags merge repeated n-grams; an n-gram pair's similarity is 0 if some position's is 0, else
    the positions' mean (the TESLA-M rule)."""
    rng = np.random.default_rng(seed)

    def word() -> int:
        if rng.random() < p_function:
            return int(rng.integers(n_function))
        return n_function + int(min(rng.zipf(1.3), n_content)) - 1

    segments = []
    for _ in range(n_segments):
        ref = [word() for _ in range(length)]
        cand = [t if rng.random() < keep else word() for t in ref]
        for _ in range(3):
            i = int(rng.integers(length - 1))
            cand[i], cand[i + 1] = cand[i + 1], cand[i]
        vocab = sorted(set(ref) | set(cand))
        index = {w: k for k, w in enumerate(vocab)}
        k = len(vocab)
        word_sim = np.where(rng.random((k, k)) < word_density, rng.uniform(0.05, 1.0, (k, k)), 0.0)
        word_sim = np.triu(word_sim, 1)
        word_sim = word_sim + word_sim.T
        np.fill_diagonal(word_sim, 1.0)
        segment = []
        for n in (1, 2, 3):
            bags = []
            for toks in (ref, cand):
                bag: dict[tuple[int, ...], float] = {}
                for i in range(len(toks) - n + 1):
                    gram = tuple(toks[i:i + n])
                    bag[gram] = bag.get(gram, 0.0) + float(np.prod([discount if t < n_function else 1.0 for t in gram]))
                bags.append(bag)
            gx, gy = list(bags[0]), list(bags[1])
            positions = np.stack([word_sim[np.ix_([index[g[p]] for g in gx], [index[g[p]] for g in gy])]
                                  for p in range(n)])
            sim = np.where((positions > 0).all(axis=0), positions.mean(axis=0), 0.0)
            segment.append((np.array([bags[0][g] for g in gx]), np.array([bags[1][g] for g in gy]), sim))
        segments.append(segment)
    return segments


WORKLOADS: dict[str, Callable[..., list[Segment]]] = {
    "tesla-m-like": tesla_m_like_workload,
    "tesla-m structured": tesla_m_structured_workload,
}


# ---- the baseline -----------------------------------------------------------------------------

def baseline_matcher(commit: str = BASELINE_COMMIT) -> Callable[..., float]:
    """``match`` of ``evalcore.matching`` as it was at ``commit``: the package's files are taken
    with ``git show`` from this checkout, renamed into a temporary package and imported."""
    root = Path(__file__).resolve().parents[2]
    package = f"lp_baseline_{commit}"
    if package in sys.modules:
        return sys.modules[package].match

    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                                  text=True).stdout
        except (OSError, subprocess.CalledProcessError) as err:
            detail = getattr(err, "stderr", "") or err
            raise RuntimeError(f"cannot read evalcore/matching at {commit} from {root} (a git checkout "
                               f"with that commit is needed): {detail}") from None

    names = git("ls-tree", "--name-only", f"{commit}:evalcore/matching").split()
    with tempfile.TemporaryDirectory(prefix="lp-baseline-") as tmp:
        target = Path(tmp, package)
        target.mkdir()
        for name in names:
            if name.endswith(".py"):
                source = git("show", f"{commit}:evalcore/matching/{name}")
                target.joinpath(name).write_text(source.replace("evalcore.matching", package), "utf-8")
        sys.path.insert(0, tmp)
        try:
            module = importlib.import_module(package)
        finally:
            sys.path.remove(tmp)
    return module.match


# ---- measurements -----------------------------------------------------------------------------

def _interleaved(solvers: Mapping[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Median CPU seconds per solver; each round runs every solver once, starting one further on.
    CPU time (``time.process_time``), not wall time: the solvers are single-threaded, and other
    processes on a shared machine then do not inflate one solver's rounds more than another's."""
    names = list(solvers)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for k in range(rounds):
        for name in names[k % len(names):] + names[:k % len(names)]:
            start = time.process_time()
            solvers[name]()
            seconds[name].append(time.process_time() - start)
    return {name: float(np.median(times)) for name, times in seconds.items()}


def _components_per_lp(problems: Sequence[Problem]) -> float:
    """Mean number of connected components with an edge (what the baseline split into)."""
    cores = [MatchProblem.of(*p).core() for p in problems]
    return float(np.mean([0 if core is None else len(components(core)) for core in cores]))


def workload_speed(name: str, segments: list[Segment], baseline: Callable[..., float], rounds: int) -> dict:
    """ms per segment of the baseline's auto path, POT's ``ot.emd`` on the whole problem (the
    baseline's network-simplex backend), the bare network simplex on the whole problem and the
    new auto path; objectives compared."""
    problems = [p for segment in segments for p in segment]
    solves = {
        f"{BASELINE_COMMIT} match(auto)": baseline,
        "POT ot.emd, whole problem": lambda x, y, sim: baseline(x, y, sim, method="network-simplex"),
        "bare network simplex, whole problem": lambda x, y, sim: match(x, y, sim, method="network-simplex"),
        "match(auto)": match,
    }
    for solve in solves.values():  # warm-up: POT and scipy are imported on first use
        for x, y, sim in problems[:3]:
            solve(x, y, sim)
    solvers = {name: (lambda solve=solve: [solve(x, y, sim) for x, y, sim in problems])
               for name, solve in solves.items()}
    seconds = _interleaved(solvers, rounds)
    new = np.array(solvers["match(auto)"]())
    old = np.array(solvers[f"{BASELINE_COMMIT} match(auto)"]())
    highs = np.array([match(x, y, sim, method="highs") for x, y, sim in problems])
    paths: Counter[str] = Counter()
    for x, y, sim in problems:
        core = MatchProblem.of(x, y, sim).core()
        paths[choose(core) if core is not None else "empty"] += 1
    n_seg = len(segments)
    base = seconds[f"{BASELINE_COMMIT} match(auto)"]
    return {
        "workload": name, "n_segments": n_seg, "lps_per_segment": len(problems) / n_seg,
        "mean_shape": [float(np.mean([p[2].shape[k] for p in problems])) for k in (0, 1)],
        "density": float(np.mean([(p[2] > 0).mean() for p in problems if p[2].size])),
        "components_per_lp": _components_per_lp(problems),
        "ms_per_segment": {s: 1000 * t / n_seg for s, t in seconds.items()},
        "speedup_vs_baseline": {s: base / t for s, t in seconds.items()},
        "max_abs_diff_vs_baseline": float(np.abs(new - old).max()),
        "max_abs_diff_vs_highs": float(np.abs(new - highs).max()),
        "baseline_max_abs_diff_vs_highs": float(np.abs(old - highs).max()),
        "objectives_equal": bool(np.abs(new - old).max() <= OBJECTIVE_TOLERANCE
                                 and np.abs(new - highs).max() <= OBJECTIVE_TOLERANCE),
        "paths": {p: paths[p] for p in (*PATHS, "empty") if paths[p]},
    }


def _time_per_call(fn: Callable[[], object], min_seconds: float = 0.05) -> float:
    """CPU seconds per call, repeating until ``min_seconds`` of CPU time have passed."""
    fn()
    calls, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < min_seconds:
        fn()
        calls += 1
    return elapsed / calls


def dense_vs_sparse(seed: int = 0, sizes: Sequence[int] = (10, 25, 40, 50, 100, 200),
                    densities: Sequence[float] = (0.02, 0.05, 0.1, 0.2, 0.5), repeats: int = 5) -> list[dict]:
    """The crossover behind ``SPARSE_MIN_CELLS`` / ``SPARSE_MAX_DENSITY``: dense vs sparse network
    simplex on random N x N cores (median over ``repeats`` problems, both timed on each)."""
    rng = np.random.default_rng(seed)
    rows = []
    for size in sizes:
        for density in densities:
            ratios, dense_t, sparse_t = [], [], []
            for _ in range(repeats):
                x, y = rng.random(size), rng.random(size)
                sim = np.where(rng.random((size, size)) < density, rng.random((size, size)), 0.0)
                core = MatchProblem.of(x, y, sim).core()
                if core is None:
                    continue
                d = _time_per_call(partial(network_simplex_dense, core.x, core.y, core.sim))
                s = _time_per_call(partial(network_simplex_sparse, core))
                dense_t.append(d)
                sparse_t.append(s)
                ratios.append(d / s)
            rows.append({"size": size, "density": density, "dense_us": 1e6 * float(np.median(dense_t)),
                         "sparse_us": 1e6 * float(np.median(sparse_t)), "dense_over_sparse": float(np.median(ratios))})
    return rows


def _solve_split(core: Core) -> float:
    """The core's value solved one connected component at a time."""
    return sum(solve_core(part) for part in components(core))


def components(core: Core) -> list[Core]:
    """The connected components of a core's edge graph, each as a core: the split that
    :func:`split_vs_whole` measures (and that ``match`` does not do, see ``choose``)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    m, n = core.shape
    r, c, _ = core.edges
    graph = csr_matrix((np.ones(core.n_edges, dtype=bool), (r, m + c)), shape=(m + n, m + n))
    count, label = connected_components(graph, directed=False)
    parts = []
    for rows, cols in zip(_groups(label[:m], count), _groups(label[m:], count)):
        sim = core.sim[np.ix_(rows, cols)]
        parts.append(Core(core.x[rows], core.y[cols], sim, int(np.count_nonzero(sim))))
    return parts


def _groups(label: np.ndarray, count: int) -> list[np.ndarray]:
    """Indices of each label 0..count-1, in label order."""
    order = np.argsort(label, kind="stable")
    return np.split(order, np.cumsum(np.bincount(label, minlength=count))[:-1])


def split_vs_whole(seed: int = 0, blocks: Sequence[tuple[int, int]] = ((8, 10), (32, 10), (128, 10), (4, 50), (8, 50),
                                                                       (16, 50), (64, 50), (2, 200), (8, 200)),
                   density: float = 0.3) -> list[dict]:
    """The crossover behind ``SPLIT_MIN_VERTICES``: ``k`` random ``b`` x ``b`` blocks (the given
    in-block density) shuffled into one core, solved whole vs split into connected components
    (finding the components included), each part on its own path."""
    rng = np.random.default_rng(seed)
    out = []
    for k, b in blocks:
        size = k * b
        sim = np.zeros((size, size))
        for i in range(k):
            block = rng.random((b, b))
            sim[i * b:(i + 1) * b, i * b:(i + 1) * b] = np.where(rng.random((b, b)) < density, block, 0.0)
        sim = sim[rng.permutation(size)][:, rng.permutation(size)]
        core = MatchProblem.of(rng.random(size), rng.random(size), sim).core()
        assert core is not None, "a block-diagonal problem with nonzero blocks has a core"
        whole_t = _time_per_call(partial(solve_core, core), 0.2)
        split_t = _time_per_call(partial(_solve_split, core), 0.2)
        diff = abs(solve_core(core) - _solve_split(core))
        out.append({"blocks": k, "block_size": b, "vertices": sum(core.shape), "whole_ms": 1000 * whole_t,
                    "split_ms": 1000 * split_t, "whole_over_split": whole_t / split_t, "abs_diff": diff})
    return out


def lp_speed(n_segments: int = 300, seed: int = 0, rounds: int = 7, crossovers: bool = True) -> dict:
    """Every LP measurement of this module in one process: the workloads against the baseline,
    then (optionally) the dense/sparse and split/whole crossovers."""
    baseline = baseline_matcher()
    report = {"baseline_commit": BASELINE_COMMIT, "seed": seed, "rounds": rounds,
              "workloads": [workload_speed(name, make(n_segments, seed), baseline, rounds)
                            for name, make in WORKLOADS.items()]}
    if crossovers:
        report["dense_vs_sparse"] = dense_vs_sparse(seed)
        report["split_vs_whole"] = split_vs_whole(seed)
    return report


# ---- report -----------------------------------------------------------------------------------

def workload_markdown(report: dict, w: dict) -> str:
    """One workload: its shape, each solver's time against the baseline, the objectives and paths."""
    base = f"{report['baseline_commit']} match(auto)"
    speed = w["speedup_vs_baseline"]
    rows = [[name, f"{ms:.3f}", f"{speed[name]:.2f}x"] for name, ms in w["ms_per_segment"].items()]
    verdict = "met" if speed["match(auto)"] >= TARGET_SPEEDUP else "MISSED"
    name = w["workload"].removesuffix(" (issue 17)")  # older committed reports add a tracker reference
    return (f"**{name}**: {w['n_segments']} segments x {w['lps_per_segment']:.0f} LPs, mean shape "
            f"{w['mean_shape'][0]:.1f} x {w['mean_shape'][1]:.1f}, {100 * w['density']:.1f}% nonzero similarities, "
            f"{w['components_per_lp']:.2f} components per LP.\n\n"
            + table(["solver", "ms / segment", f"speed-up vs {base}"], rows)
            + f"\n\nTarget >= {TARGET_SPEEDUP:.0f}x: {verdict}. Objectives: max |new - {report['baseline_commit']}| "
            f"{w['max_abs_diff_vs_baseline']:.1e}, max |new - HiGHS| {w['max_abs_diff_vs_highs']:.1e} "
            f"({report['baseline_commit']}: {w['baseline_max_abs_diff_vs_highs']:.1e}); equal within "
            f"{OBJECTIVE_TOLERANCE:.0e}: {'yes' if w['objectives_equal'] else 'NO'}. Paths taken: "
            + ", ".join(f"{p} {n}" for p, n in w["paths"].items()) + ".\n")


def dense_sparse_table(report: dict) -> str:
    """Dense against sparse network simplex on random cores by size and density."""
    return table(["N", "density", "dense µs", "sparse µs", "dense / sparse"],
                 [[str(r["size"]), f"{r['density']:.2f}", f"{r['dense_us']:.0f}", f"{r['sparse_us']:.0f}",
                   f"{r['dense_over_sparse']:.2f}"] for r in report["dense_vs_sparse"]])


def split_whole_table(report: dict) -> str:
    """Solving a problem whole against split into its connected components."""
    return table(["blocks x size", "vertices", "whole ms", "split ms", "whole / split", "|diff|"],
                 [[f"{r['blocks']} x {r['block_size']}", str(r["vertices"]), f"{r['whole_ms']:.2f}",
                   f"{r['split_ms']:.2f}", f"{r['whole_over_split']:.2f}", f"{r['abs_diff']:.1e}"]
                  for r in report["split_vs_whole"]])


def lp_markdown(report: dict) -> str:
    """The LP section of a speed report."""
    parts = [f"### LP matcher, general path, against {report['baseline_commit']} "
             f"(medians of {report['rounds']} interleaved rounds, seed {report['seed']})\n"]
    parts += [workload_markdown(report, w) for w in report["workloads"]]
    if "dense_vs_sparse" in report:
        parts.append("**Dense vs sparse network simplex** (random N x N cores; > 1 means sparse is faster):\n\n"
                     + dense_sparse_table(report) + "\n")
    if "split_vs_whole" in report:
        parts.append("**Splitting into connected components** (k shuffled b x b blocks; > 1 means splitting pays):\n\n"
                     + split_whole_table(report) + "\n")
    return "\n".join(parts)


def run(out: Path, n_segments: int = 300, seed: int = 0, rounds: int = 7) -> dict:
    """Measure, write ``lp.md`` and ``lp.json`` into ``out``, print the Markdown."""
    report: dict[str, Any] = {"machine": machine(), "lp": lp_speed(n_segments, seed, rounds)}
    report["peak_rss_mib"] = peak_rss_mib()
    md = (f"## LP matcher speed\n\n{machine_line(report['machine'])} Peak RSS {report['peak_rss_mib']:.0f} MiB.\n\n"
          + lp_markdown(report["lp"]))
    write_report(out, "lp", md, report)
    print(md)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks matching", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for lp.md and lp.json")
    parser.add_argument("--segments", type=int, default=300, help="segments per workload (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=7, help="interleaved timing rounds (default 7)")
    args = parser.parse_args(argv)
    run(args.out, args.segments, args.seed, args.rounds)
    return 0
