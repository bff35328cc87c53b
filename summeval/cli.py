"""``summeval``: score summaries, correlate metrics with human scores, train CREMER
(benchmarks: ``python -m benchmarks --list`` in a checkout).

Follows the suite's CLI convention (:mod:`evalcore.cli.convention`): ``--version``, ``--list-metrics``,
``-m``/``-i``/``-o``/``--format``/``--jobs``/``--max-chars``; machine formats pure on stdout; exit
codes 0 (all scored), 1 (some summaries failed, counted on stderr), 2 (usage or unreadable input);
output paths, ``--report`` and ``--human`` checked before any scoring.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from evalcore.cli.convention import (
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    add_io_args,
    add_output_args,
    check_input_path,
    check_output_dir,
    check_output_path,
    command,
    dispatch,
    emit,
    emit_streamed,
    exit_code,
    guarded,
    limits_of,
    new_parser,
    select_metrics,
    strict_json,
)
from evalcore.cli.meta_evaluate import add_statistics_args, resample_count
from evalcore.io.textfiles import InputError
from evalcore.text.languages import language_or_auto, unstemmed_languages
from evalcore.text.sentences import add_sentences_arg
from summeval.multiref import MULTI_REF_MODES
from summeval.pipeline import RANK_RULES
from summeval.registry import ALL_METRICS, BORROWED, DEFAULT_METRICS

PROG = "summeval"
#: the options of ``--stem`` that only TESLA-S reads (ROUGE's stemming is part of its name)
TESLA_ONLY = {"stem": ("tesla-s", "tesla-s-pos")}


def _add_sources(p, with_input: bool) -> None:
    """The summary inputs shared by ``score`` and ``train cremer``."""
    src = p.add_argument_group("input (a TAC folder pair, a JSONL file, or SummEval's file)")
    src.add_argument("--models", type=Path, help="folder of model (reference) summaries, TAC names")
    src.add_argument("--peers", type=Path, help="folder of peer summaries, TAC names")
    src.add_argument("--include-models", action="store_true",
                     help="also score each model against the other models of its topic")
    if with_input:
        src.add_argument("-i", "--input", metavar="FILE",
                         help="JSONL with topic, system, summary, references (- = standard input)")
    src.add_argument("--summeval", type=Path, help="SummEval 16-system JSON file or 12-system folder")


def _add_score(sub) -> None:
    p = command(sub, "score", _score, help="score peer summaries against model summaries",
                description="Score summaries; every (summary, metric) gets a value or an error record. "
                            f"-m all = {' '.join(ALL_METRICS)}.")
    _add_sources(p, with_input=False)
    add_io_args(p, "summeval", also=BORROWED, default_metrics=DEFAULT_METRICS,
                input_help="JSONL with topic, system, summary, references (- = standard input)")
    tesla = p.add_argument_group("reference options (--multi-ref: TESLA-S and ROUGE; the others: TESLA-S)")
    tesla.add_argument("--multi-ref", choices=MULTI_REF_MODES, default=None,
                       help="with several model summaries: max (default, as in the TESLA-S paper and rouge-score), "
                            "mean or jackknife (TAC: mean over leave-one-model-out maxima)")
    tesla.add_argument("--stem", action="store_true",
                       help="stem TESLA-S's content words: Porter for English, the language's Snowball stemmer for "
                            "another --lang; languages Snowball has no stemmer for are read unstemmed and the "
                            "signature says stem:no-snowball (" + ", ".join(unstemmed_languages()) + ")")
    tesla.add_argument("--function-words", choices=("list", "pos", "none"), default=None,
                       help="function-word detection of tesla-s (default: closed-class word list; "
                            "pos = spaCy POS tags, reported as tesla-s-pos)")
    p.add_argument("--lang", metavar="CODE", type=language_or_auto, default=None,
                   help="language of the summaries (ISO 639-1, default en; a JSONL line's own 'lang' field wins; "
                        "auto: each summary's language as py3langid finds it, the langid extra): "
                        "TESLA-S and ROUGE read it (docs/languages.md), English-only metrics give each summary "
                        "in another language an error record")
    add_sentences_arg(p)
    p.add_argument("--cremer-models", type=Path, metavar="DIR",
                   help="CREMER models from `summeval train cremer --out DIR` (default: the shipped ones)")
    p.add_argument("--rank-partial", choices=RANK_RULES, default="complete",
                   help="systems missing topics (no summary, or no value): complete (default) = listed unranked "
                        "with their coverage, the others ranked on every topic; shared = everyone ranked on the "
                        "topics all ranked systems share")
    p.add_argument("--report", type=Path, metavar="DIR",
                   help="also write a self-contained HTML report and its Markdown twin into DIR")
    p.add_argument("--human", type=Path,
                   help="human scores (JSONL or TSV with topic, system, dimensions) for the report's correlations")


def _add_correlate(sub) -> None:
    p = command(sub, "correlate", _correlate, help="correlate metric scores with human scores")
    p.add_argument("--scores", type=Path, required=True, help="JSON written by `summeval score --format json`")
    p.add_argument("--human", type=Path, required=True,
                   help="human scores: JSONL (topic, system, dimension fields) or TSV/CSV with a header")
    p.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"),
                   help="Koehn-style test: share of topic resamples where metric A beats metric B")
    p.add_argument("--bootstrap", type=resample_count, default=1000, help="resamples (1 to 1000000, default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--strict", action="store_true",
                   help="fail (exit 2) when any scored or human-scored (topic, system) pair has no partner")
    add_output_args(p, ("table", "json"))
    add_statistics_args(p, statistic_default=None)
    p.add_argument("--dimension", action="append", metavar="NAME",
                   help="with --statistic: the human dimension (repeatable; default: every one)")


def _add_train(sub) -> None:
    p = sub.add_parser("train", help="retrain a shipped model")
    what = p.add_subparsers(dest="what", required=True)
    c = command(what, "cremer", _train, help="CREMER SVR: on SummEval by default (TESLA-S z within topic + the shipped "
                                       "DICOMER -> overall), or on your judged summaries with --human")
    _add_sources(c, with_input=True)
    c.add_argument("--human", type=Path, help="human scores (JSONL or TSV with topic, system, dimensions) "
                                              "for --models/--peers or --input")
    c.add_argument("--kernel", choices=("weighted", "rbf", "poly", "linear", "all"), default="all",
                   help="weighted = the default cremer (TESLA-S + the readability weight chosen on SummEval and "
                        "DialSummEval); rbf, poly, linear = the paper's SVRs over TESLA-S and DICOMER; all (default) "
                        "= the three SVRs")
    c.add_argument("--target", default="mean",
                   help="human dimension to fit (default: mean = SummEval's mean of the four dimensions)")
    c.add_argument("--with-dialsummeval", nargs="?", type=Path, const=True, default=None, metavar="DIR",
                   help="the opt-in, NON-COMMERCIAL cremer-news-chat: fit on SummEval and DialSummEval together "
                        "(default DIR: ../shared/data/dialsummeval)")
    c.add_argument("--out", type=Path, help="model folder (default: summeval/models)")


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser(PROG, __doc__.split("\n", 1)[0], "summeval", also=BORROWED)
    sub = parser.add_subparsers(dest="command", required=True)
    _add_score(sub)
    _add_correlate(sub)
    _add_train(sub)
    return parser


# ---- score --------------------------------------------------------------------------------------

def _read_items(args, max_chars: int | None = None):
    """The summaries of the one input given, as a list."""
    from evalcore.data.jsonl import read_jsonl

    if _source(args) == "jsonl":
        check_input_path(args.input)
        return read_jsonl(args.input)
    return _read_folder_or_summeval(args, max_chars)


def _source(args) -> str:
    """Which input the arguments give: ``tac``, ``jsonl`` or ``summeval`` (exactly one, else an InputError)."""
    sources = [s for s in (args.models or args.peers, args.input, args.summeval) if s]
    if len(sources) != 1:
        raise InputError("give exactly one input: --models DIR --peers DIR, --input FILE.jsonl, or --summeval PATH")
    if args.models or args.peers:
        if not (args.models and args.peers):
            raise InputError("--models and --peers go together")
        return "tac"
    return "jsonl" if args.input else "summeval"


def _read_folder_or_summeval(args, max_chars: int | None):
    """A TAC folder pair or SummEval's file, read whole (TAC: a file per summary; SummEval: one JSON document)."""
    from evalcore.data.summeval import read_summeval
    from evalcore.data.tac import read_tac

    if _source(args) == "tac":
        return read_tac(args.models, args.peers, include_models=args.include_models, max_chars=max_chars)
    return read_summeval(args.summeval)


