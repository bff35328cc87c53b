"""Meta-evaluation: how well a metric agrees with human judgments; the one statistics module
every package and benchmark calls (correlations, bootstrap resamples and intervals, paired shares).

Scores are arranged as (documents x systems) matrices, NaN where a system has no output for a
document. Three groupings (as in sacrerouge's and Deutsch et al.'s meta-evaluation):
- ``none``: one correlation over every (document, system) cell both sides scored;
- ``item``: per document, correlate across systems; average over documents (documents where
  either side is constant are skipped) - "summary level" in the summarization literature;
- ``system``: average per system over documents, then correlate across systems.
Bootstrap resamples documents (seeded); correlations are vectorised over resamples, Kendall
included, so 1,000 resamples cost milliseconds to a few seconds (the pooled Kendall of the ``none``
grouping costs O(cells^2) once: ~20 s for 30,000 cells). Intervals are percentile or BCa; a
point estimate outside its own interval is flagged in the result and warned about.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm, rankdata

from evalcore.stats.coefficients import constant, deviations

CORRELATIONS = ("pearson", "spearman", "kendall")
GROUPINGS = ("none", "item", "system")
CI_METHODS = ("percentile", "bca")
# Groupings of the standard tables: per item and per system (as the benches have always reported).
TABLE_GROUPINGS = ("item", "system")

Records = Mapping[tuple[str, str], Mapping[str, float]]  # (topic, system) -> {name: value}


def _pearson_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each row pair, ignoring NaN positions; NaN where a row is constant (all its
    values equal)."""
    mask = ~(np.isnan(x) | np.isnan(y))
    n = mask.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.where(mask, x, 0.0).sum(axis=-1, keepdims=True) / n[..., None]
        my = np.where(mask, y, 0.0).sum(axis=-1, keepdims=True) / n[..., None]
        dx, dy = deviations(x, mx, mask), deviations(y, my, mask)
        r = (dx * dy).sum(-1) / np.sqrt((dx * dx).sum(-1) * (dy * dy).sum(-1))
    return np.where((n < 2) | constant(x, mask) | constant(y, mask), np.nan, r)


def _rank_rows(x: np.ndarray) -> np.ndarray:
    """Average ranks per row; NaN stays NaN."""
    return rankdata(x, axis=-1, nan_policy="omit") if np.isnan(x).any() else rankdata(x, axis=-1)


def _kendall_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b per row: sum(sx*sy) / sqrt(sum(sx^2) sum(sy^2)) over item pairs."""
    n = x.shape[-1]
    i, j = np.triu_indices(n, k=1)
    sx = np.sign(x[..., i] - x[..., j])
    sy = np.sign(y[..., i] - y[..., j])
    valid = ~(np.isnan(sx) | np.isnan(sy))
    sx, sy = np.where(valid, sx, 0.0), np.where(valid, sy, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = (sx * sy).sum(-1) / np.sqrt((sx * sx).sum(-1) * (sy * sy).sum(-1))
    return tau


def correlation_rows(x: np.ndarray, y: np.ndarray, kind: str) -> np.ndarray:
    """Correlation of type ``kind`` for every row pair of two equally shaped arrays."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if kind == "pearson":
        return _pearson_rows(x, y)
    if kind == "spearman":
        both = ~(np.isnan(x) | np.isnan(y))
        return _pearson_rows(_rank_rows(np.where(both, x, np.nan)), _rank_rows(np.where(both, y, np.nan)))
    if kind == "kendall":
        return _kendall_rows(x, y)
    raise ValueError(f"unknown correlation {kind!r}; choose from {CORRELATIONS}")


def correlations(x, y) -> dict[str, float]:
    """Pearson, Spearman and Kendall tau-b between two flat score vectors."""
    x, y = np.asarray(x, dtype=float)[None, :], np.asarray(y, dtype=float)[None, :]
    return {k: float(correlation_rows(x, y, k)[0]) for k in CORRELATIONS}


