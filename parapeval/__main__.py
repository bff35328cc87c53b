"""The ``parapeval`` command (also ``python -m parapeval``): quiet on Ctrl-C from its first import."""

import sys

from evalcore.console import quiet_imports


def main() -> int:
    """Import and run :func:`parapeval.cli.main`."""
    with quiet_imports("parapeval"):
        from parapeval.cli import main as command
    return command()


if __name__ == "__main__":
    sys.exit(main())