def _stream_items(args, max_chars: int | None,
                  stack: ExitStack) -> tuple[Callable[[], Iterable], int, set, Callable[[], None]]:
    """(a function giving the summaries one at a time, how many, the languages they name, a check
    to call before any output): a JSONL input is checked through once (every error
    :func:`~evalcore.data.jsonl.read_jsonl` gives, before any scoring) and read again as it is
    scored, so it is never held whole (:class:`~evalcore.io.sources.InputFile`: a stream is copied
    once to a temporary file; a file that changes between the readings is an error naming it). The
    other inputs are read whole."""
    from evalcore.data.jsonl import check_jsonl, iter_jsonl
    from evalcore.io.sources import InputFile

    if _source(args) != "jsonl":
        items = _read_folder_or_summeval(args, max_chars)
        return lambda: items, len(items), {item.lang for item in items}, lambda: None
    path = check_input_path(args.input)
    file = stack.enter_context(InputFile("-", "<stdin>") if path is None else InputFile(path, str(path)))
    checked = check_jsonl(file)
    return lambda: iter_jsonl(file), checked.n_items, set(checked.langs), file.verify


def _metrics(args) -> list:
    """The metrics ``-m`` names (``all`` expanded), configured from the options."""
    return select_metrics(args.metric, "summeval", default=DEFAULT_METRICS, also=BORROWED, groups={"all": ALL_METRICS},
                          options={"multi_ref": args.multi_ref, "stem": args.stem or None,
                                   "function_words": args.function_words, "models": args.cremer_models,
                                   "lang": getattr(args, "lang", None), "sentences": args.sentences},
                          only=TESLA_ONLY, per_item=("lang",))


