"""``python -m benchmarks aso``'s options and runner, kept apart from the experiment so that building the
``mteval`` parser does not import scikit-learn."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def add_bench_arguments(parser) -> None:
    """Options of ``python -m benchmarks aso``."""
    parser.add_argument("--out", type=Path, required=True, help="folder for aso.md and aso.json")
    parser.add_argument("--data", type=Path, help="shared data root (default: ../shared/data)")
    parser.add_argument("--folds", type=int, default=5, help="cross-validation folds, grouped by document (default 5)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="document bootstrap resamples (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--alpha", type=float, default=1e-4,
                        help="lambda of the linear model and ASO (default: the paper's 1e-4)")
    parser.add_argument("--verbal", type=int, default=0, metavar="N",
                        help="add an ASO row with up to N verbal-predicate arguments of the training documents "
                             "as auxiliary examples (not in the paper; default 0 = no such row)")
    parser.add_argument("--brown", type=int, default=30000, metavar="N",
                        help="aso+brown rows: at most N (noun, argument) pairs of unlabelled Brown text as observable "
                             "auxiliary examples (Ando & Zhang 2005; parsed once and cached; default 30000, 0 = no "
                             "such rows)")
    parser.add_argument("--brown-cv", action="store_true",
                        help="add aso+brown-cv (Brown problems, h by inner CV; ~2.5 min CPU per fold)")
    parser.add_argument("--lambda-cv", action="store_true",
                        help="add linear-cv-lambda and aso-cv-lambda: lambda of each by inner CV on the training "
                             "documents")


def run_bench(args, log: Callable[[str], None] = lambda m: None) -> int:
    """Run the experiment (:func:`benchmarks.mteval.aso.nominal.run`), print the report; exit code 0."""
    from benchmarks.mteval.aso.nominal import run

    if args.folds < 2:
        raise ValueError(f"--folds must be at least 2, got {args.folds}")
    if args.brown < 0:
        raise ValueError(f"--brown must be >= 0, got {args.brown}")
    run(args.out, data=args.data, folds=args.folds, n_boot=args.bootstrap, seed=args.seed, alpha=args.alpha,
        verbal=args.verbal, brown=args.brown,
        brown_cv=args.brown_cv, lambda_cv=args.lambda_cv, log=log)
    print((Path(args.out) / "aso.md").read_text("utf-8"))
    return 0
