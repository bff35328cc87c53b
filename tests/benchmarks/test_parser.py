"""The discourse parser benchmark's matching and P/R/F."""

from benchmarks.coherence.parser import match_count, prf


def test_metrics():
    assert match_count([{1}, {2}, {9}], [{1, 3}, {2}], lambda p, g: bool(p & g)) == 2
    assert match_count([{1}, {1}], [{1}], lambda p, g: bool(p & g)) == 1  # one-to-one
    r = prf(2, 3, 4)
    assert abs(r["f1"] - 2 * (2 / 3) * 0.5 / (2 / 3 + 0.5)) < 1e-12
    assert prf(0, 0, 0)["f1"] == 0.0
