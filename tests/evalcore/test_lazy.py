"""Lazy resources (evalcore.metric.lazy): built on first use, once across threads, dropped when a
parameter that selects them changes, never pickled with their metric."""

import pickle
import threading
import time

import pytest

from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.lazy import LazyResource, lazy_resource, reset

builds: list[str] = []


class Loaded(ReferenceMetric):
    name = "loaded"

    def __init__(self, model: str = "a", scale: bool = True):
        self.model = model
        self.scale = scale

    @lazy_resource("model")
    def resource(self) -> list:
        """A large thing built from ``model``."""
        time.sleep(0.05)  # a slow build: threads arriving meanwhile must wait for it
        builds.append(self.model)
        return [self.model] * 100_000

    @lazy_resource()
    def any_param(self) -> tuple:
        return (self.model, self.scale)

    def _score_items(self, items):
        return [Score(float(len(self.resource[0]) * (2 if self.scale else 1))) for _ in items]


@pytest.fixture(autouse=True)
def _clear():
    builds.clear()


def test_built_on_first_use_once_across_threads():
    metric = Loaded()
    assert builds == [] and "_lazy_resource" not in metric.__dict__
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(metric.resource)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert builds == ["a"] and all(s is seen[0] for s in seen)


def test_set_params_drops_only_what_the_changed_parameters_select():
    metric = Loaded()
    first, both = metric.resource, metric.any_param
    metric.set_params(scale=False)
    assert metric.resource is first and builds == ["a"]  # scale does not select the model
    assert metric.any_param == ("a", False) and metric.any_param is not both  # no names: any parameter
    metric.set_params(model="b")
    assert metric.resource[0] == "b" and builds == ["a", "b"]
    reset(metric)
    assert "_lazy_resource" not in metric.__dict__


def test_a_built_resource_never_travels_with_its_metric():
    metric = Loaded()
    assert metric.score_batch([Item("cand", ("ref",))])[0].value == 2.0
    assert "_lazy_resource" in metric.__dict__
    blob = pickle.dumps(metric)
    assert len(blob) < 1000  # the parameters only, not the 100,000-item resource
    copy = pickle.loads(blob)
    assert copy.get_params() == metric.get_params() and "_lazy_resource" not in copy.__dict__


def test_a_resource_is_not_assigned_and_the_class_shows_the_descriptor():
    metric = Loaded()
    with pytest.raises(AttributeError, match="set_params"):
        metric.resource = []
    doc = Loaded.resource.__doc__
    assert isinstance(Loaded.resource, LazyResource) and doc is not None and doc.startswith("A large thing")
