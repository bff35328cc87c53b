"""Covered matching (TESLA-CELAB's LP): the spec's running example at each stage, the case that
makes coverage a constraint, and HiGHS against PuLP on random instances."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalcore.matching.covered import (
    CoveredProblem,
    coverage,
    ngram_spans,
    objective,
    phrase_closure,
    plain_matching,
    solve_covered,
    solve_covered_pulp,
    span_index,
)

settings.register_profile("covered", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Reference "a b c" (buy rain umbrella), candidate "a c" (buy umbrella); "bc" is a synonym of "c".
A, B, C, BC, ABC = (0, 1), (1, 2), (2, 3), (1, 3), (0, 3)
CA, CC, CAC = (0, 1), (1, 2), (0, 2)
RUNNING = [(A, CA), (C, CC), (BC, CC)]


def test_running_example_plain_matching_matches_two():
    problem = CoveredProblem.from_links(3, 2, RUNNING, phrases=False)
    assert (len(problem.ref_spans), len(problem.cand_spans)) == (6, 3)
    matched = plain_matching(problem)
    assert matched == pytest.approx(2)
    assert matched / len(problem.ref_spans) == pytest.approx(2 / 6)  # recall
    assert matched / len(problem.cand_spans) == pytest.approx(2 / 3)  # precision


def test_running_example_phrase_matching_adds_abc_ac():
    assert phrase_closure(RUNNING, 4) - set(RUNNING) == {(ABC, CAC)}
    problem = CoveredProblem.from_links(3, 2, RUNNING)
    matched = plain_matching(problem)
    assert matched / 6 == pytest.approx(3 / 6) and matched / 3 == pytest.approx(3 / 3)


def test_running_example_coverage_covers_everything():
    solution = solve_covered(CoveredProblem.from_links(3, 2, RUNNING))
    assert solution.value == pytest.approx(1.0)
    assert solution.c_ref == pytest.approx(np.ones(6)) and solution.c_cand == pytest.approx(np.ones(3))
    assert (solution.recall, solution.precision) == (pytest.approx(1.0), pytest.approx(1.0))


def test_phrase_closure_respects_max_n():
    chain = [((k, k + 1), (k, k + 1)) for k in range(5)]
    closed = phrase_closure(chain, 3)
    assert max(r[1] - r[0] for r, _ in closed) == 3
    assert len(closed) == 5 + 4 + 3  # identical 1-, 2- and 3-grams along the diagonal
    assert ((0, 2), (0, 1)) not in phrase_closure([(A, CA), (B, CA)], 4)  # pieces must align on both sides


def test_coverage_is_a_constraint_not_post_processing():
    """Reference "b c", candidate "c", links (c, c) and (bc, c): every split of one unit between
    the two edges is an optimal plain matching, but only w(bc, c) = 1 covers "b"."""
    problem = CoveredProblem.from_links(2, 1, [((1, 2), (0, 1)), ((0, 2), (0, 1))])
    assert plain_matching(problem) == pytest.approx(1.0)
    edge_c_c = [k for k, (r, _) in enumerate(problem.edges) if tuple(problem.ref_spans[r]) == (1, 2)][0]
    w_plain = np.zeros(len(problem.edges))
    w_plain[edge_c_c] = 1.0  # an optimum of the plain matching
    post = objective(problem, *coverage(problem, w_plain))
    solution = solve_covered(problem)
    assert solution.value == pytest.approx(1.0)
    assert post == pytest.approx((1 + 0.25) / (3 + 0.25))  # only "c" of b, c, bc is covered
    assert solution.w[edge_c_c] == pytest.approx(0.0)


def test_empty_sides_and_no_edges():
    assert solve_covered(CoveredProblem.from_links(3, 0, [])).value == 0.0
    solution = solve_covered(CoveredProblem.from_links(2, 2, []))
    assert solution.value == 0.0 and solution.n_variables == 0
    assert plain_matching(CoveredProblem.from_links(2, 2, [])) == 0.0


def test_bad_problems_raise_clear_errors():
    with pytest.raises(ValueError, match="f must be"):
        CoveredProblem.of([[0, 1]], [[0, 1]], [[0, 0]], f=0)
    with pytest.raises(ValueError, match="at least one node"):
        CoveredProblem.of(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)))
    with pytest.raises(ValueError, match="index the given spans"):
        CoveredProblem.of([[0, 1]], [[0, 1]], [[0, 3]])
    with pytest.raises(ValueError, match="end > start"):
        CoveredProblem.of([[1, 1]], [[0, 1]], [])
    with pytest.raises(ValueError, match="outside the sequences"):
        CoveredProblem.from_links(3, 2, [((2, 4), (0, 1))])


@given(st.integers(0, 9), st.integers(1, 5))
def test_span_index_is_the_row_of_ngram_spans(length, max_n):
    spans = ngram_spans(length, max_n)
    assert [span_index(tuple(s), length) for s in spans] == list(range(len(spans)))


@st.composite
def linked_sequences(draw):
    """Two short sequences over a small alphabet, linked where units are identical, plus random
    "synonym" links between spans of different lengths."""
    ref = draw(st.lists(st.integers(0, 3), min_size=1, max_size=6))
    cand = draw(st.lists(st.integers(0, 3), max_size=6))
    max_n = draw(st.integers(1, 4))
    links = {((i, i + 1), (j, j + 1)) for i, a in enumerate(ref) for j, b in enumerate(cand) if a == b}
    ref_spans, cand_spans = ngram_spans(len(ref), max_n), ngram_spans(len(cand), max_n)
    if len(cand_spans):
        for _ in range(draw(st.integers(0, 4))):
            r = draw(st.integers(0, len(ref_spans) - 1))
            c = draw(st.integers(0, len(cand_spans) - 1))
            links.add((tuple(ref_spans[r]), tuple(cand_spans[c])))
    f = draw(st.sampled_from([0.25, 0.5, 1.0]))
    return CoveredProblem.from_links(len(ref), len(cand), links, max_n, f, phrases=draw(st.booleans()))


@settings(settings.get_profile("covered"))
@given(linked_sequences())
def test_highs_equals_pulp_on_random_instances(problem):
    solution = solve_covered(problem)
    assert solution.value == pytest.approx(solve_covered_pulp(problem), abs=1e-9)
    # the returned point is feasible and attains the value
    assert objective(problem, solution.c_ref, solution.c_cand) == pytest.approx(solution.value, abs=1e-9)
    c_ref, c_cand = coverage(problem, solution.w)
    assert (solution.c_ref <= c_ref + 1e-9).all() and (solution.c_cand <= c_cand + 1e-9).all()
    for side in (0, 1):
        load = np.bincount(problem.edges[:, side], weights=solution.w) if len(problem.edges) else np.zeros(0)
        assert (load <= 1 + 1e-9).all()
    # coverage only adds to the plain matching: an integral optimum of it covers its matched nodes
    assert solution.value * problem.z >= (1 + problem.f) * plain_matching(problem) - 1e-9


def test_highs_equals_cbc_on_seeded_instances():
    rng = np.random.default_rng(11)
    for _ in range(5):
        ref, cand = rng.integers(0, 3, 6), rng.integers(0, 3, 5)
        links = [((i, i + 1), (j, j + 1)) for i in range(6) for j in range(5) if ref[i] == cand[j]]
        links += [((1, 3), (2, 3)), ((0, 1), (3, 5))]
        problem = CoveredProblem.from_links(6, 5, links)
        assert solve_covered(problem).value == pytest.approx(solve_covered_pulp(problem, "cbc"), abs=1e-6)
