"""The ``coherence`` command (also ``python -m coherence``): quiet on Ctrl-C from its first import."""

import sys

from evalcore.console import quiet_imports


def main() -> int:
    """Import and run :func:`coherence.cli.main`."""
    with quiet_imports("coherence"):
        from coherence.cli import main as command
    return command()


if __name__ == "__main__":
    sys.exit(main())
