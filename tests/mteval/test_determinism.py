"""Identical (references, candidate) give bit-identical scores wherever they sit in a batch: two
systems with the same output for a segment must tie exactly, not differ by 1e-15."""

from pathlib import Path

import numpy as np

from evalcore.metric import Item
from evalcore.metric.registry import get_metric
from mteval.learn.model import LinearModel

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"


def test_a_linear_models_row_value_does_not_depend_on_the_batch():
    rng = np.random.default_rng(0)
    X = rng.random((37, 33))
    model = LinearModel(tuple(f"f{k}" for k in range(33)), rng.normal(size=33), 0.25)
    whole = model.raw(X)
    for size in (1, 2, 5, 16):
        parts = np.concatenate([model.raw(X[k:k + size]) for k in range(0, len(X), size)])
        assert parts.tobytes() == whole.tobytes()


def test_beer_scores_one_output_identically_alone_and_in_a_batch():
    refs = (DEMO / "ref.A.en").read_text("utf-8").splitlines()
    outputs = [*(DEMO / "system-a.en").read_text("utf-8").splitlines(),
               *(DEMO / "system-b.en").read_text("utf-8").splitlines()]
    items = [Item(o, (r,)) for o, r in zip(outputs, refs + refs)]
    metric = get_metric("beer")
    batch = [s.value for s in metric.score_batch(items)]
    alone = [metric.score_batch([it])[0].value for it in items]
    assert batch == alone
