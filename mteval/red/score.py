"""RED's scoring (§2.2-2.3, §3): the match score of each dep-ngram against the hypothesis, the
per-length sufficient statistics of one (reference, hypothesis) pair, and the F-measure sum
computed from them for many parameter settings at once (the tuning grid reuses the statistics).

Statistics per length n (``BLOCK`` numbers): for each module k (exact, stem, synonym), the sums
over matched dep-ngrams of p * m_k * C_fun / n^2 and p * m_k * C_con / n^2 (m_k: words matched by
k); for paraphrase-ngrams the sums of C_fun / len and C_con / len; count_n(ref) and count_n(par);
then len(hyp) once. So score_dep_n = sum_k w_k (A_kf w_fun + A_kc (1 - w_fun)) = sum_d p s_mod s_fun
exactly, and without the function-word weight (RED) sum_k w_k (A_kf + A_kc) = sum_d p s_mod.

Decisions where the paper is silent: P = 0 for a hypothesis without words; F_n = 0 where the
reference has no dep-ngram of length n (one-word references), so RED's weights never renormalise.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval.red.align import MODULES
from mteval.red.depngrams import MAX_N, DepNgrams, DepTree

BLOCK = 10
N_STATS = BLOCK * MAX_N + 1
LEN_H = N_STATS - 1
_PAR, _COUNT_REF, _COUNT_PAR = 6, 8, 9


def distance_score(ref_positions: Sequence[int], hyp_positions: Sequence[int]) -> float:
    """Formula (2): exp(-sum_i |dr_i - dh_i| / (n - 1)) over adjacent words of a headword chain
    (1 for one word); 0 when the hypothesis words are not in the reference's order."""
    n = len(ref_positions)
    if n == 1:
        return 1.0
    if sorted(range(n), key=ref_positions.__getitem__) != sorted(range(n), key=hyp_positions.__getitem__):
        return 0.0
    gap = sum(abs(abs(ref_positions[i + 1] - ref_positions[i]) - abs(hyp_positions[i + 1] - hyp_positions[i]))
              for i in range(n - 1))
    return math.exp(-gap / (n - 1))


def best_chain_score(ref_positions: Sequence[int], candidates: Sequence[Sequence[int]]) -> float:
    """The best distance score over every choice of distinct hypothesis positions, one per
    chain word from its candidates (a word that occurs several times); 0 if a word has none."""
    best = 0.0
    for choice in itertools.product(*candidates):
        if len(set(choice)) == len(choice):
            best = max(best, distance_score(ref_positions, choice))
    return best


def _fun_counts(tree: DepTree, words: Sequence[int]) -> tuple[int, int]:
    f = sum(tree.function[i] for i in words)
    return f, len(words) - f


def _add(stats: np.ndarray, n: int, p: float, modules: Sequence[str], tree: DepTree, words: Sequence[int]) -> None:
    f, c = _fun_counts(tree, words)
    base = BLOCK * (n - 1)
    for k, module in enumerate(MODULES):
        m = sum(1 for x in modules if x == module)
        if m:
            stats[base + 2 * k] += p * m * f / n ** 2
            stats[base + 2 * k + 1] += p * m * c / n ** 2


def _all_aligned(links: Sequence[tuple[int, str] | None]) -> list[tuple[int, str]] | None:
    """The (hypothesis position, module) links of some reference words, or None if one is unaligned."""
    aligned = [link for link in links if link is not None]
    return aligned if len(aligned) == len(links) else None


def exact_stats(tree: DepTree, grams: DepNgrams, hypothesis: Sequence[str]) -> np.ndarray:
    """RED's statistics: every word matched by surface form; a headword chain scores its best
    occurrence in the hypothesis, a fixed-floating string 1 if it occurs contiguously."""
    stats = np.zeros(N_STATS)
    where: dict[str, list[int]] = {}
    for j, w in enumerate(hypothesis):
        where.setdefault(w, []).append(j)
    contiguous = {tuple(hypothesis[s:s + n]) for n in range(1, MAX_N + 1) for s in range(len(hypothesis) - n + 1)}
    for n in range(1, MAX_N + 1):
        for chain in grams.chains[n]:
            cands = [where.get(tree.words[i], ()) for i in chain]
            p = best_chain_score(chain, cands) if all(cands) else 0.0
            if p:
                _add(stats, n, p, ["exact"] * n, tree, chain)
        for s, e in grams.spans[n]:
            if tuple(tree.words[s:e]) in contiguous:
                _add(stats, n, 1.0, ["exact"] * n, tree, range(s, e))
        stats[BLOCK * (n - 1) + _COUNT_REF] = grams.count(n)
    stats[LEN_H] = len(hypothesis)
    return stats


