"""The labeller's subcommands of ``mteval``: ``srl FILE`` (frames of each line) and ``train srl``;
:mod:`mteval.cli` only registers them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evalcore.cli.convention import (
    EXIT_ITEM_ERRORS,
    EXIT_OK,
    add_output_args,
    check_input_path,
    check_output_path,
    write_output,
)
from mteval.srl.labeller import LANGUAGES, default_labeller, load_labeller, model_path

FORMATS = ("conllu", "json")
LANGUAGE_HELP = (f"language: {', '.join(LANGUAGES)} (default en); others stop with a message naming what is "
                 "missing (German and Chinese: no offline parser)")


def add_label_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``mteval srl FILE``."""
    p.add_argument("file", metavar="FILE", help="text to label, one segment a line (- = standard input); a line "
                                                "holding several sentences stays one framed segment")
    add_output_args(p, FORMATS, format_help="conllu: UP layout (spaCy's tree, predicate column, one argument "
                                            "column per predicate); json: one FramedSentence object a line "
                                            "(default conllu)")
    p.add_argument("-l", "--language", default="en", help=LANGUAGE_HELP)
    p.add_argument("--model", type=Path, help="model file (default: the shipped one of the language)")


def run_label(args: argparse.Namespace) -> int:
    """Label every line; empty or undecodable lines get an error record (JSON) or a line on stderr
    (CoNLL-U) and exit code 1."""
    from mteval.io import read_segments
    from mteval.srl.external import to_conllu
    from mteval.srl.features import parse_texts
    from mteval.srl.labeller import parser_for

    output = check_output_path(args.output)
    check_input_path(args.file, "FILE")
    segments = read_segments(args.file)
    labeller = load_labeller(args.model, args.language) if args.model else default_labeller(args.language)
    ok = [k for k, line in enumerate(segments.lines) if line is not None]
    texts = [segments.text(k) for k in ok]
    parsed = parse_texts(parser_for(args.language), texts)
    framed = dict(zip(ok, labeller.label_parsed(parsed)))
    if args.format == "json":
        import json

        body = "".join(
            json.dumps({"line": k + 1, **framed[k].to_json()} if k in framed
                       else {"line": k + 1, "tokens": [], "frames": [], "error": segments.errors[k]},
                       ensure_ascii=False) + "\n"
            for k in range(len(segments)))
    else:
        body = to_conllu([framed[k] for k in ok], parsed, texts)
        for k in sorted(segments.errors):
            print(f"error: {segments.errors[k]}", file=sys.stderr)
    write_output(body, output)
    print(f"srl: {', '.join(f'{k}={v}' for k, v in labeller.describe().items())}", file=sys.stderr)
    if segments.errors:
        print(f"{len(segments.errors)} of {len(segments)} lines could not be labelled (see the error records)",
              file=sys.stderr)
        return EXIT_ITEM_ERRORS
    return EXIT_OK


def add_train_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of ``mteval train srl``."""
    p.add_argument("-l", "--language", default="en", help=LANGUAGE_HELP)
    p.add_argument("--out", type=Path, help="model file to write (default: the shipped model's path)")
    p.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")


def run_train(args: argparse.Namespace) -> int:
    """Train on the language's UP dev file and write the model file."""
    from mteval.srl.train import train_and_save

    out = args.out or model_path(args.language)
    train_and_save(args.language, out, args.data, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(f"wrote {out} and {out.with_suffix('.json')}", file=sys.stderr)
    return EXIT_OK
