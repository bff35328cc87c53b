"""MEANT's scoring on hand-made frames: phrase similarity, frame and filler alignment, the
weighted f-score (the 2011 worked example with its arithmetic corrected) and the backoff."""

import numpy as np
import pytest

from mteval.meant.alignment import (
    align_frames,
    assignment_pairs,
    meant_pair,
    phrase_prf,
    phrase_similarity,
    side_frames,
)
from mteval.meant.formula import AlignedFrames, SideFrame, weighted_f
from mteval.meant.roles import ROLE_CLASSES, RoleWeights, count_roles, equal_weights, role_class, umeant_weights
from mteval.srl.frames import Argument, Frame, FramedSentence


def exact(a, b):
    return np.array([[float(x.lower() == y.lower()) for y in b] for x in a]).reshape(len(a), len(b))


REF = FramedSentence(tuple("The council approved the budget on Monday".split()), (
    Frame(2, "approve", "verbal", (Argument("ARG0", 1, (0, 2)), Argument("ARG1", 4, (3, 5)),
                                   Argument("ARGM-TMP", 6, (5, 7)))),))
MT = FramedSentence(tuple("On Monday the budget was approved by the council".split()), (
    Frame(5, "approve", "verbal", (Argument("ARGM-TMP", 1, (0, 2)), Argument("ARG1", 3, (2, 4)),
                                   Argument("ARG0", 8, (6, 9)))),))


def test_phrase_similarity_is_the_f_of_best_match_means():
    sim = exact("by the council".split(), "The council".split())
    prf = phrase_prf(sim)
    assert (prf.precision, prf.recall) == pytest.approx((2 / 3, 1.0))
    assert phrase_similarity(sim) == pytest.approx(0.8)
    assert phrase_similarity(np.zeros((0, 3))) == 0.0


def test_hand_made_pair_aligns_frames_and_same_role_fillers():
    sim = exact(MT.tokens, REF.tokens)
    (pair,) = align_frames(MT, REF, sim)
    assert (pair.mt, pair.ref, pair.pred) == (0, 0, 1.0)
    assert dict(pair.roles) == pytest.approx({"agent": 0.8, "experiencer": 1.0, "temporal": 1.0})
    result = meant_pair(MT, REF, sim, equal_weights())
    # frame score (1 + 0.8 + 1 + 1) / (1 + 3) on both sides; one frame per side
    assert result.prf.precision == pytest.approx(0.95) and result.prf.recall == pytest.approx(0.95)
    assert result.backoff is None and result.aligned == 1
    assert side_frames(MT)[0].coverage == pytest.approx(8 / 9)  # "was" is in no filler


def test_fillers_of_other_role_types_are_not_compared():
    swapped = FramedSentence(MT.tokens, (Frame(5, "approve", "verbal", (
        Argument("ARGM-TMP", 1, (0, 2)), Argument("ARG0", 3, (2, 4)), Argument("ARG1", 8, (6, 9)))),))
    (pair,) = align_frames(swapped, REF, exact(swapped.tokens, REF.tokens))
    # only "the" is shared now: agent "the budget" vs "The council", experiencer "by the council" vs "the budget"
    assert dict(pair.roles) == pytest.approx({"agent": 0.5, "experiencer": 0.4, "temporal": 1.0})


def test_frames_align_one_to_one_by_predicate_similarity():
    sim = np.array([[0.2, 0.9, 0.0], [0.8, 0.85, 0.0]])
    assert sorted(assignment_pairs(sim)) == [(0, 1), (1, 0)]  # 1.7 beats the greedy 0.9 + 0.8 tie-break
    assert assignment_pairs(np.zeros((2, 2))) == []  # similarity 0 aligns nothing


