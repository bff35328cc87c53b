"""The ``mteval`` command (also ``python -m mteval``): quiet on Ctrl-C from its first import."""

import sys

from evalcore.console import quiet_imports


def main() -> int:
    """Import and run :func:`mteval.cli.main`."""
    with quiet_imports("mteval"):
        from mteval.cli import main as command
    return command()


if __name__ == "__main__":
    sys.exit(main())