def grouped_correlation(x, y, groups: Sequence, kind: str = "pearson") -> float:
    """Mean over groups (the items sharing a ``groups`` label, e.g. the paraphrases of one source)
    of the correlation within each group; a group of fewer than :data:`MIN_POINTS` items or with a
    constant side has none and is left out; NaN when no group has one."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    members: dict = {}
    for i, g in enumerate(groups):
        members.setdefault(g, []).append(i)
    values = [correlation_rows(x[idx][None, :], y[idx][None, :], kind)[0]
              for idx in members.values() if len(idx) >= MIN_POINTS]
    defined = [v for v in values if not math.isnan(v)]
    return float(np.mean(defined)) if defined else math.nan


# --- grouping "none": all cells pooled, documents resampled as weights --------------------------

# The pooled Kendall builds its pair-sign sums in blocks of rows, and the pooled Spearman ranks
# resamples in chunks, each holding about this many floats.
_BLOCK_FLOATS = 1 << 22


class _Pooled:
    """All scored (document, system) cells of one metric/human pair, prepared so that any
    document resample is a set of weights (a document drawn k times weighs k), never a copy.

    Pearson needs weighted moments: per-document sums suffice. Spearman needs average ranks in
    the multiset: with the cells sorted once, they are cumulative sums of the weights. Kendall
    tau-b needs sums of pair-sign products; pairs of copies of one cell have sign 0, so a
    multiset's sums are quadratic forms of the document counts (document x document sums,
    built once in O(cells^2))."""

    def __init__(self, metric: np.ndarray, human: np.ndarray):
        ok = ~(np.isnan(metric) | np.isnan(human))
        self.doc = np.nonzero(ok)[0]  # row-major: cells sorted by document
        self.x, self.y = metric[ok], human[ok]
        self.n_docs = metric.shape[0]
        self._present, self._starts = np.unique(self.doc, return_index=True)
        self._cache: dict = {}

    def values(self, kind: str, counts: np.ndarray) -> np.ndarray:
        """Correlation of every resample; ``counts`` is (resamples x documents) draw counts."""
        if kind == "pearson":
            return self._pearson(counts)
        if kind == "spearman":
            step = max(1, _BLOCK_FLOATS // max(1, len(self.x)))
            out = []
            for k in range(0, len(counts), step):
                w = counts[k:k + step][:, self.doc]
                out.append(_weighted_pearson(self._ranks("x", w), self._ranks("y", w), w))
            return np.concatenate(out) if out else np.zeros(0)
        if kind == "kendall":
            d, dx, dy = self._pair_sums()
            with np.errstate(invalid="ignore", divide="ignore"):
                return (((counts @ d) * counts).sum(-1)
                        / np.sqrt(((counts @ dx) * counts).sum(-1) * ((counts @ dy) * counts).sum(-1)))
        raise ValueError(f"unknown correlation {kind!r}; choose from {CORRELATIONS}")

    def _pearson(self, counts: np.ndarray) -> np.ndarray:
        """Weighted Pearson from per-document sums of 1, x, y, x^2, y^2, xy (x, y centred on
        their overall means first, which keeps the moment formula accurate)."""
        if "moments" not in self._cache:
            x, y = self.x - self.x.mean(), self.y - self.y.mean()
            parts = np.column_stack([np.ones_like(x), x, y, x * x, y * y, x * y])
            sums = np.zeros((self.n_docs, 6))
            if len(x):
                sums[self._present] = np.add.reduceat(parts, self._starts, axis=0)
            self._cache["moments"] = sums
        n, sx, sy, sxx, syy, sxy = (counts @ self._cache["moments"]).T
        with np.errstate(invalid="ignore", divide="ignore"):
            vx, vy = sxx - sx * sx / n, syy - sy * sy / n
            r = np.clip((sxy - sx * sy / n) / np.sqrt(vx * vy), -1.0, 1.0)
        return np.where((n < 2) | self._constant("x", counts) | self._constant("y", counts), np.nan, r)

    def _constant(self, side: str, counts: np.ndarray) -> np.ndarray:
        """Per resample: whether the drawn cells on ``side`` all have one value."""
        key = f"range-{side}"
        if key not in self._cache:
            v = self.x if side == "x" else self.y
            low, high = np.full(self.n_docs, np.inf), np.full(self.n_docs, -np.inf)
            if len(v):
                low[self._present] = np.minimum.reduceat(v, self._starts)
                high[self._present] = np.maximum.reduceat(v, self._starts)
            self._cache[key] = (low, high)
        low, high = self._cache[key]
        drawn = counts > 0
        return ~(np.where(drawn, high, -np.inf).max(-1) > np.where(drawn, low, np.inf).min(-1))

    def _ranks(self, side: str, w: np.ndarray) -> np.ndarray:
        """Average ranks of the cells on ``side`` (``x`` metric, ``y`` human) in the multiset
        each row of cell weights ``w`` describes."""
        key = f"order-{side}"
        if key not in self._cache:
            v = self.x if side == "x" else self.y
            order = np.argsort(v, kind="stable")
            first = np.r_[True, np.diff(v[order]) != 0]  # the start of each run of tied values
            self._cache[key] = (order, np.flatnonzero(first), np.cumsum(first) - 1)
        order, starts, group = self._cache[key]
        ws = w[:, order]
        total = np.add.reduceat(ws, starts, axis=1)          # weight of each tie group
        before = np.cumsum(total, axis=1) - total            # weight of all smaller values
        ranks = np.empty_like(ws)
        ranks[:, order] = (before + (total + 1.0) / 2.0)[:, group]
        return ranks

    def _pair_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Document x document sums of sign(dx)sign(dy), sign(dx)^2 and sign(dy)^2 over cell pairs."""
        if "pairs" not in self._cache:
            k, n = self.n_docs, len(self.x)
            sums = [np.zeros((k, k)) for _ in range(3)]
            ends = np.r_[self._starts[1:], n]
            # blocks of whole documents, about _BLOCK_FLOATS pair signs each
            per_block = max(1, _BLOCK_FLOATS // max(1, n))
            d = 0
            while d < len(self._present):
                e = d + 1
                while e < len(self._present) and ends[e] - self._starts[d] <= per_block:
                    e += 1
                rows = slice(self._starts[d], ends[e - 1])
                # float32 holds these small integer sums exactly and halves the memory traffic
                sx = np.sign(self.x[rows, None] - self.x[None, :]).astype(np.float32)
                sy = np.sign(self.y[rows, None] - self.y[None, :]).astype(np.float32)
                local = self._starts[d:e] - self._starts[d]
                docs = self._present[d:e]
                for total, prod in zip(sums, (sx * sy, np.abs(sx), np.abs(sy))):
                    by_doc = np.add.reduceat(np.add.reduceat(prod, self._starts, axis=1), local, axis=0)
                    total[np.ix_(docs, self._present)] += by_doc
                d = e
            self._cache["pairs"] = tuple(sums)
        return self._cache["pairs"]


def _weighted_pearson(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Pearson r per row of weights ``w`` (x, y per-row arrays); NaN where a side's values of
    positive weight are all equal."""
    n = w.sum(-1, keepdims=True)
    drawn = w > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = deviations(x, (w * x).sum(-1, keepdims=True) / n, drawn)
        dy = deviations(y, (w * y).sum(-1, keepdims=True) / n, drawn)
        r = (w * dx * dy).sum(-1) / np.sqrt((w * dx * dx).sum(-1) * (w * dy * dy).sum(-1))
    return np.where((n[:, 0] < 2) | constant(x, drawn) | constant(y, drawn), np.nan, r)


def draw_counts(resamples: np.ndarray, n_docs: int) -> np.ndarray:
    """(resamples x documents) draw counts of index resamples: a resample as weights."""
    out = np.zeros((resamples.shape[0], n_docs))
    np.add.at(out, (np.repeat(np.arange(resamples.shape[0]), resamples.shape[1]), resamples.ravel()), 1.0)
    return out


# --- values per grouping ------------------------------------------------------------------------


def _grouping_values(metric: np.ndarray, human: np.ndarray, grouping: str, kind: str,
                     resamples: np.ndarray | None, pooled: _Pooled | None = None) -> np.ndarray:
    """Correlation under ``grouping`` on the original documents (resamples None) or per resample;
    ``pooled`` reuses the prepared cells of the ``none`` grouping across calls."""
    if grouping == "item":
        per_doc = correlation_rows(metric, human, kind)
        if resamples is None:
            defined = per_doc[~np.isnan(per_doc)]
            return np.array(defined.mean() if defined.size else math.nan)
        picked = per_doc[resamples]
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", category=RuntimeWarning)  # a resample of constant documents
            return np.nanmean(picked, axis=-1)
    if grouping == "system":
        idx = np.arange(metric.shape[0])[None, :] if resamples is None else resamples
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", category=RuntimeWarning)  # a system absent from a resample
            m = np.nanmean(metric[idx], axis=1)
            h = np.nanmean(human[idx], axis=1)
        values = correlation_rows(m, h, kind)
        return values[0] if resamples is None else values
    if grouping == "none":
        pooled = pooled or _Pooled(metric, human)
        counts = np.ones((1, metric.shape[0])) if resamples is None else draw_counts(resamples, metric.shape[0])
        values = pooled.values(kind, counts)
        return values[0] if resamples is None else values
    raise ValueError(f"unknown grouping {grouping!r}; choose from {GROUPINGS}")


@dataclass(frozen=True)
class Correlation:
    """One correlation with its bootstrap confidence interval (95% unless another alpha was
    asked for) and the interval's ``method``; ``flags`` say what a reader must know about the
    interval (the point estimate falls outside it, BCa fell back to percentile, no interval)."""

    value: float
    low: float
    high: float
    method: str = "percentile"
    flags: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        out: dict = {"value": self.value, "ci_low": self.low, "ci_high": self.high}
        if self.flags:
            out["flags"] = list(self.flags)
        return out


def resample_documents(n_docs: int, n_boot: int = 1000, seed: int = 0) -> np.ndarray:
    """(n_boot x n_docs) document indices drawn with replacement, reproducible by ``seed``."""
    return np.random.default_rng(seed).integers(0, n_docs, size=(n_boot, n_docs))


def resample_counts(n_docs: int, n_boot: int = 1000, seed: int = 0) -> np.ndarray:
    """(n_boot x n_docs) draw counts of the resamples of :func:`resample_documents`."""
    return draw_counts(resample_documents(n_docs, n_boot, seed), n_docs)


def percentile_bounds(boot: np.ndarray, alpha: float = 0.05) -> tuple[float, float]:
    """The percentile interval of bootstrap values: their alpha/2 and 1 - alpha/2 percentiles."""
    low, high = np.percentile(boot, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(low), float(high)


def percentile_interval(value: float, boot: np.ndarray, alpha: float = 0.05) -> Correlation:
    """``value`` with the percentile interval of its bootstrap values (NaN ones dropped); no
    interval for a NaN value or without a defined resample; flagged when outside its interval."""
    boot = boot[~np.isnan(boot)]
    if math.isnan(value) or not boot.size:
        return Correlation(value, math.nan, math.nan)
    low, high = percentile_bounds(boot, alpha)
    return Correlation(value, low, high, flags=() if low <= value <= high else ("outside-interval",))


def share_better(a: np.ndarray, b: np.ndarray) -> float:
    """Share of resamples where value ``a`` exceeds ``b`` (Koehn's paired test), resamples
    where either is NaN left out; NaN when none is left."""
    ok = ~(np.isnan(a) | np.isnan(b))
    return float((a[ok] > b[ok]).mean()) if ok.any() else math.nan


def correlate(metric, human, grouping: str = "none", kind: str = "pearson", resamples: np.ndarray | None = None,
              ci: str = "percentile", alpha: float = 0.05) -> Correlation:
    """Correlation of a metric with human scores under ``grouping`` (``none``, ``item`` or
    ``system``) plus a bootstrap CI over the given document ``resamples`` (see
    :func:`resample_documents`): ``ci="percentile"`` or ``"bca"`` (bias-corrected and
    accelerated; acceleration from the jackknife over documents). Without resamples the interval
    is NaN. A point estimate outside its own interval is flagged, never silent."""
    if ci not in CI_METHODS:
        raise ValueError(f"unknown CI method {ci!r}; choose from {CI_METHODS}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
    metric, human = _as_matrix(metric), _as_matrix(human)
    if metric.shape != human.shape:
        raise ValueError(f"metric scores {metric.shape} and human scores {human.shape} differ in shape")
    pooled = _Pooled(metric, human) if grouping == "none" else None
    value = float(_grouping_values(metric, human, grouping, kind, None, pooled))
    if resamples is None:
        return Correlation(value, math.nan, math.nan, ci)
    if metric.shape[0] < 2:
        return Correlation(value, math.nan, math.nan, ci,
                           (f"no-interval: {metric.shape[0]} document to resample (every resample is the same)",))
    boot = _grouping_values(metric, human, grouping, kind, resamples, pooled)
    boot = boot[~np.isnan(boot)]
    if math.isnan(value):
        return Correlation(value, math.nan, math.nan, ci)
    if not boot.size:
        return Correlation(value, math.nan, math.nan, ci, ("no-interval: no resample gave a defined correlation",))
    if ci == "percentile":
        low, high = percentile_bounds(boot, alpha)
        flags: tuple[str, ...] = ()
    else:
        jack = _jackknife(metric, human, grouping, kind, pooled)
        (low, high), flags = bca_bounds(value, boot, jack, alpha)
    if not low <= value <= high:
        flags = (*flags, f"outside-interval: the point estimate {value:.4f} lies outside its "
                         f"{ci} interval [{low:.4f}, {high:.4f}] (skewed or degenerate resamples)")
        warnings.warn(f"correlation {value:.4f} ({grouping}, {kind}) lies outside its {ci} bootstrap "
                      f"interval [{low:.4f}, {high:.4f}]", OutsideIntervalWarning, stacklevel=2)
    return Correlation(value, float(low), float(high), ci, tuple(flags))


class OutsideIntervalWarning(UserWarning):
    """A correlation's point estimate lies outside its own bootstrap interval."""


def _jackknife(metric: np.ndarray, human: np.ndarray, grouping: str, kind: str,
               pooled: _Pooled | None = None) -> np.ndarray:
    """Leave-one-document-out values (NaN dropped), for the BCa acceleration; computed from
    totals minus the left-out document, so memory stays (documents x systems)."""
    n = metric.shape[0]
    if n < 2:
        return np.zeros(0)
    if grouping == "item":
        per_doc = correlation_rows(metric, human, kind)
        ok = ~np.isnan(per_doc)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = (np.nansum(per_doc) - np.where(ok, per_doc, 0.0)) / (ok.sum() - ok)
    elif grouping == "system":
        def left_out_means(x):
            ok = ~np.isnan(x)
            total, count = np.where(ok, x, 0.0).sum(0), ok.sum(0)
            with np.errstate(invalid="ignore", divide="ignore"):
                return (total - np.where(ok, x, 0.0)) / (count - ok)
        values = correlation_rows(left_out_means(metric), left_out_means(human), kind)
    elif grouping == "none":
        pooled = pooled or _Pooled(metric, human)
        step = max(1, _BLOCK_FLOATS // n)
        parts = []
        for start in range(0, n, step):
            counts = np.ones((min(step, n - start), n))
            counts[np.arange(len(counts)), np.arange(start, start + len(counts))] = 0.0
            parts.append(pooled.values(kind, counts))
        values = np.concatenate(parts)
    else:
        raise ValueError(f"unknown grouping {grouping!r}; choose from {GROUPINGS}")
    return values[~np.isnan(values)]


def bca_bounds(value: float, boot: np.ndarray, jack: np.ndarray,
               alpha: float) -> tuple[tuple[float, float], tuple[str, ...]]:
    """Efron's BCa interval: bias correction z0 from the share of resamples below the estimate,
    acceleration from the jackknife skewness; percentile levels adjusted accordingly."""
    flags: list[str] = []
    below = (np.sum(boot < value) + 0.5 * np.sum(boot == value)) / boot.size
    if below <= 0.0 or below >= 1.0:
        flags.append("bca-degenerate: every resample lies on one side of the estimate; percentile interval given")
        return percentile_bounds(boot, alpha), tuple(flags)
    z0 = norm.ppf(below)
    accel = 0.0
    if jack.size >= 2:
        d = jack.mean() - jack
        denom = 6.0 * (d * d).sum() ** 1.5
        accel = float((d ** 3).sum() / denom) if denom > 0 else 0.0
    z = norm.ppf([alpha / 2, 1 - alpha / 2])
    levels = norm.cdf(z0 + (z0 + z) / (1 - accel * (z0 + z)))
    return tuple(np.percentile(boot, 100 * levels)), tuple(flags)


def paired_significance(metric_a, metric_b, human, grouping: str, kind: str, resamples: np.ndarray) -> float:
    """Koehn-style test: share of document resamples where metric a correlates better than b."""
    human = _as_matrix(human)
    return share_better(_grouping_values(_as_matrix(metric_a), human, grouping, kind, resamples),
                        _grouping_values(_as_matrix(metric_b), human, grouping, kind, resamples))


def _as_matrix(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"scores must be a (documents x systems) matrix, got shape {x.shape}")
    return x


# --- tables over many metrics and human dimensions ---------------------------------------------


def matrices(records: Records, names: Sequence[str], topics: Sequence[str],
             systems: Sequence[str]) -> dict[str, np.ndarray]:
    """One (topics x systems) matrix per name; NaN where a summary or a score is missing."""
    t_index = {t: i for i, t in enumerate(topics)}
    s_index = {s: j for j, s in enumerate(systems)}
    out = {n: np.full((len(topics), len(systems)), np.nan) for n in names}
    for (topic, system), values in records.items():
        if topic in t_index and system in s_index:
            for n in names:
                v = values.get(n)
                if v is not None and not math.isnan(v):
                    out[n][t_index[topic], s_index[system]] = v
    return out


#: fewest points a correlation is defined on (two points always correlate perfectly)
MIN_POINTS = 3


def undefined_reason(n_points: int, what: str, value: float) -> str | None:
    """Why a correlation over ``n_points`` ``what`` (e.g. "systems") with this ``value`` says
    nothing: too few points, or a side with constant scores (NaN); None when it is defined."""
    if n_points < MIN_POINTS:
        return f"undefined: {n_points} {what} (needs at least {MIN_POINTS})"
    if value is None or math.isnan(value):
        return "undefined: constant scores on one side"
    return None


def mark_undefined(table: dict, sizes: Mapping[str, tuple[int, str]]) -> dict:
    """A :func:`correlation_table` whose undefined entries (see :func:`undefined_reason`; ``sizes``
    = grouping -> (points, what they are)) carry no number: value and interval None, the reason
    in ``undefined``; defined entries are unchanged."""
    out: dict = {}
    for grouping, by_dim in table.items():
        n, what = sizes[grouping]
        out[grouping] = {}
        for dim, by_metric in by_dim.items():
            out[grouping][dim] = {}
            for name, by_kind in by_metric.items():
                entries = {}
                for kind, entry in by_kind.items():
                    reason = undefined_reason(n, what, entry["value"])
                    entries[kind] = ({"value": None, "ci_low": None, "ci_high": None, "undefined": reason}
                                     if reason else entry)
                out[grouping][dim][name] = entries
    return out


def correlation_table(metric_m: Mapping[str, np.ndarray], human_m: Mapping[str, np.ndarray],
                      n_boot: int = 1000, seed: int = 0, groupings: Sequence[str] = TABLE_GROUPINGS,
                      ci: str = "percentile") -> dict:
    """{grouping: {dimension: {metric: {correlation: {value, ci_low, ci_high[, flags]}}}}}."""
    n_docs = next(iter(human_m.values())).shape[0]
    resamples = resample_documents(n_docs, n_boot, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OutsideIntervalWarning)  # recorded as flags in the table
        return {
            g: {
                dim: {name: {kind: correlate(m, h, g, kind, resamples, ci).as_dict() for kind in CORRELATIONS}
                      for name, m in metric_m.items()}
                for dim, h in human_m.items()
            }
            for g in groupings
        }


def significance_table(metric_m: Mapping[str, np.ndarray], human_m: Mapping[str, np.ndarray],
                       pairs: Sequence[tuple[str, str]], n_boot: int = 1000, seed: int = 0,
                       groupings: Sequence[str] = TABLE_GROUPINGS) -> dict:
    """{grouping: {dimension: {"a>b": {correlation: share of resamples a beats b}}}}."""
    n_docs = next(iter(human_m.values())).shape[0]
    resamples = resample_documents(n_docs, n_boot, seed)
    return {
        g: {
            dim: {f"{a}>{b}": {kind: paired_significance(metric_m[a], metric_m[b], h, g, kind, resamples)
                               for kind in CORRELATIONS}
                  for a, b in pairs}
            for dim, h in human_m.items()
        }
        for g in groupings
    }
