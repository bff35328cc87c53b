"""The ``summeval`` command (also ``python -m summeval``)."""

import sys

from evalcore.cli.console import run_command


def main() -> int:
    """Run :func:`summeval.cli.main`, quiet on Ctrl-C from the first import."""
    return run_command("summeval", "summeval.cli")


if __name__ == "__main__":
    sys.exit(main())
