"""``coherence`` command line: ``parse`` texts into discourse relations, ``score`` their
readability with DICOMER, ``train parser|dicomer`` and ``bench parser|readability``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evalcore.textio import read_utf8
from evalcore.workers import jobs_arg

from coherence.adapters import FORMATS, ExternalParser, PrecomputedParses, RelationAdapter
from coherence.relations import Relation, RelationError

_WORKER = {}


def add_relation_source_args(p: argparse.ArgumentParser) -> None:
    """``--external CMD [--external-format F]`` or ``--precomputed DIR``: relations made elsewhere
    (shared by ``parse`` and ``score``; see :func:`relation_source`)."""
    source = p.add_mutually_exclusive_group()
    source.add_argument("--external", metavar="CMD",
                        help="run an external parser: command template with {input} (and {output})")
    source.add_argument("--precomputed", metavar="DIR",
                        help="read precomputed parses DIR/<file stem>.pipe|.json (or <file name>.pipe|"
                             ".json, as `parse --out` writes them) instead of parsing")
    p.add_argument("--external-format", choices=FORMATS, default="pipe",
                   help="output format of the --external command (default pipe)")


def relation_source(args: argparse.Namespace) -> RelationAdapter | None:
    """The adapter :func:`add_relation_source_args` options ask for, or None (built-in parser)."""
    if args.precomputed:
        return PrecomputedParses(args.precomputed)
    if args.external:
        return ExternalParser(args.external, args.external_format)
    return None


def _make_parser(args):
    from coherence.parser.pipeline import DiscourseParser

    return relation_source(args) or DiscourseParser(tier=args.tier, model_path=args.model)


def _init_worker(args) -> None:
    _WORKER["parser"] = _make_parser(args)


def _parse_one(path: str) -> tuple[str, list[Relation] | None, str | None]:
    """(path, relations, error) for one file; errors are returned, never swallowed."""
    try:
        return path, _WORKER["parser"].parse(read_utf8(path), Path(path).name), None
    except (RelationError, ValueError, TypeError) as exc:
        return path, None, str(exc)


def _format(rels: list[Relation], fmt: str, text: str | None) -> str:
    if fmt == "json":
        from coherence.formats.conll_json import write_conll_json

        return write_conll_json(rels, text=text)
    from coherence.formats.pdtb_pipe import write_pipe

    return write_pipe(rels)


def cmd_parse(args) -> int:
    if args.precomputed is None and args.external is None and args.tier == 1:
        from coherence.parser.pipeline import load_model

        load_model(args.model)  # fail early and clearly when the model is missing
    if args.jobs > 1 and len(args.files) > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(args.jobs, _init_worker, (args,)) as pool:
            results = pool.map(_parse_one, args.files, chunksize=1)
    else:
        _init_worker(args)
        results = [_parse_one(f) for f in args.files]
    failed = 0
    out_dir = Path(args.out) if args.out else None
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    for path, rels, err in results:
        if err is not None:
            failed += 1
            print(f"error: {err}", file=sys.stderr)
            continue
        text = read_utf8(path) if args.format == "json" else None
        rendered = _format(rels, args.format, text)
        if out_dir:
            target = out_dir / (Path(path).name + (".json" if args.format == "json" else ".pipe"))
            target.write_text(rendered, "utf-8")
        else:
            sys.stdout.write(rendered)
        print(f"{path}: {len(rels)} relations", file=sys.stderr)
    if failed:
        print(f"{failed} of {len(results)} file(s) failed", file=sys.stderr)
    return 1 if failed else 0


def _default_data() -> Path:
    from evalcore.resources import shared_data_dir

    return shared_data_dir() / "discourse"


def cmd_train_parser(args) -> int:
    from evalcore.resources import data_dir

    from coherence.train import train

    data = Path(args.data) if args.data else _default_data()
    out = Path(args.out) if args.out else data_dir() / "coherence"
    train(data / "gdtb", data / "pdtb2_connective_senses.md", out, log=lambda m: print(m, file=sys.stderr))
    return 0


def cmd_bench_parser(args) -> int:
    from coherence.bench.parser import run

    data = Path(args.data) if args.data else _default_data()
    md, _ = run(data, Path(args.out), model_path=args.model, limit=args.limit,
                log=lambda m: print(m, file=sys.stderr))
    print(md.read_text("utf-8"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="coherence", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("parse", help="discourse relations of text files")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--format", choices=("pipe", "json"), default="pipe",
                   help="PDTB pipe (34 fields) or CoNLL-2016 JSON lines (default pipe)")
    p.add_argument("--jobs", type=jobs_arg, default=1, help="worker processes (default 1, 0 = all cores)")
    p.add_argument("--tier", type=int, choices=(0, 1), default=1,
                   help="0 = lexicon and rules, 1 = GDTB classifiers (default)")
    p.add_argument("--model", help="Tier 1 model file (default: the shipped one)")
    p.add_argument("--out", help="write one parse per input into this folder instead of stdout")
    add_relation_source_args(p)
    p.set_defaults(func=cmd_parse)

    t = sub.add_parser("train", help="train a model")
    tsub = t.add_subparsers(dest="what", required=True)
    tp = tsub.add_parser("parser", help="retrain the Tier 1 parser from GDTB train into data/coherence")
    tp.add_argument("--data", help="discourse data folder (default: shared data/discourse)")
    tp.add_argument("--out", help="output folder (default: data/coherence)")
    tp.set_defaults(func=cmd_train_parser)

    b = sub.add_parser("bench", help="run a benchmark")
    bsub = b.add_subparsers(dest="what", required=True)
    bp = bsub.add_parser("parser", help="parser benchmark on GDTB test/test2 and TED-MDB")
    bp.add_argument("--data", help="discourse data folder (default: shared data/discourse)")
    bp.add_argument("--out", required=True, help="folder for parser.md and parser.json")
    bp.add_argument("--model", help="Tier 1 model file (default: the shipped one)")
    bp.add_argument("--limit", type=int, help="documents per data set (for quick runs)")
    bp.set_defaults(func=cmd_bench_parser)

    from coherence.dicomer.cli import add_commands

    add_commands(sub, tsub, bsub)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except Exception as exc:  # noqa: BLE001 - the CLI reports, the API raises
        from evalcore.resources import ResourceError

        if isinstance(exc, (ResourceError, RelationError, ValueError)):
            print(f"error: {exc}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