def aligned_stats(tree: DepTree, grams: DepNgrams, hypothesis: Sequence[str],
                  alignment: Sequence[tuple[int, str] | None],
                  paraphrases: Sequence[tuple[int, int, int, int, float]] = ()) -> np.ndarray:
    """REDp's statistics: a dep-ngram matches when every word is aligned, in the reference's
    order (and contiguously for fixed-floating); paraphrase-ngrams counted by reference length."""
    stats = np.zeros(N_STATS)
    for n in range(1, MAX_N + 1):
        for chain in grams.chains[n]:
            links = _all_aligned([alignment[i] for i in chain])
            if links is not None:
                p = distance_score(chain, [position for position, _ in links])
                if p:
                    _add(stats, n, p, [module for _, module in links], tree, chain)
        for s, e in grams.spans[n]:
            links = _all_aligned(alignment[s:e])
            if links is not None and all(links[k + 1][0] == links[k][0] + 1 for k in range(n - 1)):
                _add(stats, n, 1.0, [module for _, module in links], tree, range(s, e))
        stats[BLOCK * (n - 1) + _COUNT_REF] = grams.count(n)
    for rs, re_, _, _, _ in paraphrases:
        n = re_ - rs
        f, c = _fun_counts(tree, range(rs, re_))
        base = BLOCK * (n - 1)
        stats[base + _PAR] += f / n
        stats[base + _PAR + 1] += c / n
        stats[base + _COUNT_PAR] += 1
    stats[LEN_H] = len(hypothesis)
    return stats


@dataclass(frozen=True)
class Weights:
    """Parameter settings, one per row: alpha, w_fun (NaN: no function-word weight), module
    weights (exact, stem, syn), w_par, and the n-gram weights w_1..w_3."""

    alpha: np.ndarray
    w_fun: np.ndarray
    modules: np.ndarray
    w_par: np.ndarray
    ngram: np.ndarray

    @classmethod
    def one(cls, alpha: float, w_fun: float | None, modules: Sequence[float], w_par: float,
            ngram: Sequence[float]) -> Weights:
        """One setting (``w_fun`` None: no function-word weight, as RED)."""
        return cls(np.array([alpha]), np.array([np.nan if w_fun is None else w_fun]), np.array([modules], float),
                   np.array([w_par]), np.array([ngram], float))


def fmeasures(stats: np.ndarray, w: Weights) -> np.ndarray:
    """(settings x pairs x MAX_N) F_n of statistics rows ``stats`` (pairs x N_STATS), Formula (10)."""
    stats = np.atleast_2d(stats)
    len_h = stats[:, LEN_H][None, :]
    out = np.zeros((len(w.alpha), len(stats), MAX_N))
    fun = ~np.isnan(w.w_fun)[:, None]
    wf = np.where(fun, np.nan_to_num(w.w_fun)[:, None], 0.0)
    a = w.alpha[:, None]
    for n in range(1, MAX_N + 1):
        b = stats[:, BLOCK * (n - 1):BLOCK * n]
        mod_f = w.modules @ b[:, [0, 2, 4]].T  # (settings x pairs)
        mod_c = w.modules @ b[:, [1, 3, 5]].T
        par_f, par_c = b[:, _PAR][None, :], b[:, _PAR + 1][None, :]
        dep = np.where(fun, mod_f * wf + mod_c * (1 - wf), mod_f + mod_c)
        par = w.w_par[:, None] * np.where(fun, par_f * wf + par_c * (1 - wf), par_f + par_c)
        matched = dep + par
        count = (b[:, _COUNT_REF] + b[:, _COUNT_PAR])[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            precision = np.where(len_h > 0, matched / len_h, 0.0)
            recall = np.where(count > 0, matched / count, 0.0)
            out[:, :, n - 1] = np.where(precision * recall > 0,
                                        precision * recall / (a * precision + (1 - a) * recall), 0.0)
    return out


def values(stats: np.ndarray, w: Weights) -> np.ndarray:
    """(settings x pairs) RED/REDp values: sum_n w_n F_n (Formulas 6 and 9)."""
    return np.einsum("spn,sn->sp", fmeasures(stats, w), w.ngram)
