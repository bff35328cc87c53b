"""Speed of metrics on ranked outputs, as the trained metrics' cross-validated reports give it:
segments per second end to end in this process, each metric on its own seeded sample of outputs
so no metric reads texts another one prepared."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from evalcore.metric import Item, Metric

#: outputs each metric scores in the speed measurement (a seeded sample, its own for each metric)
SPEED_SAMPLE = 200


def speed(metrics: Sequence[Metric], items: Sequence[tuple[Sequence[str], str]], seed: int = 0,
          sample: int = SPEED_SAMPLE) -> dict[str, dict[str, float]]:
    """{metric name: segments, seconds, segments_per_second} over ``items`` ((references, hypothesis))."""
    order = np.random.default_rng(seed).permutation(len(items))
    out = {}
    for k, metric in enumerate(metrics):
        metric.score_batch([Item("warm up", ("warm up",))])  # models and tables loaded, not timed
        picked = [items[i] for i in order[k * sample:(k + 1) * sample]]
        start = time.perf_counter()
        metric.score_batch([Item(hyp, tuple(refs)) for refs, hyp in picked])
        seconds = time.perf_counter() - start
        out[metric.name] = {"segments": len(picked), "seconds": seconds, "segments_per_second": len(picked) / seconds}
    return out
