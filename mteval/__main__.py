"""The ``mteval`` command (also ``python -m mteval``)."""

import sys

from evalcore.cli.console import run_command


def main() -> int:
    """Run :func:`mteval.cli.main`, quiet on Ctrl-C from the first import."""
    return run_command("mteval", "mteval.cli")


if __name__ == "__main__":
    sys.exit(main())
