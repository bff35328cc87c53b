"""The ``parapeval`` command (also ``python -m parapeval``)."""

import sys

from evalcore.cli.console import run_command


def main() -> int:
    """Run :func:`parapeval.cli.main`, quiet on Ctrl-C from the first import."""
    return run_command("parapeval", "parapeval.cli")


if __name__ == "__main__":
    sys.exit(main())
