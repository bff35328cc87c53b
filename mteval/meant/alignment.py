"""MEANT on one MT/REF pair of framed sentences: phrase similarity from token similarities, frame
alignment by predicate similarity and role-filler alignment per role type, both by maximum-weight
bipartite matching (the shared matcher's assignment path), and the backoff for frameless sides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from evalcore.matching.assignment import solve_assignment
from evalcore.matching.problem import MatchProblem
from mteval.meant.formula import PRF, AlignedFrames, SideFrame, weighted_f
from mteval.meant.roles import RoleWeights, role_class
from mteval.srl.frames import Frame, FramedSentence

#: a filler similarity: a token-similarity block (MT filler rows x REF filler columns) -> [0, 1]
FillerSimilarity = Callable[[np.ndarray], float]


def phrase_prf(sim: np.ndarray) -> PRF:
    """Spec 8.1 step 4 (WMT 2013, after Mihalcea et al.): prec = mean over MT tokens (rows) of their
    best REF match, rec = mean over REF tokens (columns) of their best MT match (0 if a side is empty)."""
    if sim.size == 0:
        return PRF(0.0, 0.0)
    return PRF(float(sim.max(axis=1).mean()), float(sim.max(axis=0).mean()))


def phrase_similarity(sim: np.ndarray) -> float:
    """The F1 of :func:`phrase_prf`: MEANT's similarity of two phrases."""
    return phrase_prf(sim).f


def assignment_value(sim: np.ndarray) -> float:
    """Total similarity of the maximum-weight one-to-one matching of rows and columns."""
    if sim.size == 0:
        return 0.0
    problem = MatchProblem.of(np.ones(sim.shape[0]), np.ones(sim.shape[1]), np.clip(sim, 0.0, 1.0))
    return solve_assignment(problem)


def assignment_pairs(sim: np.ndarray) -> list[tuple[int, int]]:
    """The (row, column) pairs of a maximum-weight matching, pairs of similarity 0 left out (they
    carry nothing). The same LAPJV call as :func:`solve_assignment`, which returns the optimum's
    value only: the frame alignment needs the pairs themselves."""
    from scipy.optimize import linear_sum_assignment

    if sim.size == 0:
        return []
    rows, cols = linear_sum_assignment(sim, maximize=True)
    return [(int(i), int(j)) for i, j in zip(rows, cols) if sim[i, j] > 0]


def covered_tokens(frame: Frame) -> set[int]:
    """Token positions a frame fills: its predicate and every filler span."""
    out = {frame.predicate}
    for arg in frame.arguments:
        out.update(range(*arg.span))
    return out


def side_frames(sentence: FramedSentence) -> list[SideFrame]:
    """Every frame's coverage (tokens filled / tokens of the sentence) and fillers per role type."""
    n = max(1, len(sentence.tokens))
    out = []
    for frame in sentence.frames:
        counts: dict[str, int] = {}
        for arg in frame.arguments:
            counts[role_class(arg.role)] = counts.get(role_class(arg.role), 0) + 1
        out.append(SideFrame(len(covered_tokens(frame)) / n, counts))
    return out


def align_frames(mt: FramedSentence, ref: FramedSentence, sim: np.ndarray,
                 filler: FillerSimilarity = phrase_similarity) -> list[AlignedFrames]:
    """Frames aligned by predicate similarity; within each pair, fillers of the same role type
    aligned by the similarity ``filler`` gives their token blocks. ``sim``: MT x REF tokens."""
    pred = np.array([[sim[a.predicate, b.predicate] for b in ref.frames] for a in mt.frames]).reshape(
        len(mt.frames), len(ref.frames))
    out = []
    for i, j in assignment_pairs(pred):
        a, b = mt.frames[i], ref.frames[j]
        roles = {}
        for role in sorted({role_class(x.role) for x in a.arguments} & {role_class(y.role) for y in b.arguments}):
            xs = [x for x in a.arguments if role_class(x.role) == role]
            ys = [y for y in b.arguments if role_class(y.role) == role]
            block = np.array([[filler(sim[slice(*x.span), slice(*y.span)]) for y in ys] for x in xs])
            roles[role] = assignment_value(block)
        out.append(AlignedFrames(i, j, float(pred[i, j]), roles))
    return out


@dataclass(frozen=True)
class SentenceMeant:
    """MEANT of one MT/REF pair: precision, recall, F, how many frames each side has and were
    aligned, and the backoff reason (None when the frames were scored)."""

    prf: PRF
    mt_frames: int
    ref_frames: int
    aligned: int
    backoff: str | None = None


def meant_pair(mt: FramedSentence, ref: FramedSentence, sim: np.ndarray, weights: RoleWeights,
               filler: FillerSimilarity = phrase_similarity, frame_weights: str = "coverage",
               denominator: str = "all") -> SentenceMeant:
    """MEANT of MT against REF given their frames and the MT x REF token-similarity matrix. A side
    without frames backs off to the phrase similarity of the whole sentences (WMT 2013)."""
    if sim.shape != (len(mt.tokens), len(ref.tokens)):
        raise ValueError(f"similarity matrix {sim.shape} does not fit {len(mt.tokens)} x {len(ref.tokens)} tokens")
    if not mt.frames or not ref.frames:
        sides = [name for name, s in (("candidate", mt), ("reference", ref)) if not s.frames]
        return SentenceMeant(phrase_prf(sim), len(mt.frames), len(ref.frames), 0,
                             f"no frame in the {' and the '.join(sides)}")
    pairs = align_frames(mt, ref, sim, filler)
    prf = weighted_f(side_frames(mt), side_frames(ref), pairs, weights, frame_weights, denominator)
    return SentenceMeant(prf, len(mt.frames), len(ref.frames), len(pairs))