def _score(args) -> int:
    from summeval.pipeline import aggregate_systems, iter_results
    from summeval.report import jsonl_row, to_json, to_text, tsv_head, tsv_row

    output = check_output_path(args.output)
    if args.human and not args.report:
        raise InputError("--human is read for the report's correlations: give --report DIR too")
    if args.human:
        from evalcore.extras import require

        require("report", "the report's plots against --human")
    report = check_output_dir(args.report, "--report")
    human = _read_human(args.human) if args.human else None
    limits = limits_of(args)
    auto = args.lang == "auto"
    if auto:
        from evalcore.extras import require
        from evalcore.text.languages import LANGID_EXTRA

        require(LANGID_EXTRA, "--lang auto")
        args.lang = None
    with ExitStack() as stack:
        items_of, n_items, langs, verify = _stream_items(args, limits.max_chars, stack)
        if not args.lang and not auto and len(langs) == 1 and None not in langs:  # every line names one: sign with it
            args.lang = langs.pop()
        lang = args.lang
        metrics = _metrics(args)
        names = [m.name for m in metrics]
        signatures = {m.name: m.signature() for m in metrics}
        verify()  # the input checked is the input scored: refused before any output when it changed
        identified: Counter[str] = Counter()
        items = (_identified(item, identified) if auto else item if item.lang or not lang else replace(item, lang=lang)
                 for item in items_of())
        stream = iter_results(items, metrics, jobs=args.jobs, progress=True, limits=limits, scheduler=args.scheduler,
                              total=n_items)
        results: list = []
        n_failed = 0

        def kept(keep: bool):
            """The results, counted as they come; kept for a table, JSON or a report."""
            nonlocal n_failed
            for r in stream:
                n_failed += not r.ok
                if keep:
                    results.append(r)
                yield r

        if args.format in ("jsonl", "tsv"):  # each row written as its summary is scored
            def write(out) -> None:
                if args.format == "tsv":
                    out.write(tsv_head(names))
                for r in kept(report is not None):
                    out.write(jsonl_row(r) if args.format == "jsonl" else tsv_row(names, r))

            emit_streamed(write, [str(s) for s in signatures.values()], output)
        else:  # the table and JSON are one document over every summary
            results = list(kept(True))
            systems, rankings = aggregate_systems(results, metrics, args.rank_partial)
            emit(args.format, {"json": lambda: to_json(signatures, results, systems, rankings),
                               "table": lambda: to_text(names, results, systems, rankings)},
                 [str(s) for s in signatures.values()], output)
    if auto:
        from evalcore.text.languages import identifier

        print(f"--lang auto: {identifier()} read the summaries as " + ", ".join(
            f"{code} {n}" for code, n in identified.most_common()), file=sys.stderr)
    if report:
        systems, rankings = aggregate_systems(results, metrics, args.rank_partial)
        _write_report(report, human, signatures, names, results, systems, rankings)
    return exit_code(n_failed, n_items, "summaries")


def _identified(item, counts: Counter[str]):
    """The summary in the language py3langid finds for its text and its references (a line's own
    ``lang`` field wins), counted; its records note the reading (``lang: read as ...``)."""
    from evalcore.text.languages import identify

    lang = item.lang or identify("\n".join((item.summary, *item.references)))
    counts[lang] += 1
    return replace(item, lang=lang)


