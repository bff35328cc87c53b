"""`python -m benchmarks transfer`: the trained metrics across domains (SummEval news, DialSummEval chat).

Four settings: trained on SummEval and tested on DialSummEval, the reverse, and 5-fold
cross-validation grouped by document inside each set (benchmarks.md: sort document ids, fold =
index mod 5). Every DICOMER variant, the entity grid and CREMER-RBF/PF/LF (and the experimental
variants with ``experiments=True``) stand beside TESLA-S, ROUGE-1/2/L/SU4, length in
tokens and, on DialSummEval, upstream's BARTScore/BERTScore/MoverScore. Reported per setting and
human dimension (coherence, fluency, the mean of the four): summary-level Spearman and Kendall,
system-level Kendall and Pearson with bootstrap CIs over documents, on all summaries (a flagged
summary counts with its neutral value) and on the judged ones, coverage, and the summary-level
partial Spearman given length. A permutation test (original vs 20 seeded sentence permutations)
runs on GDTB test documents and TED-MDB talks, texts of genres neither summary set has.

No model ever scores a document it was trained on; DialSummEval-trained models are research-only
(SAMSum is CC BY-NC-ND).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import machine, machine_line, peak_rss_mib, write_report
from coherence.corpora import load_gdtb, load_tedm
from coherence.dicomer.analysis import Analysis, AnalysisCache
from coherence.dicomer.config import DicomerConfig, variant_config
from coherence.dicomer.features import judged, text_features
from coherence.dicomer.model import DicomerModel
from coherence.dicomer.oof import document_folds
from coherence.dicomer.synthetic import OPEN_GENRES, WINDOW_SENTENCES, WINDOWS_PER_DOC, Synthetic, gdtb_windows
from evalcore.data.dialsummeval import LICENCE as DSE_LICENCE
from evalcore.data.dialsummeval import read_dialsummeval
from evalcore.data.summeval import read_summeval
from evalcore.resources.registry import cache_dir, shared_data_dir
from evalcore.stats.correlation import correlate, correlation_rows, percentile_bounds, resample_documents
from evalcore.text.preprocess import tokenize
from summeval.cremer.model import (
    DICOMER_SCALING,
    feature_matrix,
    fit_cremer,
    make_cremer,
    model_path,
    scale_dicomer,
    standardised,
    topic_z,
)

SUMMEVAL = "summeval"
DIALSUMMEVAL = "dialsummeval"
SETTINGS = ((f"{SUMMEVAL}->{DIALSUMMEVAL}", SUMMEVAL, DIALSUMMEVAL),
            (f"{DIALSUMMEVAL}->{SUMMEVAL}", DIALSUMMEVAL, SUMMEVAL),
            (f"{SUMMEVAL} CV", SUMMEVAL, SUMMEVAL),
            (f"{DIALSUMMEVAL} CV", DIALSUMMEVAL, DIALSUMMEVAL))
DIMS = ("coherence", "fluency", "mean")
MEASURES = (("summary", "spearman"), ("summary", "kendall"), ("system", "kendall"), ("system", "pearson"))
BASELINES = ("tesla-s", "rouge-1", "rouge-2", "rouge-l", "rouge-su4")
N_FOLDS = 5
N_PERMUTATIONS = 20
PARSER_TIER = 1  # the shipped DICOMER's parser



# ---------------------------------------------------------------------------------------------
# Data


@dataclass
class Domain:
    """One judged summary set, items aligned across every array."""

    name: str
    topics: np.ndarray
    systems: np.ndarray
    human: dict[str, np.ndarray]
    analyses: list[Analysis]
    baselines: dict[str, np.ndarray]
    licence: str
    one_ref_tesla: np.ndarray  # TESLA-S against the one original reference (CREMER experiments)

    @property
    def n(self) -> int:
        return len(self.topics)

    def folds(self) -> np.ndarray:
        return document_folds(list(self.topics), N_FOLDS)


def _baseline_scores(items, names: Sequence[str]) -> dict[str, np.ndarray]:
    """TESLA-S and ROUGE values per item (the suite's own scorers), plus length in tokens."""
    from evalcore.metric.registry import build_metrics
    from summeval.pipeline import score_items

    results = score_items(items, build_metrics(names), progress=False)
    bad = [r for r in results if not r.ok]
    if bad:
        raise ValueError(f"baseline scoring failed on {len(bad)} summaries, e.g. {bad[0].name}: "
                         f"{'; '.join(f'{m}: {e}' for m, e in bad[0].errors.items())}")
    out = {n: np.array([r.scores[n] for r in results]) for n in names}
    out["length"] = np.array([float(len(tokenize(it.summary))) for it in items])
    return out


def load_domain(name: str, root: Path, cache: AnalysisCache) -> Domain:
    """SummEval (16 systems, 11 references) or DialSummEval (13 systems, reference excluded)."""
    if name == SUMMEVAL:
        path = root / "summeval" / "summeval_16sys_mean_expert.json"
        items = read_summeval(path, references="all")
        one_ref = read_summeval(path, references="original")
        anchors: dict[str, np.ndarray] = {}
        licence = "SummEval annotations MIT; CNN/DailyMail text research use"
    else:
        data = read_dialsummeval(root / "dialsummeval")
        items, one_ref, anchors, licence = list(data.items), list(data.items), data.anchors, DSE_LICENCE
    analyses = cache.analyse([it.summary for it in items])
    cache.save()
    baselines = {**_baseline_scores(items, BASELINES), **anchors}
    tesla_one = baselines["tesla-s"] if one_ref is items else _baseline_scores(one_ref, ("tesla-s",))["tesla-s"]
    human = {d: np.array([it.human[d] for it in items]) for d in ("coherence", "consistency", "fluency",
                                                                  "relevance", "mean")}
    return Domain(name, np.array([it.topic for it in items]), np.array([it.system for it in items]),
                  human, analyses, baselines, licence, tesla_one)


def permutation_sets(root: Path, cache: AnalysisCache, seed: int) -> dict[str, tuple[list, list]]:
    """GDTB test documents and TED-MDB test talks: originals and 20 seeded permutations each."""
    gdtb, _ = load_gdtb(root / "discourse" / "gdtb", "test")
    ted = load_tedm(root / "discourse" / "tedm", "test")
    out = {}
    for name, docs in (("gdtb-test", gdtb), ("tedm-test", ted)):
        texts = [d.text for d in docs]
        out[name] = (cache.analyse(texts), cache.analyse_permutations(texts, N_PERMUTATIONS, seed))
        cache.save()
    return out


# ---------------------------------------------------------------------------------------------
# Readability models


@dataclass(frozen=True)
class DicomerSpec:
    """One readability model of the benchmark.

    ``variant`` is a preset of :mod:`coherence.dicomer.config`, ``overrides`` changes its fields;
    ``neutral_flagged``: flagged texts get no features (the model's neutral value) and are left
    out of training; ``normalise="l2"`` scales each feature vector to unit length (its scale then
    does not grow with the number of features a long text fires); ``objective`` is a ``+`` list of
    ``listwise`` (the source set's summaries by document, human ``target``), ``perm`` (GDTB
    windows vs permutations) and ``insert`` (GDTB windows vs one moved sentence);
    ``genres="open"`` keeps the synthetic data to the commercially usable GUM genres; ``neutral``
    is the value of a text without features: ``median`` of the training predictions (the
    model's own), ``perm-median`` = the median score of the GDTB permutations (a text whose order
    is no evidence of coherence), ``train-min`` = the lowest training prediction."""

    name: str
    variant: str = "DICOMER"
    overrides: tuple[tuple[str, object], ...] = ()
    neutral_flagged: bool = False
    normalise: str = "none"
    objective: str = "listwise"
    target: str = "coherence"
    genres: str = "all"
    neutral: str = "median"

    @property
    def config(self) -> DicomerConfig:
        changes: dict[str, Any] = dict(self.overrides)
        return replace(variant_config(self.variant), **changes)

    @property
    def uses_summaries(self) -> bool:
        return "listwise" in self.objective.split("+")

    def judged(self, analysis: Analysis) -> bool:
        """Whether the model reads evidence in the text (the entity grid needs two sentences)."""
        return judged(analysis, self.config)


LISTWISE_VARIANTS = ("LIN", "LIN+C", "LIN+E", "DICOMER", "EGRID", "DICOMER+EGRID")
#: the shipped default: DICOMER-N on GDTB windows vs permutations, licence-clean genres
SHIPPED = "DICOMER-N/gdtb-open"
SHIPPED_ALL = "DICOMER-N/gdtb-all"  # the opt-in all-genre model (dicomer-gdtb-all)
OLD_SHIPPED = "DICOMER"  # 0.1.0's model: DICOMER preset, listwise on coherence, one-sentence indicator
_NO_IND = (("one_sentence", False),)


def dicomer_specs(experiments: bool) -> list[DicomerSpec]:
    """The shipped models (the default, the opt-in all-genre model), the listwise variants of
    0.1.0 (as `python -m benchmarks readability` trains them) and, with ``experiments``, every other
    candidate variant."""
    specs = [DicomerSpec(SHIPPED, "DICOMER-N", neutral_flagged=True, objective="perm", genres="open"),
             DicomerSpec(SHIPPED_ALL, "DICOMER-N", neutral_flagged=True, objective="perm", genres="all")]
    # other neutral values for the shipped model, computed on GDTB (the model is fitted once)
    specs += [DicomerSpec(f"{SHIPPED}[neutral={n}]", "DICOMER-N", neutral_flagged=True, objective="perm",
                          genres="open", neutral=n) for n in ("perm-median", "train-min")]
    specs += [DicomerSpec(v, v) for v in LISTWISE_VARIANTS]
    if not experiments:
        return specs
    neutral = partial(DicomerSpec, overrides=_NO_IND, neutral_flagged=True)
    shipped = partial(DicomerSpec, variant="DICOMER-N", neutral_flagged=True, objective="perm", genres="open")
    return specs + [
        DicomerSpec("DICOMER-noind", overrides=_NO_IND),
        neutral("DICOMER-neutral"),
        neutral("DICOMER-neutral-l2", normalise="l2"),
        DicomerSpec("DICOMER-neutral-nosal", overrides=_NO_IND + (("salience", False),), neutral_flagged=True),
        DicomerSpec("DICOMER-neutral-len2", overrides=_NO_IND + (("lengths", (2,)),), neutral_flagged=True),
        neutral("LIN-neutral", "LIN"),
        neutral("EGRID-neutral", "EGRID"),
        neutral("DICOMER-neutral/insert", objective="insert"),
        neutral("DICOMER-neutral/perm+insert", objective="perm+insert"),
        neutral("DICOMER-neutral/listwise+perm", objective="listwise+perm"),
        neutral("DICOMER-neutral-l2/perm", normalise="l2", objective="perm"),
        neutral("DICOMER-neutral-l2/listwise+perm", normalise="l2", objective="listwise+perm"),
        neutral("EGRID-neutral/perm", "EGRID", objective="perm"),
        neutral("DICOMER+EGRID-neutral/perm", "DICOMER+EGRID", objective="perm"),
        shipped("DICOMER-N/listwise+gdtb-open", objective="listwise+perm"),
        shipped("DICOMER-N/gdtb-open-perm+insert", objective="perm+insert"),
        DicomerSpec("LIN+E-N/gdtb-open", "LIN+E", overrides=_NO_IND + (("neutral", True),), neutral_flagged=True,
                    objective="perm", genres="open"),
    ]


class Readability:
    """Fits and memoises the readability models of every spec (features computed once per text)."""

    def __init__(self, domains: dict[str, Domain], synthetic: Synthetic | None, seed: int):
        self.domains = domains
        self.synthetic = synthetic
        self.seed = seed
        self._features: dict[tuple, dict[int, dict]] = {}
        self._models: dict[tuple, DicomerModel] = {}

    def features(self, spec: DicomerSpec, analyses: Sequence[Analysis]) -> list[dict]:
        key = (spec.config, spec.neutral_flagged, spec.normalise)
        memo = self._features.setdefault(key, {})
        config = spec.config
        out = []
        for a in analyses:
            f = memo.get(id(a))
            if f is None:
                f = {} if spec.neutral_flagged and not spec.judged(a) else text_features(a, config)
                if spec.normalise == "l2" and f:
                    norm = float(np.sqrt(sum(v * v for v in f.values())))
                    f = {k: v / norm for k, v in f.items()} if norm > 0 else f
                memo[id(a)] = f
            out.append(f)
        return out

    def _synthetic_groups(self, spec: DicomerSpec) -> tuple[list[Analysis], list[float], list[str]]:
        kinds = tuple(k for k in ("perm", "insert") if k in spec.objective.split("+"))
        if not kinds:
            return [], [], []
        if self.synthetic is None:
            raise ValueError(f"{spec.name} needs the GDTB windows")
        return self.synthetic.groups(kinds, spec.genres)

    def model(self, spec: DicomerSpec, source: str | None, train: np.ndarray | None) -> DicomerModel:
        """The model of ``spec`` trained on the ``train`` items of ``source`` (plus synthetic data);
        specs that differ only in name and neutral value share one fit."""
        use = spec.uses_summaries
        if use and (source is None or train is None):
            raise ValueError(f"{spec.name} trains on summaries: it needs a source set and its training items")
        key = (replace(spec, name="", neutral="median"), source if use else None,
               train.tobytes() if use and train is not None else None)
        if key not in self._models:
            texts, y, groups = self._synthetic_groups(spec)
            if use and source is not None and train is not None:
                dom = self.domains[source]
                idx = np.flatnonzero(train)
                texts += [dom.analyses[i] for i in idx]
                y += list(dom.human[spec.target][idx])
                groups += [f"doc:{t}" for t in dom.topics[idx]]
            feats = self.features(spec, texts)
            keep = [i for i, f in enumerate(feats) if f or not spec.neutral_flagged]
            model = DicomerModel(spec.variant, seed=self.seed).fit(
                [texts[i] for i in keep], np.array([y[i] for i in keep]), np.array([groups[i] for i in keep]),
                [feats[i] for i in keep])
            self._models[key] = model
        return self._models[key]

    def predict(self, spec: DicomerSpec, model: DicomerModel, analyses: Sequence[Analysis]) -> np.ndarray:
        feats = self.features(spec, analyses)
        values = model.decision_function(features=feats)
        if spec.neutral == "median":  # the model's own neutral value
            return values
        return np.where([not f for f in feats], self.neutral_value(spec, model), values)

    def neutral_value(self, spec: DicomerSpec, model: DicomerModel) -> float:
        """The value of a featureless text under ``spec.neutral`` (computed on GDTB, never on summaries)."""
        if spec.neutral == "train-min":
            return model.shift_
        if spec.neutral != "perm-median":
            raise ValueError(f"{spec.name}: neutral must be median, perm-median or train-min, got {spec.neutral!r}")
        if self.synthetic is None:
            raise ValueError(f"{spec.name} needs the GDTB windows")
        texts, y, _ = self.synthetic.groups(("perm",), spec.genres)
        negatives = [t for t, label in zip(texts, y) if label == 0]
        return float(np.median(model.decision_function(features=self.features(spec, negatives))))

    def out_of_fold(self, spec: DicomerSpec, source: str, within: np.ndarray, n_folds: int) -> np.ndarray:
        """Values of the ``within`` items of ``source``, each from a model that never saw its
        document (folds by document inside ``within``): CREMER's training feature."""
        dom = self.domains[source]
        out = np.full(dom.n, np.nan)
        if not spec.uses_summaries:
            out[within] = self.predict(spec, self.model(spec, None, None),
                                       [dom.analyses[i] for i in np.flatnonzero(within)])
            return out
        idx = np.flatnonzero(within)
        folds = document_folds(list(dom.topics[idx]), n_folds)
        for k in range(n_folds):
            held = np.zeros(dom.n, bool)
            held[idx[folds == k]] = True
            model = self.model(spec, source, within & ~held)
            out[held] = self.predict(spec, model, [dom.analyses[i] for i in np.flatnonzero(held)])
        return out


# ---------------------------------------------------------------------------------------------
# Responsiveness models


@dataclass(frozen=True)
class CremerSpec:
    """One CREMER configuration: SVR ``kernel`` (or ``nnls``: least squares with non-negative
    weights) over TESLA-S (``tesla``: ``all`` references, ``one`` original reference, ``topic-z``
    standardised within each document) and the readability value of ``dicomer`` (None: the
    ablation without it), ``raw`` or standardised within each document over the summaries it judged
    (``dicomer_scaling``, the shipped ``topic-z-judged``); target = mean of the four.
    ``both_sets``: trained on the source's training folds plus all of the other set (target z-scored
    within each set), as the opt-in ``cremer-news-chat`` is: only in the cross-validated settings."""

    name: str
    kernel: str
    dicomer: str | None = SHIPPED
    tesla: str = "topic-z"
    dicomer_scaling: str = DICOMER_SCALING
    both_sets: bool = False


_CREMER_NAMES = {"rbf": "CREMER-RBF", "poly": "CREMER-PF", "linear": "CREMER-LF"}
NEWS_CHAT = "CREMER-LF news+chat (opt-in)"  # the opt-in cremer-news-chat, refitted per fold


def cremer_specs(experiments: bool) -> list[CremerSpec]:
    """The shipped configuration of each kernel (TESLA-S z within topic + the shipped DICOMER; LF
    is the default ``cremer``), the ablation without DICOMER, 0.1.0's configuration (raw TESLA-S,
    listwise DICOMER) and, with ``experiments``, the other candidate variants."""
    names = _CREMER_NAMES
    specs = [CremerSpec(names[k], k) for k in ("linear", "rbf", "poly")]
    specs += [CremerSpec(f"{names[k]}-noDICOMER", k, None) for k in ("linear", "rbf")]
    specs += [CremerSpec(f"{names['linear']}[dicomer-raw]", "linear", dicomer_scaling="raw"),  # DICOMER unstandardised
              CremerSpec("CREMER-NNLS", "nnls")]
    specs += [CremerSpec(f"{names[k]} (0.1.0)", k, OLD_SHIPPED, "all", "raw") for k in ("linear", "rbf")]
    specs += [CremerSpec(NEWS_CHAT, "linear", both_sets=True)]
    if not experiments:
        return specs
    raw = "raw"
    specs += [CremerSpec(f"{names[k]}[raw]-noDICOMER", k, None, "all") for k in ("rbf", "linear")]
    specs += [CremerSpec(f"{names[k]}[one]", k, OLD_SHIPPED, "one", raw) for k in ("rbf", "linear")]
    specs += [CremerSpec("CREMER-LF[one]-noDICOMER", "linear", None, "one")]
    specs += [CremerSpec(f"{names[k]}[topic-z]+{OLD_SHIPPED}", k, OLD_SHIPPED, dicomer_scaling=raw)
              for k in ("rbf", "linear")]
    specs += [CremerSpec(f"{names['rbf']}[dicomer-raw]", "rbf", dicomer_scaling=raw),
              CremerSpec("CREMER-NNLS[dicomer-raw]", "nnls", dicomer_scaling=raw)]
    for d in (SHIPPED_ALL, "DICOMER-neutral/listwise+perm", "DICOMER-neutral"):
        specs += [CremerSpec(f"CREMER-LF+{d}", "linear", d), CremerSpec(f"CREMER-RBF+{d}", "rbf", d)]
    return specs


def _tesla(spec: CremerSpec, dom: Domain) -> np.ndarray:
    if spec.tesla == "all":
        return dom.baselines["tesla-s"]
    if spec.tesla == "one":
        return dom.one_ref_tesla
    return topic_z(dom.baselines["tesla-s"], dom.topics)


TUNINGS = ("grid", "shipped")


def shipped_svr_params(kernel: str) -> dict:
    """C, epsilon, gamma and degree the shipped CREMER model of ``kernel`` chose by grid search."""
    import json

    svr = json.loads(model_path(kernel).with_suffix(".json").read_text("utf-8"))["svr"]
    return {k: svr[k] for k in ("C", "epsilon", "gamma", "degree")}


def non_negative_least_squares():
    """The ``nnls`` candidate: CREMER's scaling with least squares whose weights are >= 0 (monotone
    in every feature by construction, nothing to tune)."""
    from sklearn.compose import TransformedTargetRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    return TransformedTargetRegressor(Pipeline([("scale", StandardScaler()), ("ls", LinearRegression(positive=True))]),
                                      transformer=StandardScaler())


def fit_responsiveness(kernel: str, x: np.ndarray, y: np.ndarray, groups: np.ndarray, tuning: str):
    """CREMER's SVR: tuned by the shipped grid search (``grid``, as `summeval train cremer`) or with
    the shipped models' chosen hyper-parameters (``shipped``, 100x faster, for experiments);
    ``nnls`` is fitted directly."""
    if kernel == "nnls":
        return non_negative_least_squares().fit(x, y)
    if tuning == "grid":
        return fit_cremer(kernel, x, y, groups)
    if tuning == "shipped":
        return make_cremer(kernel, **shipped_svr_params(kernel)).fit(x, y)
    raise ValueError(f"tuning must be one of {TUNINGS}, got {tuning!r}")


def _cremer_x(spec: CremerSpec, tesla: np.ndarray, dicomer: np.ndarray | None, judged: np.ndarray | None,
              topics: np.ndarray) -> np.ndarray:
    if dicomer is None:
        return tesla[:, None]
    if spec.dicomer_scaling == DICOMER_SCALING:
        dicomer = scale_dicomer(dicomer, judged, topics)
    elif spec.dicomer_scaling != "raw":
        raise ValueError(f"{spec.name}: dicomer_scaling must be raw or {DICOMER_SCALING}, got {spec.dicomer_scaling!r}")
    return feature_matrix(tesla, dicomer)


# ---------------------------------------------------------------------------------------------
# Settings


def splits(setting: tuple[str, str, str], domains: dict[str, Domain]) -> list[tuple[np.ndarray, np.ndarray]]:
    """(train mask over the source, test mask over the target) pairs of a setting."""
    _, source, target = setting
    if source != target:
        return [(np.ones(domains[source].n, bool), np.ones(domains[target].n, bool))]
    folds = domains[source].folds()
    return [(folds != k, folds == k) for k in range(N_FOLDS)]


def trained_scores(setting, domains: dict[str, Domain], read: Readability, dspecs: Sequence[DicomerSpec],
                   cspecs: Sequence[CremerSpec], tuning: str, log: Callable[[str], None]) -> dict[str, np.ndarray]:
    """Out-of-domain or out-of-fold values of every trained metric on the target's items."""
    _, source, target = setting
    src, tgt = domains[source], domains[target]
    by_name = {s.name: s for s in dspecs}
    if source != target:  # a model trained on both sets has no unseen set to transfer to
        cspecs = [c for c in cspecs if not c.both_sets]
    out = {name: np.full(tgt.n, np.nan) for name in [*(s.name for s in dspecs), *(c.name for c in cspecs)]}
    inner_folds = N_FOLDS if source != target else N_FOLDS - 1
    for train, test in splits(setting, domains):
        test_idx = np.flatnonzero(test)
        test_analyses = [tgt.analyses[i] for i in test_idx]
        for spec in dspecs:
            t0 = time.perf_counter()
            out[spec.name][test] = read.predict(spec, read.model(spec, source, train), test_analyses)
            log(f"    {spec.name}: {time.perf_counter() - t0:.1f} s")
        for cspec in cspecs:
            t0 = time.perf_counter()
            y = src.human["mean"][train]
            tesla_src, tesla_tgt = _tesla(cspec, src), _tesla(cspec, tgt)
            if cspec.dicomer is None:
                d_train = d_test = j_train = j_test = None
            else:
                dspec = by_name[cspec.dicomer]
                d_train = read.out_of_fold(dspec, source, train, inner_folds)[train]
                d_test = out[dspec.name][test]
                j_train = np.array([dspec.judged(src.analyses[i]) for i in np.flatnonzero(train)])
                j_test = np.array([dspec.judged(a) for a in test_analyses])
            x_train = _cremer_x(cspec, tesla_src[train], d_train, j_train, src.topics[train])
            groups = src.topics[train]
            if cspec.both_sets:
                x_train, y, groups = _with_other_set(cspec, domains, source, read, by_name, x_train, y, groups)
            model = fit_responsiveness(cspec.kernel, x_train, y, groups, tuning)
            out[cspec.name][test] = model.predict(_cremer_x(cspec, tesla_tgt[test], d_test, j_test, tgt.topics[test]))
            log(f"    {cspec.name}: {time.perf_counter() - t0:.1f} s")
    return out


def _with_other_set(spec: CremerSpec, domains: dict[str, Domain], source: str, read: Readability,
                    by_name: dict[str, DicomerSpec], x: np.ndarray, y: np.ndarray, groups: np.ndarray):
    """Training rows of the source's folds plus every summary of the other set, the targets
    z-scored within each set (as `summeval train cremer --with-dialsummeval` fits them)."""
    other = domains[DIALSUMMEVAL if source == SUMMEVAL else SUMMEVAL]
    everything = np.ones(other.n, bool)
    if spec.dicomer is None:
        raise ValueError(f"{spec.name} trains on both sets, which needs its DICOMER")
    dspec = by_name[spec.dicomer]
    d = read.out_of_fold(dspec, other.name, everything, N_FOLDS)
    judged_other = np.array([dspec.judged(a) for a in other.analyses])
    x_other = _cremer_x(spec, _tesla(spec, other), d, judged_other, other.topics)
    return (np.vstack([x, x_other]), np.concatenate([standardised(y), standardised(other.human["mean"])]),
            np.concatenate([groups, np.char.add(f"{other.name}:", other.topics.astype(str))]))


# ---------------------------------------------------------------------------------------------
# Meta-evaluation


def _matrix(dom: Domain, values: np.ndarray) -> np.ndarray:
    """(documents x systems) matrix of per-item values; NaN where a summary is absent."""
    topics = sorted(set(dom.topics))
    systems = list(dict.fromkeys(dom.systems))
    ti = {t: i for i, t in enumerate(topics)}
    si = {s: j for j, s in enumerate(systems)}
    m = np.full((len(topics), len(systems)), np.nan)
    m[[ti[t] for t in dom.topics], [si[s] for s in dom.systems]] = values
    return m


def _ci(metric: np.ndarray, human: np.ndarray, level: str, kind: str, resamples: np.ndarray) -> dict:
    """The one call into the shared meta-evaluation: value and percentile bootstrap CI."""
    grouping = {"summary": "item"}.get(level, level)  # summary level = per-item grouping
    return correlate(metric, human, grouping, kind, resamples).as_dict()


def partial_spearman(metric: np.ndarray, human: np.ndarray, length: np.ndarray, resamples: np.ndarray) -> dict:
    """Summary-level partial Spearman of metric and human given length: per document over its
    systems, averaged over documents, with the bootstrap CI of that average."""
    r_mh = correlation_rows(metric, human, "spearman")
    r_ml = correlation_rows(metric, length, "spearman")
    r_hl = correlation_rows(human, length, "spearman")
    with np.errstate(invalid="ignore", divide="ignore"):
        per_doc = (r_mh - r_ml * r_hl) / np.sqrt((1 - r_ml ** 2) * (1 - r_hl ** 2))
    per_doc = np.where(np.isfinite(per_doc), per_doc, np.nan)
    if np.isnan(per_doc).all():
        return {"value": float("nan"), "ci_low": float("nan"), "ci_high": float("nan")}
    with np.errstate(invalid="ignore"):
        boot = np.nanmean(per_doc[resamples], axis=1)
    low, high = percentile_bounds(boot[~np.isnan(boot)])
    return {"value": float(np.nanmean(per_doc)), "ci_low": low, "ci_high": high}


def evaluate(dom: Domain, scores: dict[str, np.ndarray], judged: dict[str, np.ndarray], n_boot: int,
             seed: int) -> dict:
    """{metric: {coverage, dims: {dim: {all: {level/kind: ci}, judged: {...}, partial_length}}}}."""
    n_docs = len(set(dom.topics))
    resamples = resample_documents(n_docs, n_boot, seed)
    length = _matrix(dom, dom.baselines["length"])
    human = {d: _matrix(dom, dom.human[d]) for d in DIMS}
    out = {}
    for name, values in scores.items():
        mask = judged.get(name, np.ones(dom.n, bool))
        m_all = _matrix(dom, values)
        m_judged = _matrix(dom, np.where(mask, values, np.nan))
        entry: dict[str, Any] = {"coverage": float(mask.mean()), "dims": {}}
        for d in DIMS:
            h = human[d]
            res = {"all": {f"{lv}/{k}": _ci(m_all, h, lv, k, resamples) for lv, k in MEASURES},
                   "partial_length": partial_spearman(m_all, h, length, resamples)}
            if mask.all():
                res["judged"] = res["all"]
            else:
                res["judged"] = {f"{lv}/{k}": _ci(m_judged, np.where(np.isnan(m_judged), np.nan, h), lv, k,
                                                  resamples) for lv, k in (MEASURES[0], MEASURES[2])}
            entry["dims"][d] = res
        out[name] = entry
    return out


def permutation_accuracy(model: DicomerModel, read: Readability, spec: DicomerSpec,
                         originals: Sequence[Analysis], permuted: Sequence[Sequence[Analysis]]) -> dict:
    """Share of (original, permutation) pairs where the original scores strictly higher."""
    correct = ties = pairs = 0
    for orig, perms in zip(originals, permuted):
        if not perms:
            continue
        o = read.predict(spec, model, [orig])[0]
        p = read.predict(spec, model, perms)
        correct += int((o > p).sum())
        ties += int((o == p).sum())
        pairs += len(p)
    return {"accuracy": correct / pairs if pairs else float("nan"), "ties": ties, "pairs": pairs}


# ---------------------------------------------------------------------------------------------
# Run


def run(out: Path, data: Path | None = None, n_boot: int = 1000, seed: int = 0, experiments: bool = False,
        cremer_tuning: str = "grid", log: Callable[[str], None] = print) -> dict:
    """Run the benchmark; write ``transfer.md``, ``transfer.json`` and the plots into ``out``.
    ``cremer_tuning``: see :func:`fit_responsiveness`."""
    if cremer_tuning not in TUNINGS:
        raise ValueError(f"cremer_tuning must be one of {TUNINGS}, got {cremer_tuning!r}")
    from coherence.parser.pipeline import DiscourseParser

    start = time.perf_counter()
    root = Path(data) if data else shared_data_dir()
    cache = AnalysisCache(DiscourseParser(tier=PARSER_TIER), cache_dir("dicomer"))
    timings: dict[str, Any] = {}
    t0 = time.perf_counter()
    domains = {n: load_domain(n, root, cache) for n in (SUMMEVAL, DIALSUMMEVAL)}
    timings["load_parse_baselines"] = time.perf_counter() - t0
    log(f"summary sets parsed and baselines scored: {timings['load_parse_baselines']:.0f} s")
    dspecs, cspecs = dicomer_specs(experiments), cremer_specs(experiments)
    needs_windows = any(not s.uses_summaries or "+" in s.objective for s in dspecs)
    t0 = time.perf_counter()
    synthetic = gdtb_windows(root, cache, seed, inserted=experiments) if needs_windows else None
    perm_sets = permutation_sets(root, cache, seed)
    timings["synthetic_and_permutation_parses"] = time.perf_counter() - t0
    log(f"GDTB windows and permutation sets parsed: {timings['synthetic_and_permutation_parses']:.0f} s")
    read = Readability(domains, synthetic, seed)

    results: dict[str, dict] = {}
    for setting in SETTINGS:
        name, source, target = setting
        log(f"{name}")
        t0 = time.perf_counter()
        trained = trained_scores(setting, domains, read, dspecs, cspecs, cremer_tuning, log)
        tgt = domains[target]
        judged = {s.name: np.array([s.judged(a) for a in tgt.analyses]) for s in dspecs}
        by_name = {s.name: s for s in dspecs}
        judged.update({c.name: judged[c.dicomer] for c in cspecs if c.dicomer})
        scores = {**trained, **tgt.baselines}
        t1 = time.perf_counter()
        results[name] = {"source": source, "target": target,
                         "metrics": evaluate(tgt, scores, judged, n_boot, seed),
                         "mean_score_flagged_vs_judged": {
                             s: [float(np.nanmean(trained[s][~judged[s]])) if (~judged[s]).any() else None,
                                 float(np.nanmean(trained[s][judged[s]]))] for s in by_name}}
        timings[name] = {"train_predict": t1 - t0, "meta_evaluation": time.perf_counter() - t1}
        log(f"  {name}: {t1 - t0:.0f} s training, {time.perf_counter() - t1:.0f} s meta-evaluation")

    perm = {}
    t0 = time.perf_counter()
    for spec in dspecs:
        sources = (SUMMEVAL, DIALSUMMEVAL) if spec.uses_summaries else (None,)
        for perm_source in sources:
            train = np.ones(domains[perm_source].n, bool) if perm_source else None
            model = read.model(spec, perm_source, train)
            key = f"{spec.name}@{perm_source}" if perm_source else f"{spec.name}@gdtb-train"
            perm[key] = {s: permutation_accuracy(model, read, spec, o, p) for s, (o, p) in perm_sets.items()}
    timings["permutation_test"] = time.perf_counter() - t0

    report = {
        "data": str(root), "machine": machine(), "bootstrap": n_boot, "seed": seed, "experiments": experiments,
        "cremer_tuning": cremer_tuning,
        "protocol": {"folds": "sorted document ids, fold = index mod 5", "n_folds": N_FOLDS,
                     "parser_tier": PARSER_TIER, "dimensions": list(DIMS),
                     "summeval": "16 systems x 100 documents, 11 references",
                     "dialsummeval": "13 systems x 100 dialogues, SAMSum reference excluded and used as the one "
                                     "reference",
                     "judged": "DICOMER family: >= 2 sentences and >= 1 relation (the scorer's flags); entity grid: "
                               ">= 2 sentences; CREMER: as its DICOMER; other metrics judge everything",
                     "gdtb_windows": {"sentences": WINDOW_SENTENCES, "per_document": WINDOWS_PER_DOC,
                                      "n": len(synthetic.originals) if synthetic else 0,
                                      "open_genres": list(OPEN_GENRES)},
                     "permutations": N_PERMUTATIONS},
        "licences": {n: d.licence for n, d in domains.items()},
        "dicomer_specs": {s.name: {"variant": s.variant, "features": s.config.signature(),
                                   "neutral_flagged": s.neutral_flagged, "normalise": s.normalise,
                                   "objective": s.objective, "genres": s.genres} for s in dspecs},
        "cremer_specs": {c.name: {"kernel": c.kernel, "dicomer": c.dicomer, "tesla": c.tesla,
                                  "dicomer_scaling": c.dicomer_scaling} for c in cspecs},
        "settings": results, "permutation_test": perm, "timings_seconds": timings,
        "seconds": time.perf_counter() - start, "peak_rss_mib": peak_rss_mib(),
    }
    md = render_markdown(report)
    write_report(out, "transfer", md, report)
    plot(report, out)
    return report


# ---------------------------------------------------------------------------------------------
# Output


def _fmt(c: dict | None) -> str:
    if not c or c["value"] != c["value"]:
        return "-"
    return f"{c['value']:+.3f} [{c['ci_low']:+.2f}, {c['ci_high']:+.2f}]"


def _table(headers, rows) -> str:
    from evalcore.io.tables import table

    return table(headers, rows)


def render_markdown(report: dict) -> str:
    """Per setting and dimension, one row per metric; then targets and the permutation test."""
    lines = ["# Cross-domain benchmark: SummEval (news) and DialSummEval (chat)\n",
             f"Data: `{report['data']}`. Settings: train on one set and test on the other, and 5-fold CV grouped "
             f"by document on each ({report['protocol']['folds']}). Bootstrap {report['bootstrap']} resamples of "
             f"documents, seed {report['seed']}. `all` = every summary (a flagged one with its neutral value), "
             "`judged` = only summaries the metric judged (coverage = their share); `partial|len` = summary-level "
             "partial Spearman given length in tokens. DialSummEval-trained models are research-only "
             "(SAMSum CC BY-NC-ND).\n",
             machine_line(report["machine"]) + f" Total {report['seconds']:.0f} s.\n"]
    for name in report["settings"]:
        for dim in DIMS:
            lines += [f"## {name}: {dim}\n", setting_table(report, name, dim), ""]
    lines += ["## Targets (cross-domain, all summaries)\n", targets_table(report), ""]
    lines += ["## Permutation test (original vs 20 seeded permutations; accuracy %, ties count as wrong)\n",
              permutation_table(report), ""]
    return "\n".join(lines) + "\n"


def setting_table(report: dict, setting: str, dim: str) -> str:
    """One setting's correlations with one human dimension, a row per metric."""
    rows = []
    for metric, entry in report["settings"][setting]["metrics"].items():
        r = entry["dims"][dim]
        rows.append([metric, f"{entry['coverage'] * 100:.0f}%", _fmt(r["all"]["summary/spearman"]),
                     _fmt(r["all"]["summary/kendall"]), _fmt(r["all"]["system/kendall"]),
                     _fmt(r["all"]["system/pearson"]), _fmt(r["judged"]["summary/spearman"]),
                     _fmt(r["judged"]["system/kendall"]), _fmt(r["partial_length"])])
    return _table(["metric", "coverage", "summary ρ (all)", "summary τ (all)", "system τ (all)", "system r (all)",
                   "summary ρ (judged)", "system τ (judged)", "partial ρ|len"], rows)


def targets_table(report: dict) -> str:
    """The cross-domain targets (:func:`target_rows`), met or not."""
    return _table(["setting", "check", "metric", "reference", "met"], target_rows(report))


def permutation_table(report: dict) -> str:
    """Permutation accuracy (%) of every readability model on each held-out document set."""
    perm = report["permutation_test"]
    sets = sorted({s for v in perm.values() for s in v})
    return _table(["model@trained on", *sets], [[k, *(f"{v[s]['accuracy'] * 100:.1f}" for s in sets)]
                                                for k, v in perm.items()])


def _value(report: dict, setting: str, metric: str, dim: str, measure: str) -> dict:
    return report["settings"][setting]["metrics"][metric]["dims"][dim]["all"][measure]


def target_rows(report: dict) -> list[list[str]]:
    """The targets in both cross-domain settings: the default DICOMER above zero (CI
    excluding it), ROUGE-2 and length on coherence; the default CREMER above TESLA-S and ROUGE-2 on
    the mean of the four dimensions at both levels, and above its ablation without DICOMER."""
    rows = []
    cremer = _CREMER_NAMES["linear"]
    for setting in [n for n, src, tgt in SETTINGS if src != tgt]:
        d = _value(report, setting, SHIPPED, "coherence", "summary/spearman")
        rows.append([setting, "DICOMER coherence ρ > 0, CI excludes 0", _fmt(d), "0",
                     "yes" if d["ci_low"] > 0 else "no"])
        for other in ("rouge-2", "length"):
            o = _value(report, setting, other, "coherence", "summary/spearman")
            rows.append([setting, f"DICOMER coherence ρ > {other}", _fmt(d), _fmt(o),
                         "yes" if d["value"] > o["value"] else "no"])
        for measure in ("summary/spearman", "system/kendall"):
            c = _value(report, setting, cremer, "mean", measure)
            for other in ("tesla-s", "rouge-2", f"{cremer}-noDICOMER"):
                o = _value(report, setting, other, "mean", measure)
                rows.append([setting, f"CREMER mean {measure} > {other}", _fmt(c), _fmt(o),
                             "yes" if c["value"] > o["value"] else "no"])
    return rows


def plot(report: dict, out: Path) -> list[Path]:
    """Summary-level Spearman with CIs per metric and setting, one PNG per dimension."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    settings = list(report["settings"])
    for dim in ("coherence", "mean"):
        metrics = list(dict.fromkeys(m for s in settings for m in report["settings"][s]["metrics"]))
        fig, axes = plt.subplots(1, len(settings), figsize=(4 * len(settings), 0.28 * len(metrics) + 1.5),
                                 sharey=True)
        for ax, name in zip(axes, settings):
            entries = report["settings"][name]["metrics"]
            vals = [entries.get(m, {}).get("dims", {}).get(dim, {}).get("all", {}).get("summary/spearman")
                    for m in metrics]
            v = np.array([x["value"] if x else np.nan for x in vals])
            lo = np.array([x["ci_low"] if x else np.nan for x in vals])
            hi = np.array([x["ci_high"] if x else np.nan for x in vals])
            ypos = np.arange(len(metrics))
            ax.barh(ypos, np.nan_to_num(v), xerr=[np.nan_to_num(v - lo), np.nan_to_num(hi - v)], color="tab:blue",
                    alpha=0.7, error_kw={"lw": 0.8})
            ax.axvline(0, color="black", lw=0.6)
            ax.set_title(name, fontsize=9)
            ax.set_yticks(ypos, metrics, fontsize=7)
            ax.invert_yaxis()
        fig.suptitle(f"Summary-level Spearman with {dim} (all summaries, 95% CI)", fontsize=10)
        fig.tight_layout()
        path = out / f"transfer_{dim}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths
