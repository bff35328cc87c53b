"""The short budget's hypothesis profile and the one way a test runs a case.

``fuzz-ci``: derandomized (the same cases on every run, so CI is reproducible), no example
database, no shrinking (a failing CLI case would cost minutes of reruns; the explicit examples
are the minimal reproductions, and ``python -m tests.fuzz.run`` saves what it finds). The name
``ci`` is taken by ``tests/evalcore/test_matching.py``, which loads it for the whole session."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings

from tests.fuzz.harness import PropertyFailure
from tests.fuzz.targets import TARGETS

PROFILE = "fuzz-ci"
settings.register_profile(PROFILE, derandomize=True, database=None, deadline=None,
                          phases=[Phase.explicit, Phase.generate], print_blob=False,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much, HealthCheck.large_base_example])


def ci(max_examples: int) -> settings:
    """The ``fuzz-ci`` profile with this test's number of cases."""
    return settings(settings.get_profile(PROFILE), max_examples=max_examples)


def run(target: str, case: dict) -> None:
    """Check one case in a fresh folder; a broken property fails the test with its reproduction,
    the case kept in a folder that ``python -m tests.fuzz.run --replay`` reruns."""
    from tests.fuzz.run import save_case

    with tempfile.TemporaryDirectory(prefix=f"fuzz-{target}-") as tmp:
        try:
            TARGETS[target].check(case, Path(tmp))
        except PropertyFailure as failure:
            failed = failure
        else:
            return
    folder = save_case(Path(tempfile.mkdtemp(prefix=f"fuzz-failure-{target}-")), target, case, failed)
    saved = json.loads((folder / "case.json").read_text("utf-8"))
    raise PropertyFailure(saved["property"], f"{saved['detail']}\n  saved: {folder}/case.json; replay: "
                                             f"python -m tests.fuzz.run --replay {folder}", saved["commands"])