def _read_human(path: Path):
    """Human scores per (topic, system); blank judgments (missing, not matched) said on stderr."""
    from evalcore.data.human import read_judgments

    check_input_path(path, "--human")
    judgments = read_judgments(path)
    if judgments.missing_note():
        print(f"{path}: {judgments.missing_note()}", file=sys.stderr)
    return judgments.values


def _write_report(folder: Path, human, signatures, names, results, systems, rankings) -> None:
    """HTML + Markdown report; with human scores, correlations and plots against them."""
    import numpy as np

    from evalcore.cli.meta_evaluate import orientations
    from evalcore.stats.correlation import correlation_table, matrices
    from evalcore.stats.leaderboard import Settings, leaderboard
    from summeval.report_html import write_report

    human_by_system, corr, clusters = None, None, None
    if human is not None:
        scored = {(r.topic, r.system): r.scores for r in results if r.scores}
        keys = scored.keys() & human.keys()
        if not keys:
            raise InputError("no scored (topic, system) pair has human scores (--human)")
        topics, systems_ = sorted({t for t, _ in keys}), sorted({s for _, s in keys})
        dims = sorted({d for k in keys for d in human[k]})
        human_m = matrices({k: human[k] for k in keys}, dims, topics, systems_)
        lower = orientations(names)[0]
        metric_m = matrices({k: scored[k] for k in keys}, names, topics, systems_)
        corr = correlation_table({n: -m if n in lower else m for n, m in metric_m.items()}, human_m)
        settings = Settings("system", "kendall-b", resample="both", test="perm-both")
        clusters = {d: leaderboard({n: m.T for n, m in metric_m.items()}, human_m[d].T, settings, lower)
                    for d in dims}
        human_by_system = {s: {d: float(np.nanmean(human_m[d][:, j])) for d in dims} for j, s in enumerate(systems_)}
    html_path, _ = write_report(folder, signatures, names, results, systems, rankings, human_by_system, corr,
                                clusters)
    print(f"report written to {html_path}", file=sys.stderr)


# ---- correlate ----------------------------------------------------------------------------------

def _correlate(args) -> int:
    from evalcore.cli.meta_evaluate import orientations
    from evalcore.data.human import match_keys
    from evalcore.data.scores import read_score_json
    from evalcore.io.tables import correlation_markdown
    from evalcore.stats.correlation import correlation_table, matrices, significance_table
    from evalcore.stats.resampling import check_resamples

    output = check_output_path(args.output)
    check_input_path(args.scores, "--scores")
    rows, signatures = read_score_json(args.scores, "summeval score --format json", "summaries", "summary",
                                       {"topic": str, "system": str})
    scored = {key: row.scores for key, row in rows.items()}
    human = _read_human(args.human)
    match = match_keys(scored, human)
    print(match.summary(), file=sys.stderr)
    if args.strict and not match.complete:
        raise InputError(f"--strict: {match.summary()}")
    keys = match.matched
    if not keys:
        raise InputError(f"no (topic, system) pair of {args.scores} has human scores in {args.human}")
    names = sorted({n for k in keys for n in scored[k]})
    unscored = sorted(set(signatures) - set(names))  # metrics that scored no matched summary
    for name in unscored:
        print(f"{PROG}: {name}: no matched summary has a score (every one is an error): undefined", file=sys.stderr)
    dims = sorted({d for k in keys for d in human[k]})
    topics = sorted({t for t, _ in keys})
    systems = sorted({s for _, s in keys})
    pairs = [tuple(p) for p in args.compare or []]
    for a, b in pairs:
        if a not in names or b not in names:
            raise InputError(f"--compare {a} {b}: both must be metrics in {args.scores} ({', '.join(names)})")
    try:
        check_resamples(args.bootstrap, len(systems), len(topics))
    except ValueError as exc:
        raise InputError(f"--bootstrap: {exc}") from None
    lower = orientations(names)[0]
    metric_m = {n: -m if n in lower else m for n, m in matrices({k: scored[k] for k in keys}, names, topics,
                                                                 systems).items()}
    human_m = matrices({k: human[k] for k in keys}, dims, topics, systems)
    short = {n: s["short"] if isinstance(s, dict) else str(s) for n, s in signatures.items()}
    if args.statistic:
        return _leaderboards(args, {k: scored[k] for k in keys}, {k: human[k] for k in keys},
                             sorted([*names, *unscored]), dims, signatures, output)
    result: dict[str, Any] = {"signature": signatures, "n_topics": len(topics), "n_systems": len(systems),
              "pairs": match.counts(), "correlations": correlation_table(metric_m, human_m, args.bootstrap, args.seed)}
    result.update({k: v for k, v in (("lower_is_better", sorted(lower)), ("unscored_metrics", unscored)) if v})
    if pairs:
        result["significance"] = significance_table(metric_m, human_m, pairs, args.bootstrap, args.seed)
    emit(args.format, {"json": lambda: strict_json(result) + "\n",
                       "table": lambda: correlation_markdown(result["correlations"], result.get("significance"))
                       + f"\n{len(topics)} topics x {len(systems)} systems; {match.summary()}; bootstrap "
                         f"{args.bootstrap} resamples of topics, seed {args.seed}\n"
                       + (f"lower is better (negated, so a positive correlation means agreement): "
                          f"{', '.join(sorted(lower))}\n" if lower else "")},
         short.values(), output)
    return EXIT_ITEM_ERRORS if unscored else EXIT_OK


