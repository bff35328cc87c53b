"""BEER's training (`mteval train beer`): logistic regression on pairwise feature differences of
WMT12 human rankings into English (paper §2), cross-validated by segment for the benchmark, the
shipped model trained on all of it.

The ranked set (readers, outputs, unreadable lines) is TESLA-F's (:func:`mteval.tesla.train.load_ranked_set`);
features are cached per output below the suite's cache root (:mod:`mteval.learn.cache`), keyed by
a hash of the feature names, the decisions and the text preparation.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from evalcore.io.runinfo import source_commit
from evalcore.resources.registry import shared_data_dir, usable_cache_dir
from mteval.beer.extract import describe, feature_rows
from mteval.beer.features import FEATURES
from mteval.learn.cache import cached_rows
from mteval.learn.model import LinearModel, save_linear_model
from mteval.learn.pairwise import fit_logistic
from mteval.learn.ranked import INTO_ENGLISH, RankedSet, load_ranked_set

#: bumped when a feature's definition changes, so old cached rows are not read
FEATURE_VERSION = 1
LICENCE = ("weights learned from the WMT12 human rankings, which WMT distributes for research use: "
           "use this model for research; for other uses retrain on rankings you may use (`mteval train beer`)")


def raw_features(data: RankedSet, log: Callable[[str], None] = print) -> np.ndarray:
    """(outputs x 33) BEER features of every ranked output, cached per output."""
    config = hashlib.sha1(json.dumps([FEATURE_VERSION, FEATURES, describe()], sort_keys=True).encode())
    cache = usable_cache_dir("mteval")
    path = cache / f"beer-features-{config.hexdigest()[:16]}.npz" if cache is not None else None
    return cached_rows(data.items, path, feature_rows, len(FEATURES), log)


def fit(X: np.ndarray, data: RankedSet, names: Sequence[str] = FEATURES, rankings=None, seed: int = 0) -> LinearModel:
    """BEER's logistic ranker on the preferences of ``rankings`` (default: all) over columns ``names``."""
    return fit_logistic(X, data.rankings if rankings is None else rankings, data.index(), names, seed=seed)


def signature(seed: int) -> str:
    """The shipped model's training signature: features, decisions and text preparation."""
    return "beer|" + "|".join(f"{k}:{v}" for k, v in describe().items()) + f"|learner:logreg-pairwise|seed:{seed}"


def train_default(out: Path, data_root: Path | None = None, max_segments: int = 0, seed: int = 0,
                  log: Callable[[str], None] = print) -> Path:
    """Train BEER on the WMT12 into-English rankings of ``max_segments`` segments (0 = all) and
    save it as a model file."""
    root = (data_root or shared_data_dir()) / "mt" / "wmt12"
    data = load_ranked_set(root, max_segments=max_segments, seed=seed)
    X = raw_features(data, log)
    model = fit(X, data, seed=seed)
    info = {"signature": signature(seed), "decisions": describe(),
            "trained_on": f"WMT12 human rankings into English ({', '.join(INTO_ENGLISH)}): {len(data.rankings)} "
                          f"rankings of {len(data.keys)} outputs, {len({k[1] for k in data.keys})} segments",
            "licence": LICENCE, "commit": source_commit(), "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "seed": seed, "max_segments": max_segments, "unreadable_outputs": len(data.unreadable)}
    path = save_linear_model(model, out, info, "beer")
    log(f"BEER trained on {len(data.rankings)} rankings; weights: "
        + ", ".join(f"{n} {w:+.3g}" for n, w in zip(FEATURES, model.weights)) + f"; written to {path}")
    return path
