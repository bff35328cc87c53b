"""The HMEANT benchmark's annotator agreement on frames, on the hand-made tables of the HMEANT reader's tests."""

import pytest

from benchmarks.mteval.hmeant import frame_agreement
from mteval.meant.hmeant import read_hmeant


@pytest.fixture
def tables(tmp_path, test_module):
    for name, lines in test_module("mteval/meant/test_meant_hmeant.py").TABLES.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_frame_agreement_between_annotators(tables):
    agreement = frame_agreement(read_hmeant(tables), "en")
    assert agreement == pytest.approx({"references": 1, "predicate_f1": 1.0, "role_f1": 0.5})
