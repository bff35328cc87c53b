"""The ``aesop-eval`` command (also ``python -m evalcore``): quiet on Ctrl-C from its first import."""

import sys

from evalcore.console import quiet_imports


def main() -> int:
    """Import and run :func:`evalcore.setup_cli.main`."""
    with quiet_imports("aesop-eval"):
        from evalcore.setup_cli import main as command
    return command()


if __name__ == "__main__":
    sys.exit(main())
