"""CREMER as the content score plus a readability term whose weight is chosen across judged sets.

    cremer = TESLA-S + w * sd_topic(TESLA-S) * z_topic(readability)

Within a topic (the summaries that share references) this ranks by z(TESLA-S) + w z(readability);
the value stays on TESLA-S's scale, so w = 0 is TESLA-S itself, never worse than its content input.
``w`` is chosen on held-out judged sets (:func:`choose_weight`): the weight whose smallest gain over
TESLA-S, across the sets, is largest, where each set's readability scores come from a model that
never saw it. A readability term that helps on one set and hurts on another gets the weight the
worse set allows, often 0. A topic with one summary, or whose readability is constant, keeps
its TESLA-S."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from evalcore.learn.groups import z_within

#: weights searched, from none to as much as TESLA-S's own spread within the topic
WEIGHTS = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0)


def topic_spread(values: np.ndarray, topics: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(SD of ``values`` within each item's topic, z-score within the topic; 0 where the topic has
    one item or constant values)."""
    values, topics = np.asarray(values, float), np.asarray(topics)
    sd = np.zeros(len(values))
    for t in np.unique(topics):
        sd[topics == t] = values[topics == t].std()
    return sd, z_within(values, topics)


def combine(tesla: np.ndarray, readability: np.ndarray, topics: np.ndarray, weight: float) -> np.ndarray:
    """CREMER's values: TESLA-S plus ``weight`` topic SDs of TESLA-S per topic SD of readability."""
    tesla_sd, _ = topic_spread(tesla, topics)
    _, readability_z = topic_spread(readability, topics)
    return np.asarray(tesla, float) + weight * tesla_sd * readability_z


def choose_weight(sets: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray]],
                  criterion: Callable[[str, np.ndarray], float],
                  weights: Sequence[float] = WEIGHTS) -> tuple[float, dict[str, dict[str, float]]]:
    """(the weight maximising the smallest gain over TESLA-S across ``sets``, each weight's gain per
    set). ``sets``: name -> (TESLA-S, readability scores no model fitted on that set, topics);
    ``criterion(name, values)``: the statistic on that set's human scores (higher is better)."""
    base = {name: criterion(name, tesla) for name, (tesla, _, _) in sets.items()}
    gains = {f"{w:g}": {name: criterion(name, combine(t, r, topics, w)) - base[name]
                        for name, (t, r, topics) in sets.items()} for w in weights}
    best = max(weights, key=lambda w: (min(gains[f"{w:g}"].values()), -w))
    return float(best), gains
