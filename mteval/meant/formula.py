"""MEANT's weighted f-score over aligned frames (spec 8.1 step 6; IMEANT 2014 §3.1), shared by
automatic MEANT (alignments from maximum-weight matching) and HMEANT (human alignments)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mteval.meant.roles import ROLE_CLASSES, RoleWeights

#: frame weights: share of the sentence's tokens the frame covers (SSST-5 onwards), or 1 per frame
#: (MEANT 2011, "/ total # predicates")
FRAME_WEIGHTS = ("coverage", "uniform")
#: [ambiguous] which frames the sentence-level denominators sum over: "all" frames of the side (SSST-5:
#: unmatched extra frames are penalised; the default) or the "aligned" frames only (later notation)
DENOMINATORS = ("all", "aligned")


@dataclass(frozen=True)
class SideFrame:
    """One frame of one side as the formula needs it: its weight w0_i / w1_i before normalising
    (coverage) and its fillers per role type (|q_i,j|)."""

    coverage: float
    counts: Mapping[str, int]


@dataclass(frozen=True)
class AlignedFrames:
    """An aligned MT/REF frame pair: indices, predicate similarity s_i,pred and per role type the
    summed similarity of the aligned fillers s_i,j."""

    mt: int
    ref: int
    pred: float
    roles: Mapping[str, float]


@dataclass(frozen=True)
class PRF:
    """Sentence precision, recall and MEANT = 2PR / (P + R) (0 when P + R = 0)."""

    precision: float
    recall: float

    @property
    def f(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r > 0 else 0.0


def frame_score(pair: AlignedFrames, frame: SideFrame, weights: RoleWeights) -> float:
    """(w_pred s_pred + sum_j w_j s_j) / (w_pred + sum_j w_j |q_j|) for one side's frame (0 when
    the weighted denominator is 0: a frame whose roles all weigh nothing and w_pred = 0)."""
    num = weights.pred * pair.pred + sum(weights.of(r) * s for r, s in pair.roles.items())
    den = weights.pred + sum(weights.of(r) * frame.counts.get(r, 0) for r in ROLE_CLASSES)
    return num / den if den > 0 else 0.0


def weighted_f(mt: Sequence[SideFrame], ref: Sequence[SideFrame], pairs: Sequence[AlignedFrames],
               weights: RoleWeights, frame_weights: str = "coverage", denominator: str = "all") -> PRF:
    """Precision over the MT frames and recall over the REF frames (both sides need >= 1 frame)."""
    if not mt or not ref:
        raise ValueError("the f-score needs frames on both sides (backoff handles the rest)")

    def weight(frame: SideFrame) -> float:
        return frame.coverage if frame_weights == "coverage" else 1.0

    def side(frames: Sequence[SideFrame], index: str) -> float:
        aligned = {getattr(p, index): p for p in pairs}
        num = sum(weight(frames[i]) * frame_score(p, frames[i], weights) for i, p in aligned.items())
        norm_over = frames if denominator == "all" else [frames[i] for i in aligned]
        total = sum(weight(f) for f in norm_over)
        return num / total if total > 0 else 0.0

    return PRF(side(mt, "mt"), side(ref, "ref"))
