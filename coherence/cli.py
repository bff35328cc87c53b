"""``coherence`` command line: ``parse`` texts into discourse relations, ``score`` their
readability with DICOMER, ``train parser|dicomer`` (benchmarks: ``python -m
benchmarks --list`` in a checkout).

The suite's CLI convention (:mod:`evalcore.cli.convention`): ``--version``, ``--list-metrics``; texts as
positional files and/or ``-i/--input FILE`` (``-`` = standard input); ``-o/--output``; exit codes
0 (all done), 1 (some texts failed, with a count on stderr), 2 (usage error or unreadable input).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from coherence.inputs import STDIN, Source, add_relation_source_args, add_text_inputs, relation_source, text_sources
from coherence.relations import Relation, RelationError
from evalcore.cli.convention import (
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    add_limit_args,
    add_output_args,
    check_output_dir,
    check_output_path,
    command,
    dispatch,
    guarded,
    limits_of,
    new_parser,
    write_output,
)
from evalcore.extras import require
from evalcore.io.textfiles import InputError
from evalcore.text.sentences import add_sentences_arg

_WORKER: dict[str, Any] = {}  # the parser and limits of this process


def _init_worker(args) -> None:
    from coherence.parser.pipeline import DiscourseParser

    _WORKER["parser"] = relation_source(args) or DiscourseParser(tier=args.tier, model_path=args.model)
    _WORKER["limits"] = limits_of(args)
    _WORKER["sentences"] = args.sentences


def _init_pool_worker(args) -> None:
    """A worker process of ``--jobs``: quiet on Ctrl-C, then as :func:`_init_worker`."""
    from evalcore.run.workers import quiet_interrupt

    quiet_interrupt()
    _init_worker(args)


def _parse_one(source: Source) -> tuple[Source, str | None, list[Relation] | None, str | None]:
    """(source, text, relations, error) for one input; errors are returned, never swallowed."""
    try:
        from coherence.parser.pipeline import DiscourseParser
        from coherence.sentences import parse_texts

        text = source.read(_WORKER["limits"])
        parser, doc_id = _WORKER["parser"], Path(source.name).name
        if isinstance(parser, DiscourseParser):  # our parser reads sentences as --sentences says
            return source, text, parser.parse_parsed(parse_texts([text], [doc_id], _WORKER["sentences"])[0]), None
        return source, text, parser.parse(text, doc_id), None
    except (RelationError, InputError, TypeError) as exc:
        return source, None, None, str(exc)


def _format(rels: list[Relation], fmt: str, text: str | None) -> str:
    if fmt == "json":
        from coherence.formats.conll_json import write_conll_json

        return write_conll_json(rels, text=text)
    from coherence.formats.pdtb_pipe import write_pipe

    return write_pipe(rels)


def _out_names(sources: list[Source], fmt: str) -> list[str]:
    """The file each input's parse gets in ``--out``; two inputs sharing a file name would
    overwrite each other's parse, so that is refused before any parsing."""
    suffix = ".json" if fmt == "json" else ".pipe"
    names = [Path(s.name).name + suffix for s in sources]
    seen: dict[str, str] = {}
    for source, name in zip(sources, names):
        if name in seen:
            raise InputError(f"--out: {seen[name]} and {source.name} would both be written to {name}; "
                             "give inputs distinct file names or parse them separately")
        seen[name] = source.name
    return names


def cmd_parse(args) -> int:
    from evalcore.run.progress import bar

    sources = text_sources(args)
    if args.out and args.output not in (None, STDIN):
        raise InputError("give -o/--output (one file) or --out (a folder, one parse per input), not both")
    out_dir = check_output_dir(args.out, "--out")
    names = _out_names(sources, args.format) if out_dir else []
    output = check_output_path(args.output)
    if args.precomputed is None and args.external is None and args.tier == 1:
        from coherence.parser.pipeline import load_parser_model

        load_parser_model(args.model)  # fail early and clearly when the model is missing or corrupt
    with bar(len(sources), unit="file", min_total=2) as pbar:
        if args.jobs > 1 and len(sources) > 1:
            import multiprocessing as mp

            with mp.get_context("spawn").Pool(args.jobs, _init_pool_worker, (args,)) as pool:
                results = []
                for result in pool.imap(_parse_one, sources, chunksize=1):
                    results.append(result)
                    pbar.update(1)
        else:
            _init_worker(args)
            results = []
            for source in sources:
                results.append(_parse_one(source))
                pbar.update(1)
    failed, rendered = 0, []
    for k, (source, text, rels, err) in enumerate(results):
        if err is not None or rels is None:
            failed += 1
            print(f"error: {err}", file=sys.stderr)
            continue
        body = _format(rels, args.format, text)
        if out_dir:
            (out_dir / names[k]).write_text(body, "utf-8")
        else:
            rendered.append(body)
        print(f"{source.name}: {len(rels)} relations", file=sys.stderr)
    if not out_dir:
        write_output("".join(rendered), output)
    if failed:
        print(f"{failed} of {len(results)} file(s) could not be parsed", file=sys.stderr)
        return EXIT_ITEM_ERRORS
    return EXIT_OK


def _default_data() -> Path:
    from evalcore.resources.registry import shared_data_dir

    return shared_data_dir() / "discourse"


def cmd_train_parser(args) -> int:
    require("coherence", "coherence train parser (scikit-learn classifiers)")
    from coherence.train import train
    from evalcore.resources.registry import package_path

    data = Path(args.data) if args.data else _default_data()
    out = check_output_dir(Path(args.out) if args.out else package_path("coherence", "models"), "--out")
    train(data / "gdtb", data / "pdtb2_connective_senses.md", out, log=lambda m: print(m, file=sys.stderr))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    ap = new_parser("coherence", __doc__.split("\n\n")[0], package="coherence")
    sub = ap.add_subparsers(dest="command", required=True)

    p = command(sub, "parse", cmd_parse, help="discourse relations of text files")
    add_text_inputs(p, "parse")
    add_output_args(p, ("pipe", "json"), format_help="PDTB pipe (34 fields) or CoNLL-2016 JSON lines (default pipe)")
    add_limit_args(p)
    p.add_argument("--out", metavar="DIR",
                   help="write one parse per input into this folder (<file name>.pipe|.json) instead")
    p.add_argument("--tier", type=int, choices=(0, 1), default=1,
                   help="0 = lexicon and rules, 1 = GDTB classifiers (default)")
    p.add_argument("--model", help="Tier 1 model file (default: the shipped one)")
    add_sentences_arg(p)
    add_relation_source_args(p)

    t = sub.add_parser("train", help="train a model")
    tsub = t.add_subparsers(dest="what", required=True)
    tp = command(tsub, "parser", cmd_train_parser, help="retrain the Tier 1 parser from GDTB train into "
                                                        "coherence/models")
    tp.add_argument("--data", help="discourse data folder (default: shared data/discourse)")
    tp.add_argument("--out", help="output folder (default: coherence/models)")

    from coherence.dicomer.cli import add_commands
    from coherence.readability.cli import add_commands as add_readability_commands

    add_commands(sub, tsub)
    add_readability_commands(tsub)
    return ap


@guarded("coherence")
def main(argv: list[str] | None = None) -> int:
    return dispatch("coherence", build_parser, argv, "coherence")


if __name__ == "__main__":
    sys.exit(main())
