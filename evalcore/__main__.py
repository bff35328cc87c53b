"""The ``aesop-eval`` command (also ``python -m evalcore``)."""

import sys

from evalcore.cli.console import run_command


def main() -> int:
    """Run :func:`evalcore.cli.aesop.main`, quiet on Ctrl-C from the first import."""
    return run_command("aesop-eval", "evalcore.cli.aesop")


if __name__ == "__main__":
    sys.exit(main())
