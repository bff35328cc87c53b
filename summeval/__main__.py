"""The ``summeval`` command (also ``python -m summeval``): quiet on Ctrl-C from its first import."""

import sys

from evalcore.console import quiet_imports


def main() -> int:
    """Import and run :func:`summeval.cli.main`."""
    with quiet_imports("summeval"):
        from summeval.cli import main as command
    return command()


if __name__ == "__main__":
    sys.exit(main())
