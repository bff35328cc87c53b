"""IMEANT's and XMEANT's phrase similarity: the length-normalised inside score of a bracketing
ITG biparse of two phrases (Lo et al. 2014, IMEANT §3; XMEANT §3.2).

The grammar has one nonterminal A and the rules A -> [A A] (straight), A -> <A A> (inverted),
A -> e/f (weight: the token similarity), A -> e/eps and A -> eps/f (a null weight: the papers
allow null tokens but give them no weight [decision: a constant, 0.1 by default]). The inside
score P sums the weights of all derivations of the phrase pair (every bracketing, including
the grammar's spurious ambiguity, as the papers define it) and the similarity is
P ** (1 / max(|e|, |f|)). IMEANT weights the structural rules 1 and a lexical rule s(e, f);
XMEANT 0.25 and 0.5 sqrt(t(e|f) t(f|e)).

Exact inside scores take the full chart, O(|e|^3 |f|^3) (a compiled loop; no library does
ITG biparsing). Above ``exact_max`` tokens (on the longer side) the chart keeps only
constituents whose two sides differ in length by at most |len(e) - len(f)| + ``slack``: any
reordering of equal-length blocks stays in, but a derivation with more than ``slack`` extra
null tokens inside one constituent is lost. That is a subset of the derivations, so the score
is a lower bound of the exact one (all weights are non-negative) and is flagged as such; the
cost drops to O(n^4 w^2) for width w. Above twice ``exact_max`` the pair is also cut into
proportional chunks joined by straight rules (again a subset of derivations: a lower bound),
so no filler costs more than a few of those charts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

#: fillers up to this many tokens (on the longer side) get the exact chart
EXACT_MAX = 20
#: the bounded chart for longer fillers keeps constituents with |le - lf| <= |ne - nf| + SLACK
SLACK = 4
#: above BOUNDED_FACTOR * exact_max tokens, fillers are cut into that many-token monotone chunks
BOUNDED_FACTOR = 2
#: sum over derivations (the papers' inside score) or the best derivation
MODES = ("inside", "viterbi")


@dataclass(frozen=True)
class ItgWeights:
    """Rule weights of the bracketing ITG: straight and inverted rules, a factor on the token
    similarity of A -> e/f, and the weight of A -> e/eps and A -> eps/f."""

    straight: float = 1.0
    inverted: float = 1.0
    lexical_scale: float = 1.0
    null: float = 0.1

    def __post_init__(self):
        for name in ("straight", "inverted", "lexical_scale", "null"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"ITG weight {name} must be finite and >= 0, got {value}")

    def describe(self) -> dict:
        return {"straight": self.straight, "inverted": self.inverted, "lexical_scale": self.lexical_scale,
                "null": self.null}


#: IMEANT (2014): structural rules weigh 1, lexical rules the context-vector similarity
IMEANT_WEIGHTS = ItgWeights(1.0, 1.0, 1.0, 0.1)
#: XMEANT (2014, §3.2): p([AA]) = p(<AA>) = 0.25, p(e/f) = 0.5 sqrt(t(e|f) t(f|e)); nulls halved alike
XMEANT_WEIGHTS = ItgWeights(0.25, 0.25, 0.5, 0.05)


@numba.njit(cache=True, nogil=True)
def _inside(lex, null_e, null_f, w_straight, w_inverted, width, best):  # pragma: no cover - compiled
    """Inside score of the whole pair: chart[s, le, u, lf - le + off] holds e-span [s, s+le) with
    f-span [u, u+lf); cells are filled by growing le + lf. ``width`` >= 0 keeps only constituents
    with |le - lf| <= width (< 0: the full chart), and the chart stores only those; ``best`` takes
    the maximum over derivations instead of the sum (Viterbi)."""
    ne, nf = lex.shape
    limit = width if width >= 0 else ne + nf
    off = min(limit, ne)
    chart = np.zeros((ne + 1, ne + 1, nf + 1, off + min(limit, nf) + 1))
    for total in range(1, ne + nf + 1):
        for le in range(max(0, total - nf), min(ne, total) + 1):
            lf = total - le
            if abs(le - lf) > limit:
                continue
            for s in range(ne - le + 1):
                for u in range(nf - lf + 1):
                    value = 0.0
                    if le == 1 and lf == 1:
                        value = lex[s, u]
                    elif le == 1 and lf == 0:
                        value = null_e[s]
                    elif le == 0 and lf == 1:
                        value = null_f[u]
                    straight = 0.0
                    inverted = 0.0
                    for a in range(le + 1):
                        lo = max(0, a - limit, lf - (le - a) - limit)
                        hi = min(lf, a + limit, lf - (le - a) + limit)
                        for b in range(lo, hi + 1):
                            if (a == 0 and b == 0) or (a == le and b == lf):
                                continue
                            k_left, k_right = b - a + off, (lf - b) - (le - a) + off
                            x = chart[s, a, u, k_left] * chart[s + a, le - a, u + b, k_right]
                            y = chart[s, a, u + lf - b, k_left] * chart[s + a, le - a, u, k_right]
                            if best:
                                straight = max(straight, x)
                                inverted = max(inverted, y)
                            else:
                                straight += x
                                inverted += y
                    k = lf - le + off
                    if best:
                        chart[s, le, u, k] = max(value, w_straight * straight, w_inverted * inverted)
                    else:
                        chart[s, le, u, k] = value + w_straight * straight + w_inverted * inverted
    return chart[0, ne, 0, nf - ne + off]


@dataclass(frozen=True)
class InsideScore:
    """The inside score P of a phrase pair, its length-normalised form P ** (1 / max(|e|, |f|))
    and whether it is exact (else a lower bound from the bounded chart)."""

    inside: float
    normalised: float
    exact: bool


def inside_score(sim: np.ndarray, weights: ItgWeights = IMEANT_WEIGHTS, exact_max: int = EXACT_MAX,
                 slack: int = SLACK, mode: str = "inside") -> InsideScore:
    """Bracketing-ITG inside score of two phrases from their token-similarity matrix (rows: e
    tokens, columns: f tokens): the sum over derivations (``mode="inside"``, the papers') or the
    best derivation's weight (``"viterbi"``). An empty phrase scores 0."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    sim = np.ascontiguousarray(sim, dtype=np.float64)
    if sim.ndim != 2:
        raise ValueError(f"expected a 2-d similarity matrix, got shape {sim.shape}")
    if not np.all(np.isfinite(sim)) or np.any(sim < 0):
        raise ValueError("token similarities must be finite and >= 0")
    ne, nf = sim.shape
    if ne == 0 or nf == 0:
        return InsideScore(0.0, 0.0, True)
    lex, best = sim * weights.lexical_scale, mode == "viterbi"
    if max(ne, nf) <= exact_max:
        p = _chart(lex, weights, -1, best)
        return InsideScore(p, math.exp(math.log(p) / max(ne, nf)) if p > 0 else 0.0, True)
    # bounded: proportional monotone chunks of at most BOUNDED_FACTOR * exact_max tokens, each
    # on the width-limited chart; the product sums a subset of the derivations (a lower bound)
    k = math.ceil(max(ne, nf) / (BOUNDED_FACTOR * exact_max))
    ce, cf = np.linspace(0, ne, k + 1).round().astype(int), np.linspace(0, nf, k + 1).round().astype(int)
    log_p = (k - 1) * math.log(weights.straight) if k > 1 and weights.straight > 0 else (0.0 if k == 1 else -math.inf)
    for i in range(k):
        part = lex[ce[i]:ce[i + 1], cf[i]:cf[i + 1]]
        p = _chart(part, weights, abs(part.shape[0] - part.shape[1]) + slack, best)
        log_p += math.log(p) if p > 0 else -math.inf
    if log_p == -math.inf:
        return InsideScore(0.0, 0.0, False)
    return InsideScore(math.exp(log_p), math.exp(log_p / max(ne, nf)), False)


def _chart(lex: np.ndarray, weights: ItgWeights, width: int, best: bool) -> float:
    """The compiled chart over one phrase pair (either side may be empty)."""
    ne, nf = lex.shape
    return float(_inside(np.ascontiguousarray(lex), np.full(ne, weights.null), np.full(nf, weights.null),
                         weights.straight, weights.inverted, width, best))


def itg_similarity(sim: np.ndarray) -> float:
    """IMEANT's filler similarity of a token-similarity block (MT filler rows x REF filler
    columns): min(1, length-normalised inside score) with the paper's weights (a
    :data:`mteval.meant.alignment.FillerSimilarity`). Bounded [decision]: with structural weight
    1 the inside score grows with the number of derivations (Catalan many bracketings even of an
    identical pair), so long phrases pass 1, which MEANT's weighted averages cannot take."""
    return min(1.0, inside_score(sim, IMEANT_WEIGHTS).normalised)


def itg_viterbi_similarity(sim: np.ndarray) -> float:
    """The same with the best derivation instead of the sum (in [0, 1] by itself): the sum with
    structural weight 1 grows with the number of derivations, so long unrelated fillers can
    outscore short paraphrases under :func:`itg_similarity` (README: IMEANT's ITG)."""
    return inside_score(sim, IMEANT_WEIGHTS, mode="viterbi").normalised