def _leaderboards(args, scored: dict, human: dict, names: list[str], dims: list[str], signatures: dict,
                  output) -> int:
    """``--statistic``: the leaderboards of `aesop-eval meta-evaluate` (same code), one per dimension;
    topics are the inputs, ``--bootstrap`` the resamples and permutations."""
    from evalcore.cli.meta_evaluate import board, board_text, settings_of, short_signatures, undefined_exit

    settings = settings_of(args, args.bootstrap, args.seed)
    chosen = args.dimension or dims
    for d in chosen:
        if d not in dims:
            raise InputError(f"--dimension {d!r}: {args.human} has {', '.join(dims)}")
    metrics = {n: {(s, t): v[n] for (t, s), v in scored.items() if n in v} for n in names}
    boards = [board(metrics, {(s, t): v[d] for (t, s), v in human.items() if d in v}, d, settings, PROG)
              for d in chosen]
    shorts = short_signatures(signatures)
    emit(args.format, {"json": lambda: strict_json({"signature": signatures,
                                                    "leaderboards": {b.result["dimension"]: b.result
                                                                     for b in boards}}) + "\n",
                       "table": lambda: "\n".join(board_text(b) for b in boards)}, shorts, output)
    return undefined_exit(boards, PROG)


# ---- train ----------------------------------------------------------------------------

def _train(args) -> int:
    from evalcore.extras import require
    from evalcore.resources.registry import shared_data_dir, usable_cache_dir

    require("coherence", "summeval train cremer (spaCy parses, a scikit-learn SVR)")
    from summeval.cremer.model import DEFAULT_KERNEL, KERNELS
    from summeval.cremer.train import train_on_judged, train_on_news_and_chat, train_on_summeval

    check_output_dir(args.out, "--out")
    if args.kernel == "weighted":
        from summeval.cremer.train import train_weighted

        if args.models or args.peers or args.input or args.with_dialsummeval:
            raise InputError("--kernel weighted chooses its weight on the shared SummEval and DialSummEval sets")
        print(f"wrote {train_weighted(shared_data_dir(), args.out, usable_cache_dir('readability'))}")
        return EXIT_OK
    kernels = tuple(KERNELS) if args.kernel == "all" else (args.kernel,)
    if (args.models or args.peers or args.input) and args.with_dialsummeval:
        raise InputError("--with-dialsummeval trains on the two shared sets, not on --models/--peers or --input")
    if args.models or args.peers or args.input:
        if not args.human:
            raise InputError("--human FILE is needed to train on --models/--peers or --input")
        human = _read_human(args.human)
        items = _read_items(args)
        paths = train_on_judged(items, human, args.target, kernels, args.out, source=str(args.input or args.peers))
    elif args.with_dialsummeval:
        if args.target != "mean":
            raise InputError("--with-dialsummeval fits the mean of the four dimensions (--target mean)")
        chat = shared_data_dir() / "dialsummeval" if args.with_dialsummeval is True else args.with_dialsummeval
        news = args.summeval or shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
        paths = train_on_news_and_chat(news, chat, (DEFAULT_KERNEL,) if args.kernel == "all" else kernels, args.out)
    else:
        data = args.summeval or shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
        paths = train_on_summeval(data, kernels, args.target, args.out)
    for path in paths:
        print(f"wrote {path}")
    return EXIT_OK


@guarded(PROG)
def main(argv: list[str] | None = None) -> int:
    return dispatch(PROG, build_parser, argv, "summeval", BORROWED)


if __name__ == "__main__":
    sys.exit(main())
