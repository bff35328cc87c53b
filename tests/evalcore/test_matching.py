"""Every fast path of the matcher against PuLP on random and degenerate problems."""


import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.typing import ArrayLike

from evalcore.matching import MatchProblem, bag_overlap, choose, class_overlap, f_measure, match, transport

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
    xb: dict[int, float] = {}
    yb: dict[int, float] = {}
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


# ---- the dispatcher's paths ------------------------------------------------------------------

def _path(x: ArrayLike, y: ArrayLike, sim: ArrayLike) -> str:
    core = MatchProblem.of(x, y, sim).core()
    assert core is not None  # the problem can carry flow
    return choose(core)


@given(problems(max_side=9))
def test_sparse_network_simplex_equals_pulp(problem):
    x, y, sim = problem
    expected = match(x, y, sim, method="pulp-highs")
    assert match(x, y, sim, method="sparse-network-simplex") == pytest.approx(expected, abs=1e-9)


@given(problems(), st.sampled_from(["unit-similarity", "equal-weights", "classes"]), st.floats(0.01, 3.0))
def test_closed_form_and_assignment_paths_equal_pulp(problem, kind, w):
    """Problems shaped for the closed forms and the assignment path, where random ones rarely are."""
    x, y, sim = problem
    if kind == "unit-similarity":
        sim = (sim > 0).astype(float)
    elif kind == "equal-weights":
        x, y = np.where(x > 0, w, 0.0), np.where(y > 0, w, 0.0)
    else:
        labels = np.arange(len(x) + len(y)) % 3
        sim = (labels[:len(x), None] == labels[None, len(x):]).astype(float)
    assert match(x, y, sim) == pytest.approx(match(x, y, sim, method="pulp-highs"), abs=1e-9)


def test_paths_chosen_by_shape():
    assert _path([1, 2], [3, 4], [[0.5, 0], [0, 0.25]]) == "disjoint-edges"
    assert _path([1, 2, 0], [3, 4], [[0.5, 0], [0, 0.25], [1.0, 1.0]]) == "disjoint-edges"  # zero weight drops a row
    assert _path([1], [0.5, 0.25, 1], [[0.2, 0.9, 0.4]]) == "star"
    assert _path([1, 1], [1, 1], [[1, 1], [1, 0]]) == "classes"
    assert _path([0.5, 0.5], [0.5, 0.5], [[0.3, 0.7], [0.2, 0.1]]) == "equal-weights"
    assert _path([1, 2], [1, 3], [[0.3, 0.7], [0.2, 0.1]]) == "dense-simplex"
    assert MatchProblem.of([1, 2], [3], [[0.0], [0.0]]).core() is None


def test_star_is_filled_most_similar_first():
    # capacity 1 all goes to the 0.4 leaf (weight 1), none is left for the 0.2 leaf
    assert match([1.0], [0.5, 1.0, 2.0], [[0.2, 0.4, 0.0]]) == pytest.approx(0.4)
    # the 0.9 leaf takes its whole 0.5, the 0.4 leaf the remaining 0.5
    assert match([1.0], [0.5, 1.0], [[0.9, 0.4]]) == pytest.approx(0.9 * 0.5 + 0.4 * 0.5)
    assert match([0.5, 1.0], [1.0], [[0.9], [0.4]]) == pytest.approx(0.9 * 0.5 + 0.4 * 0.5)


def test_non_transitive_unit_similarity_falls_back_to_simplex():
    # x1~y1, x2~y1, x2~y2: one connected class but not a complete block. Sum of minima would give
    # min(2.1, 2.1); the LP can only move 0.1 on each edge pair.
    x, y, sim = [2.0, 0.1], [0.1, 2.0], [[1, 0], [1, 1]]
    assert _path(x, y, sim) == "classes"
    assert match(x, y, sim) == pytest.approx(0.2)
    assert match(x, y, sim, method="pulp-highs") == pytest.approx(0.2)


def test_large_sparse_core_takes_the_sparse_simplex_and_agrees():
    rng = np.random.default_rng(3)
    for size, density in ((60, 0.05), (45, 0.2), (80, 0.02)):
        x, y = rng.random(size), rng.random(size)
        sim = np.where(rng.random((size, size)) < density, rng.random((size, size)), 0.0)
        assert _path(x, y, sim) == "sparse-simplex"
        expected = match(x, y, sim, method="highs")
        assert match(x, y, sim) == pytest.approx(expected, abs=1e-9)
        assert match(x, y, sim, method="network-simplex") == pytest.approx(expected, abs=1e-9)


def test_simplex_that_stops_early_is_an_error_not_a_value(monkeypatch):
    # ot.emd only warned and returned the non-optimal flow; the matcher must not.
    monkeypatch.setattr(transport, "MAX_ITERATIONS", 1)
    rng = np.random.default_rng(0)
    x, y, sim = rng.random(12), rng.random(12), rng.random((12, 12))
    with pytest.raises(RuntimeError, match="iteration limit"):
        match(x, y, sim)
    with pytest.raises(RuntimeError, match="iteration limit"):
        match(x, y, sim, method="sparse-network-simplex")


def test_importing_the_matcher_loads_neither_scipy_nor_pot():
    import subprocess
    import sys

    code = ("import sys, evalcore.matching; "
            "print(sorted(m for m in ('scipy.optimize', 'scipy.sparse.csgraph', 'ot') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


# ---- the benchmark's workload and baseline ---------------------------------------------------



