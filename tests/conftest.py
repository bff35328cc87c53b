"""Fixtures shared by the packages' tests."""

import numpy as np
import pytest


def _tamper(path):
    """Change one number of a model file (in its first numeric array, else in its tree), its
    header (and the SHA-256 there) kept."""
    with np.load(path, allow_pickle=False) as z:
        members = {name: z[name] for name in z.files}
    name = next((n for n in members if n.startswith("a") and members[n].dtype.kind in "fiu" and members[n].size),
                "__tree__")
    changed = members[name].copy()
    flat = changed.reshape(-1)
    k = 0 if name != "__tree__" else next(i for i, b in enumerate(flat) if 48 <= b < 57)  # a digit 0-8
    flat[k] += 1
    members[name] = changed
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **members)


@pytest.fixture
def tamper_model_file():
    """A function that alters a model file's content but not its header (a swapped model)."""
    return _tamper


@pytest.fixture(scope="session")
def shared_data():
    """The public data folder (``../shared/data`` beside the checkout, or ``AESOP_SHARED_DATA``);
    a test that reads it is skipped, with the reason, where it is absent."""
    from evalcore.resources.registry import ResourceError, shared_data_dir

    try:
        return shared_data_dir()
    except ResourceError as exc:
        pytest.skip(f"public data absent: {exc}")


@pytest.fixture(scope="session")
def summeval_expert(shared_data):
    """SummEval's 16-system release with mean expert judgments."""
    path = shared_data / "summeval" / "summeval_16sys_mean_expert.json"
    if not path.exists():
        pytest.skip(f"{path} not present")
    return path
