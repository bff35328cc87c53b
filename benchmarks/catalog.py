"""Every benchmark by name: its one-line help and its ``main(argv)`` (options as the packages'
``bench`` verbs had them), so ``python -m benchmarks NAME ...`` runs any of them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from evalcore.cli.convention import positive_int
from evalcore.io.textfiles import InputError
from evalcore.run.workers import jobs_arg


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _parser(name: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"python -m benchmarks {name}", description=BENCHMARKS[name][0])
    p.add_argument("--out", type=Path, required=True, help="folder for the Markdown and JSON tables")
    return p


def _summeval_args(p: argparse.ArgumentParser, boot: bool = True) -> None:
    p.add_argument("--data", type=Path, help="SummEval 16-system JSON (default: ../shared/data/summeval/...)")
    if boot:
        p.add_argument("--bootstrap", type=int, default=1000)


def summeval(argv: Sequence[str]) -> int:
    from benchmarks.summeval.summeval_bench import run

    p = _parser("summeval")
    _summeval_args(p)
    a = p.parse_args(argv)
    run(a.data, a.out, n_boot=a.bootstrap)
    return 0


def summeval_speed(argv: Sequence[str]) -> int:
    from benchmarks.summeval.speed import run

    p = _parser("summeval-speed")
    _summeval_args(p, boot=False)
    p.add_argument("--problems", type=int, default=1000, help="random 30x30 LPs (default 1000)")
    a = p.parse_args(argv)
    run(a.data, a.out, n_problems=a.problems)
    return 0


def responsiveness(argv: Sequence[str]) -> int:
    from benchmarks.summeval.responsiveness import run

    p = _parser("responsiveness")
    _summeval_args(p)
    a = p.parse_args(argv)
    run(a.data, a.out, n_boot=a.bootstrap)
    return 0


def transfer(argv: Sequence[str]) -> int:
    from benchmarks.summeval.transfer import run

    p = _parser("transfer")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--experiments", action="store_true",
                   help="also every DICOMER and CREMER variant tried (slow: about 40 minutes)")
    p.add_argument("--cremer-tuning", choices=("grid", "shipped"), default="grid",
                   help="CREMER's SVR: grid search as `summeval train cremer` (default) or the shipped "
                        "models' hyper-parameters (faster)")
    a = p.parse_args(argv)
    run(a.out, a.data, n_boot=a.bootstrap, seed=a.seed, experiments=a.experiments, cremer_tuning=a.cremer_tuning,
        log=_log)
    return 0


def languages(argv: Sequence[str]) -> int:
    from benchmarks.summeval.languages import run

    p = _parser("languages")
    p.add_argument("--data", type=Path, help="Multi_SummEval folder (default: ../shared/data/multisumm)")
    p.add_argument("--bootstrap", type=positive_int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    run(a.data, a.out, n_boot=a.bootstrap, seed=a.seed)
    return 0


def scale(argv: Sequence[str]) -> int:
    from benchmarks.summeval.scale import run

    p = _parser("scale")
    p.add_argument("--data", type=Path, help="SummEval 16-system JSON the corpus is drawn from")
    p.add_argument("--summaries", type=int, default=100_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--memory-base", type=int, default=2_000, metavar="N",
                   help="items at 1x of the peak-memory table (10x and 100x follow; 0 = no memory table)")
    p.add_argument("--no-throughput", action="store_true", help="only the peak-memory table")
    p.add_argument("--only", action="append", metavar="WORD", default=[],
                   help="repeatable: a part to run (throughput, memory; default both) or a word every command "
                        "of the peak-memory table run must hold (e.g. --only memory --only summeval --only jsonl)")
    a = p.parse_args(argv)
    parts = {w for w in a.only if w in SCALE_PARTS} or set(SCALE_PARTS)
    run(a.data, a.out, n_summaries=a.summaries, workers=a.workers,
        memory_base=a.memory_base if "memory" in parts else 0,
        throughput="throughput" in parts and not a.no_throughput,
        commands=[w for w in a.only if w not in SCALE_PARTS])
    return 0


#: the parts of ``scale`` that ``--only`` names
SCALE_PARTS = ("throughput", "memory")


def _discourse(data: str | None) -> Path:
    from evalcore.resources.registry import shared_data_dir

    return Path(data) if data else shared_data_dir() / "discourse"


def parser(argv: Sequence[str]) -> int:
    from benchmarks.coherence.parser import run

    p = _parser("parser")
    p.add_argument("--data", help="discourse data folder (default: shared data/discourse)")
    p.add_argument("--model", help="Tier 1 model file (default: the shipped one)")
    p.add_argument("--limit", type=positive_int, help="documents per data set (for quick runs)")
    a = p.parse_args(argv)
    md, _ = run(_discourse(a.data), a.out, model_path=a.model, limit=a.limit, log=_log)
    print(md.read_text("utf-8"))
    return 0


def coherence_speed(argv: Sequence[str]) -> int:
    from benchmarks.coherence.speed import run
    from evalcore.resources.registry import shared_data_dir

    p = _parser("coherence-speed")
    p.add_argument("--data", help="SummEval JSON (default: shared summeval_16sys_mean_expert.json)")
    p.add_argument("--rounds", type=positive_int, default=3, help="interleaved timing rounds (default 3)")
    p.add_argument("--limit", type=positive_int, help="first N summaries only (for quick runs)")
    a = p.parse_args(argv)
    data = Path(a.data) if a.data else shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
    md, _ = run(data, a.out, rounds=a.rounds, limit=a.limit, log=_log)
    print(md.read_text("utf-8"))
    return 0


def readability(argv: Sequence[str]) -> int:
    from benchmarks.coherence.readability import run

    p = _parser("readability")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("--bootstrap", type=int, default=1000, help="BOOT-BOTH resamples and PERM-BOTH permutations")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    run(a.data, a.out, n_boot=a.bootstrap, seed=a.seed)
    return 0


def dicomer_variants(argv: Sequence[str]) -> int:
    from benchmarks.coherence.dicomer_variants import run

    p = _parser("dicomer-variants")
    p.add_argument("--data", help="shared data root, SummEval folder or file")
    p.add_argument("--tier", type=int, choices=(0, 1), default=1)
    p.add_argument("--bootstrap", type=positive_int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    run(Path(a.data) if a.data else None, a.out, a.tier, a.bootstrap, a.seed)
    return 0


def _parapeval_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", help="folder holding twitter_para/ and stsbenchmark/ (default ../shared/data/paraphrase)")
    p.add_argument("--speed-pairs", type=int, default=2000, help="Twitter-Para pairs timed (default 2000)")
    p.add_argument("--repeats", type=int, default=3, help="interleaved speed repeats, medians reported (default 3)")
    p.add_argument("--pivots", help="comma-separated pivot languages (default: the model's, else fr,de,es,zh)")
    p.add_argument("--table", action="append", metavar="PIVOT=PATH", help="phrase table for a pivot (repeatable)")
    p.add_argument("--lm", help="KenLM model file (default: the one `make setup` builds)")
    p.add_argument("--discount", type=float, default=None,
                   help="function-word discount in BPNG (default: the model's; off for training)")
    p.add_argument("--model", help="PEM model file (default: the shipped one)")


def _parapeval_parse(name: str, argv: Sequence[str],
                     extra: Callable[[argparse.ArgumentParser], object] = lambda p: None):
    p = _parser(name)
    _parapeval_args(p)
    extra(p)
    a = p.parse_args(argv)
    if a.speed_pairs < 1 or a.repeats < 1:
        raise InputError("--speed-pairs and --repeats must be at least 1")
    return a


def parapeval(argv: Sequence[str]) -> int:
    from benchmarks.parapeval.run import run_bench
    from parapeval.cli import _features, _pem_params

    a = _parapeval_parse("parapeval", argv, lambda p: p.add_argument(
        "--bench-table", action="append", metavar="NAME=PIVOT:PATH",
        help="extra phrase table to compare (e.g. news-fr=fr:/path/fr.sqlite)"))
    extra = {}
    for spec in a.bench_table or []:
        name, sep, value = spec.partition("=")
        if not sep or ":" not in value:
            raise InputError(f"--bench-table takes NAME=PIVOT:PATH, got {spec!r}")
        extra[name] = value
    run_bench(Path(a.data) if a.data else None, a.out, _features(a), log=_log, extra_tables=extra,
              speed_params=_pem_params(a), speed_pairs=a.speed_pairs, repeats=a.repeats)
    return 0


def parapeval_speed(argv: Sequence[str]) -> int:
    from benchmarks.harness import write_report
    from benchmarks.parapeval.speed import run_speed, speed_markdown
    from parapeval.cli import _pem_params
    from parapeval.data import read_twitter_para, twitter_para_path
    from parapeval.pem.metric import PEM

    a = _parapeval_parse("parapeval-speed", argv)
    pairs = read_twitter_para(twitter_para_path(a.data))[:a.speed_pairs]
    params = _pem_params(a)
    PEM(**params).validate()  # missing resources are a usage error before any timing
    _log(f"speed: PEM vs sentence BLEU on {len(pairs)} Twitter-Para pairs, {a.repeats} interleaved repeats")
    result = run_speed([(x.original, x.paraphrase) for x in pairs], params, a.repeats, log=_log)
    markdown = "# parapeval speed\n\n" + speed_markdown(result)
    write_report(a.out, "speed", markdown, result)
    print(markdown)
    return 0


def parapeval_generators(argv: Sequence[str]) -> int:
    from benchmarks.parapeval.generators import run

    p = _parser("parapeval-generators")
    p.add_argument("--example", type=Path, help="folder with originals.txt, references.txt and the generators' "
                                                 "files (default: docs/guide/paraphrase-example)")
    p.add_argument("--seed", type=int, default=12345)
    a = p.parse_args(argv)
    result = run(a.out, a.example, a.seed, log=_log)
    return 0 if all(ok for r in result["runs"].values() for ok in r["checks"].values()) else 1


def parapeval_metrics(argv: Sequence[str]) -> int:
    from benchmarks.parapeval.metrics import run

    p = _parser("parapeval-metrics")
    p.add_argument("--data", help="folder holding twitter_para/ and stsbenchmark/ (default ../shared/data/paraphrase)")
    p.add_argument("--bootstrap", type=positive_int, default=1000, help="resamples of inputs (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    run(a.out, a.data, a.bootstrap, a.seed, log=_log)
    return 0


def _judgments(name: str, argv: Sequence[str]) -> int:
    from benchmarks.mteval.wmt import MQM_PAIRS, run
    from mteval.data.wmt12 import PAIRS
    from mteval.registry import BASELINES

    p = _parser(name)
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("-m", "--metric", action="append", metavar="NAME",
                   help="metric (repeatable; default: every registered mteval metric; the baselines are always in)")
    p.add_argument("--pairs", nargs="+", metavar="PAIR", help="language pairs of this bench (default: all of them)")
    p.add_argument("--max-segments", type=int, default=None, metavar="N",
                   help="segments per pair (seeded sample; default: the documented subset, 0 = all)")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-j", "--jobs", type=jobs_arg, default=1, help="worker processes for scoring (0 = all cores)")
    a = p.parse_args(argv)
    offered = {"wmt12": list(PAIRS), "mqm": list(MQM_PAIRS), "wmt": [*PAIRS, *MQM_PAIRS]}[name]
    unknown = [x for x in a.pairs or () if x not in offered]
    if unknown:
        raise InputError(f"unknown pair {unknown[0]!r}; choose from {', '.join(offered)}")
    run(a.out, data=a.data, metrics=a.metric, pairs=a.pairs or offered, max_segments=a.max_segments,
        n_boot=a.bootstrap, seed=a.seed, jobs=a.jobs, baselines=BASELINES, log=_log, command=name)
    return 0


def hmeant(argv: Sequence[str]) -> int:
    from benchmarks.mteval.hmeant import run

    p = _parser("hmeant")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    run(a.out, a.data, a.bootstrap, a.seed, log=_log)
    return 0


def mteval_speed(argv: Sequence[str]) -> int:
    from benchmarks.mteval.speed import DEFAULT_SEGMENTS, run

    p = _parser("mteval-speed")
    p.add_argument("--pair", default="fr-en", choices=("cs-en", "de-en", "es-en", "fr-en"),
                   help="WMT12 into-English pair (TESLA-B/F score English only; default fr-en)")
    p.add_argument("--segments", type=positive_int, default=None, metavar="N",
                   help="first N segments (default: the documented size)")
    a = p.parse_args(argv)
    run(a.out, a.pair, a.segments or DEFAULT_SEGMENTS, log=_log)
    return 0


def srl(argv: Sequence[str]) -> int:
    from benchmarks.mteval.srl import run
    from mteval.srl.cli import LANGUAGE_HELP

    p = _parser("srl")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    p.add_argument("-l", "--language", default="en", help=LANGUAGE_HELP)
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds, grouped by document (default 5)")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    run(a.out, a.data, a.language, a.folds, a.bootstrap, a.seed, log=_log)
    return 0


def aso(argv: Sequence[str]) -> int:
    from benchmarks.mteval.aso.cli import add_bench_arguments, run_bench

    p = argparse.ArgumentParser(prog="python -m benchmarks aso", description=BENCHMARKS["aso"][0])
    add_bench_arguments(p)
    return run_bench(p.parse_args(argv), log=_log)


def _delegate(module: str) -> Callable[[Sequence[str]], int]:
    def main(argv: Sequence[str]) -> int:
        import importlib

        return importlib.import_module(module).main(list(argv))

    return main


#: name -> (what it measures, main(argv))
BENCHMARKS: dict[str, tuple[str, Callable[[Sequence[str]], int]]] = {
    "summeval": ("TESLA-S vs ROUGE against SummEval expert scores", summeval),
    "summeval-speed": ("TESLA-S throughput against rouge-score and LP solvers", summeval_speed),
    "responsiveness": ("CREMER vs TESLA-S, DICOMER, ROUGE on SummEval overall (5-fold CV)", responsiveness),
    "transfer": ("trained summary metrics across domains: SummEval <-> DialSummEval, in-domain CV", transfer),
    "languages": ("TESLA-S, ROUGE, chrF, BLEU on German, French, Russian summaries (Multi_SummEval)", languages),
    "scale": ("synthetic corpus: one process vs --jobs vs a Dask cluster", scale),
    "parser": ("discourse parser on GDTB test/test2 and TED-MDB", parser),
    "readability": ("readability and CREMER, leaving one judged set out, with baselines", readability),
    "dicomer-variants": ("DICOMER and its variants against SummEval (out-of-fold)", dicomer_variants),
    "coherence-speed": ("DICOMER (cold cache) against spaCy alone, and the parser's batched stages",
                        coherence_speed),
    "parapeval": ("PEM: Twitter-Para CV, STS-B adequacy check, speed", parapeval),
    "parapeval-speed": ("PEM vs sacrebleu sentence BLEU: speed, stage profile, peak memory (~1 min)",
                        parapeval_speed),
    "parapeval-metrics": ("metrics against Twitter-Para and STS-B judgments: leaderboards with intervals (~1 min)",
                          parapeval_metrics),
    "parapeval-generators": ("three paraphrase generators ranked end to end: intervals, paired tests (~10 s idle)",
                             parapeval_generators),
    "wmt12": ("MT metrics against WMT12 relative rankings (8 pairs)", lambda argv: _judgments("wmt12", argv)),
    "mqm": ("MT metrics against WMT21 MQM (en-de, zh-en)", lambda argv: _judgments("mqm", argv)),
    "wmt": ("WMT12 rankings and WMT21 MQM in one report", lambda argv: _judgments("wmt", argv)),
    "hmeant": ("HMEANT (WMT13 human frames) vs automatic MEANT, BLEU and annotator agreement", hmeant),
    "mteval-speed": ("per-segment time of TESLA-M/B/F by stage, against the paper and the baselines", mteval_speed),
    "tesla-m-speed": ("TESLA-M stage by stage on WMT12 segments", _delegate("benchmarks.mteval.tesla")),
    "celab": ("TESLA-CELAB against Chinese-target judgments", _delegate("benchmarks.mteval.celab")),
    "xmeant": ("XMEANT: WMT12 pairs it can run, TED en-de diagnostic", _delegate("benchmarks.mteval.xmeant")),
    "srl": ("the semantic role labeller, cross-validated by document on UP dev", srl),
    "aso": ("ASO vs linear vs maxent on noun-predicate argument classification (UP dev)", aso),
    "matching": ("LP matcher speed against the reference matcher and POT's ot.emd",
                 _delegate("benchmarks.evalcore.matching")),
}
