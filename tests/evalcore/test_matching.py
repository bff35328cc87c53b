"""Every fast path of the matcher against PuLP on random and degenerate problems."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from evalcore.matching import bag_overlap, class_overlap, f_measure, match

# Realistic magnitudes (n-gram weights are products of 0.1 discounts; similarities are scores):
# zero, or not below 1e-4, so that CBC's default tolerances stay comparable.
weights = st.one_of(st.just(0.0), st.floats(1e-4, 5.0))
sims = st.one_of(st.just(0.0), st.just(1.0), st.floats(1e-4, 1.0))


@st.composite
def problems(draw, max_side=7):
    m = draw(st.integers(0, max_side))
    n = draw(st.integers(0, max_side))
    x = draw(arrays(float, m, elements=weights))
    y = draw(arrays(float, n, elements=weights))
    sim = draw(arrays(float, (m, n), elements=sims))
    # Sparsify some problems so that the component decomposition path is exercised.
    if draw(st.booleans()):
        sim = sim * draw(arrays(bool, (m, n)))
    return x, y, sim


settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


@given(problems())
def test_fast_paths_equal_pulp(problem):
    x, y, sim = problem
    expected = match(x, y, sim, method="pulp-highs")
    for method in ("auto", "network-simplex", "highs"):
        assert match(x, y, sim, method=method) == pytest.approx(expected, abs=1e-9)
    assert match(x, y, sim, method="pulp") == pytest.approx(expected, abs=1e-6)  # CBC tolerance


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_unit_weights_use_assignment_and_agree(m, n, data):
    sim = data.draw(arrays(float, (m, n), elements=sims))
    x, y = np.ones(m), np.ones(n)
    expected = match(x, y, sim, method="pulp-highs")
    assert match(x, y, sim, method="assignment") == pytest.approx(expected, abs=1e-9)
    assert match(x, y, sim) == pytest.approx(expected, abs=1e-9)


@given(st.lists(st.tuples(st.integers(0, 4), weights), max_size=8),
       st.lists(st.tuples(st.integers(0, 4), weights), max_size=8))
def test_closed_form_equals_lp_for_binary_transitive_similarity(xs, ys):
    xc, xw = [c for c, _ in xs], [w for _, w in xs]
    yc, yw = [c for c, _ in ys], [w for _, w in ys]
    sim = (np.array(xc)[:, None] == np.array(yc)[None, :]).astype(float) if xs and ys else np.zeros((len(xs), len(ys)))
    expected = match(xw, yw, sim, method="pulp-highs")
    assert class_overlap(xc, xw, yc, yw) == pytest.approx(expected, abs=1e-9)
    xb, yb = {}, {}
    for c, w in xs:
        xb[c] = xb.get(c, 0) + w
    for c, w in ys:
        yb[c] = yb.get(c, 0) + w
    assert bag_overlap(xb, yb) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("method", ["auto", "network-simplex", "highs", "pulp", "pulp-highs"])
def test_degenerate_problems(method):
    assert match([], [], np.zeros((0, 0)), method) == 0.0
    assert match([1, 2], [3], np.zeros((2, 1)), method) == 0.0
    # one side much heavier: the light side saturates
    assert match([1000.0], [0.5, 0.25], [[1.0, 1.0]], method) == pytest.approx(0.75)
    assert match([0.0, 0.0], [1.0], [[1.0], [1.0]], method) == 0.0


def test_denormal_weights_are_zero_not_a_stall():
    assert match([1e-306, 1.0], [1.0, 1e-300], [[1.0, 1.0], [0.5, 1e-310]]) == pytest.approx(0.5)


def test_hand_solved_fractional_problem():
    # x1 can go to y1 (0.5) or y2 (1.0); x2 only to y2 (1.0). Best: x2->y2, x1->y1.
    assert match([1, 1], [1, 1], [[0.5, 1.0], [0.0, 1.0]], "auto") == pytest.approx(1.5)
    assert match([2, 1], [1, 1], [[0.5, 1.0], [0.0, 1.0]], "auto") == pytest.approx(1.5)


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(ValueError, match="within \\[0, 1\\]"):
        match([1], [1], [[1.5]])
    with pytest.raises(ValueError, match="non-negative"):
        match([float("nan")], [1], [[1.0]])
    with pytest.raises(ValueError, match="non-negative"):
        match([-1], [1], [[1.0]])
    with pytest.raises(ValueError, match="unknown matching method"):
        match([1], [1], [[1.0]], method="simplex-magic")


def test_f_measure():
    p, r, f = f_measure(2.0, 4.0, 2.0, alpha=0.8)
    assert (p, r) == (1.0, 0.5)
    assert f == pytest.approx(1.0 * 0.5 / (0.8 * 1.0 + 0.2 * 0.5))
    assert f_measure(0.0, 1.0, 1.0) == (0.0, 0.0, 0.0)
