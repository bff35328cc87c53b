"""DICOMER commands for the ``coherence`` CLI: ``score FILE...``, ``train dicomer`` and
``bench readability``. :func:`add_commands` registers them on an existing argparse tree."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from evalcore.textio import InputError, read_utf8

from coherence.cli import add_relation_source_args, relation_source
from coherence.dicomer.config import VARIANTS
from coherence.dicomer.train import MODES


def _read(path: str) -> tuple[str | None, str | None]:
    """(text, error naming the file) of one UTF-8 file."""
    try:
        return read_utf8(path), None
    except InputError as exc:
        return None, str(exc)


def cmd_score(args) -> int:
    """Score files with the shipped model; prints the signature, then a table or JSON lines."""
    from coherence.dicomer.scorer import DicomerScorer

    scorer = DicomerScorer(args.model, relations=relation_source(args))
    read = [_read(f) for f in args.files]
    ok = [i for i, (text, _) in enumerate(read) if text is not None]
    records = dict(zip(ok, scorer.score_texts([read[i][0] for i in ok], [args.files[i] for i in ok])))
    print(f"# {scorer.signature()}", file=sys.stderr if args.format == "json" else sys.stdout)
    status = 0
    for i, path in enumerate(args.files):
        rec = records.get(i)
        error = read[i][1] or (rec.error if rec else None)
        status = status or int(error is not None)
        if args.format == "json":
            row = {"file": path, **(rec.as_dict() if rec else {}), "error": error}
            print(json.dumps(row))
        elif error:
            print(f"{path}\tERROR\t{error}")
        else:
            flags = ",".join(rec.flags) or "-"
            print(f"{path}\t{rec.score:.6f}\t{rec.log_score:.4f}\t{rec.n_sentences}\t{rec.n_relations}\t{flags}")
    return status


def cmd_train_dicomer(args) -> int:
    from coherence.dicomer.scorer import model_paths
    from coherence.dicomer.train import train

    target = model_paths(Path(args.out) if args.out else None)[0]
    if target.exists():
        print(f"overwriting {target}", file=sys.stderr)
    info = train(args.mode, args.variant, Path(args.data) if args.data else None, args.tier,
                 args.C if args.C == "svmlight" else float(args.C), args.seed,
                 Path(args.out) if args.out else None)
    print(json.dumps(info, indent=2))
    return 0


def cmd_bench_readability(args) -> int:
    from coherence.dicomer.bench import run

    run(Path(args.data) if args.data else None, Path(args.out), args.tier, args.bootstrap, args.seed)
    return 0


def add_commands(subparsers, train_subparsers, bench_subparsers) -> None:
    """Register ``score`` on ``subparsers``, ``dicomer`` under ``train`` and ``readability``
    under ``bench`` of the ``coherence`` command tree."""
    s = subparsers.add_parser("score", help="DICOMER readability scores of text files")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--format", choices=("table", "json"), default="table")
    s.add_argument("--model", help="a DICOMER model other than the shipped one")
    add_relation_source_args(s)
    s.set_defaults(func=cmd_score)

    t = train_subparsers.add_parser("dicomer", help="retrain the shipped DICOMER model on SummEval")
    t.add_argument("--mode", choices=MODES, default="listwise")
    t.add_argument("--variant", choices=list(VARIANTS), default="DICOMER")
    t.add_argument("--data", help="SummEval file or folder (default ../shared/data/summeval)")
    t.add_argument("--tier", type=int, choices=(0, 1), default=1, help="discourse parser tier")
    t.add_argument("--C", default="svmlight", help="RankSVM C or 'svmlight' (1 / mean(d.d))")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", help="output folder (default data/coherence: replaces the shipped model)")
    t.set_defaults(func=cmd_train_dicomer)

    b = bench_subparsers.add_parser("readability", help="DICOMER on SummEval coherence/fluency, 5-fold CV")
    b.add_argument("--data", help="shared data root, SummEval folder or file")
    b.add_argument("--out", required=True)
    b.add_argument("--tier", type=int, choices=(0, 1), default=1)
    b.add_argument("--bootstrap", type=int, default=1000)
    b.add_argument("--seed", type=int, default=0)
    b.set_defaults(func=cmd_bench_readability)

