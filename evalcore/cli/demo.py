"""``aesop-eval demo``: score the tiny demo shipped inside the package, so a wheel user can try the
suite without a checkout: three TAC topics (nine model summaries, twelve peers), two MT systems
with two references and a French source, six paraphrase pairs. Each command runs in a process of
its own and is printed first, as the user would type it; ``--out DIR`` copies the demo files there
first, so the printed commands can be run again on them."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from evalcore.cli.convention import EXIT_OK, check_output_dir
from evalcore.io.textfiles import InputError

#: what the demo scores -> (the extra it needs, the command's package, its arguments below the demo folder)
PARTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "summaries": ("", "summeval", ("score", "--models", "{demo}/models", "--peers", "{demo}/peers", "-m", "all")),
    "translations": ("mt", "mteval", ("score", "-r", "{demo}/mt/ref.A.en", "-r", "{demo}/mt/ref.B.en", "-i",
                                      "{demo}/mt/system-a.en", "{demo}/mt/system-b.en", "-m", "bleu", "-m", "chrf",
                                      "-m", "ter")),
    "paraphrases": ("pem", "parapeval", ("score", "-i", "{demo}/pairs.tsv", "--system-field", "system")),
}
#: scored without being named: PEM's first use builds its phrase tables and LM (minutes), so it is asked for
DEFAULT_PARTS = ("summaries", "translations")


def demo_folder() -> Path:
    """The demo files shipped in the package (``evalcore/demo``)."""
    from evalcore.resources.registry import shipped_file

    return shipped_file("evalcore", "demo")


def add_demo_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("part", nargs="*", metavar="PART",
                        help=f"what to score: {', '.join(PARTS)} (default: {' and '.join(DEFAULT_PARTS)}; "
                             "paraphrases builds PEM's resources on first use, minutes)")
    parser.add_argument("--out", metavar="DIR", help="copy the demo files into DIR and score them there")


def run_demo(args: argparse.Namespace) -> int:
    """Score each part whose extra is installed (the others are named with their install command)
    and return the worst exit code of the commands."""
    from evalcore.extras import install_command, is_installed

    unknown = [p for p in args.part if p not in PARTS]
    if unknown:
        raise InputError(f"unknown demo part {unknown[0]!r}; choose from {', '.join(PARTS)}")
    demo = demo_folder()
    if args.out:
        out = check_output_dir(args.out, "--out")
        if any(out.iterdir()):
            raise InputError(f"--out {out}: the folder is not empty")
        shutil.copytree(demo, out, dirs_exist_ok=True)
        demo = out
    print(f"aesop-eval demo: the demo files are in {demo}", file=sys.stderr)
    code = EXIT_OK
    for part in dict.fromkeys(args.part or DEFAULT_PARTS):
        extra, package, template = PARTS[part]
        if not is_installed(extra):
            print(f"aesop-eval demo: skipping {part} (not installed: {install_command(extra)})", file=sys.stderr)
            continue
        argv = [a.format(demo=demo) for a in template]
        print(f"$ {package} {' '.join(argv)}", file=sys.stderr, flush=True)
        sys.stdout.flush()
        code = max(code, subprocess.run([sys.executable, "-m", package, *argv], check=False).returncode)
    return code