def test_worked_example_2011_with_corrected_arithmetic():
    """MEANT ACL 2011 §3.3, MT1 of Figure 1: REF has frames "ceased" (unmatched) and "resumed"
    (ARG1, two ARGM-TMP); MT1 has "resume" (ARG0, ARG1, ARGM-TMP), predicate matched, ARG1 and one
    ARGM-TMP partial, w_pred = w_j = 0.1, w_partial = 0.5, frames weighted uniformly (/ # predicates).
    The paper prints C-precision = C-recall = 0 and f = 0.17, but its own formula credits the matched
    predicate: C-precision = C-recall = 0.1 / 0.4 = 0.25, P-precision = P-recall = 0.2 / 0.4 = 0.5,
    precision = (0.25 + 0.5 x 0.5) / 1 = 0.5, recall = (0.25 + 0.25) / 2 = 0.25, f = 1/3 (spec §11)."""
    w_partial = 0.5
    mt = [SideFrame(1.0, {"agent": 1, "experiencer": 1, "temporal": 1})]
    ref = [SideFrame(1.0, {"experiencer": 1, "temporal": 1}), SideFrame(1.0, {"experiencer": 1, "temporal": 2})]
    pair = AlignedFrames(0, 1, 1.0, {"experiencer": w_partial, "temporal": w_partial})
    weights = RoleWeights(0.1, (0.1,) * len(ROLE_CLASSES), "paper-2011")
    prf = weighted_f(mt, ref, [pair], weights, frame_weights="uniform")
    assert (prf.precision, prf.recall, prf.f) == pytest.approx((0.5, 0.25, 1 / 3))
    assert prf.f != pytest.approx(0.17, abs=0.01)  # the printed (defective) result
    # only the aligned frames in the denominators [ambiguous reading]: recall 0.5
    assert weighted_f(mt, ref, [pair], weights, "uniform", "aligned").recall == pytest.approx(0.5)


def test_unaligned_extra_frame_costs_precision_with_coverage_weights():
    mt = [SideFrame(0.6, {"agent": 1}), SideFrame(0.2, {})]
    ref = [SideFrame(0.5, {"agent": 1})]
    pair = AlignedFrames(0, 0, 1.0, {"agent": 1.0})
    assert weighted_f(mt, ref, [pair], equal_weights()).precision == pytest.approx(0.75)
    assert weighted_f(mt, ref, [pair], equal_weights(), denominator="aligned").precision == pytest.approx(1.0)


@pytest.mark.parametrize("mt_frames", [True, False])
def test_backoff_when_a_side_has_no_frame(mt_frames):
    mt = MT if mt_frames else FramedSentence(MT.tokens)
    ref = FramedSentence(REF.tokens)
    result = meant_pair(mt, ref, exact(mt.tokens, ref.tokens), equal_weights())
    whole = phrase_prf(exact(mt.tokens, ref.tokens))
    assert result.prf == whole and 0 < result.prf.f < 1
    assert result.backoff == ("no frame in the reference" if mt_frames else "no frame in the candidate and the "
                                                                            "reference")


def test_empty_candidate_backs_off_to_zero():
    result = meant_pair(FramedSentence(()), REF, np.zeros((0, len(REF.tokens))), equal_weights())
    assert result.prf.f == 0.0 and result.backoff


def test_matrix_shape_is_checked():
    with pytest.raises(ValueError, match="does not fit"):
        meant_pair(MT, REF, np.zeros((2, 2)), equal_weights())


def test_role_classes_and_umeant_weights():
    assert [role_class(x) for x in ("ARG0", "C-ARG1", "R-ARGM-LOC", "ARGM-PNC", "ARG4", "DEGREE-EXTENT")] == [
        "agent", "experiencer", "locative", "purpose", "other", "extent"]
    counts = count_roles([REF, MT])
    assert counts == {"agent": 2, "experiencer": 2, "temporal": 2}
    w = umeant_weights(counts, "test")
    assert w.of("agent") == pytest.approx(1 / 3) and w.pred == pytest.approx(0.25 / 3) and w.of("modal") == 0
    with pytest.raises(ValueError):
        umeant_weights({}, "none")
