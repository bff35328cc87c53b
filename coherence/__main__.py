"""The ``coherence`` command (also ``python -m coherence``)."""

import sys

from evalcore.cli.console import run_command


def main() -> int:
    """Run :func:`coherence.cli.main`, quiet on Ctrl-C from the first import."""
    return run_command("coherence", "coherence.cli")


if __name__ == "__main__":
    sys.exit(main())
