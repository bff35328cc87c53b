#!/usr/bin/env python3
"""Fuzz every scoring CLI and ``score_batch`` for N minutes: ``scripts/fuzz.py --minutes N`` (the
options of ``python -m tests.fuzz.run``; run it from the project root)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.run import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
