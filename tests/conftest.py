"""Fixtures shared by the packages' tests."""

import numpy as np
import pytest


def _tamper(path):
    """Change one number of a model file's arrays, its header (and the SHA-256 there) kept."""
    with np.load(path, allow_pickle=False) as z:
        members = {name: z[name] for name in z.files}
    name = next(n for n in members if n.startswith("a") and members[n].dtype.kind in "fiu" and members[n].size)
    changed = members[name].copy()
    changed.reshape(-1)[0] += 1
    members[name] = changed
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **members)


@pytest.fixture
def tamper_model_file():
    """A function that alters a model file's content but not its header (a swapped model)."""
    return _tamper
